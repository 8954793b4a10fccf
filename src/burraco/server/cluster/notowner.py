"""What the rest of the server needs to know of the cluster without importing it (a single
process never loads Redis's client): the refusal of a table run elsewhere, the reconnect code."""

from __future__ import annotations

from burraco.errors import ErrorCode

from ..errors import close_code
from ..table import TableError

RECONNECT = close_code(ErrorCode.RECONNECT)
"""The close code that tells a client to connect again (4503, docs/protocol.md)."""


class NotOwner(TableError):
    """The table runs in another live process (the caller forwards, or the client retries)."""

    def __init__(self, table_id: str, node: str | None) -> None:
        super().__init__(
            ErrorCode.TABLE_MOVED,
            f"table {table_id} runs in another server process; try again",
        )
        self.node = node
