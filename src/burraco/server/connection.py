"""One client connection: who it is and a bounded outbox that a writer task drains.

Tables never await a socket: they drop encoded messages in the outbox. A client too slow to keep
up fills it and is disconnected (it can reconnect and resynchronise from a snapshot).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Final

from burraco.store import UserInfo

from .ratelimit import Bucket

OUTBOX_LIMIT: Final = 1000
JOIN_BURST: Final = 10
_ids = itertools.count(1)


class Connection:
    def __init__(
        self,
        user: UserInfo,
        *,
        joins_per_minute: float = 60.0,
        session: str | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = next(_ids)
        self.user = user
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self.closed = False
        self.close_code: int | None = None
        """The WebSocket close code to end with (None: a normal closure)."""
        self.tables: set[str] = set()
        self.remote: dict[str, str] = {}
        """In a cluster: the joined tables another process runs, with that process (the
        client's table messages are forwarded to it, ``cluster/node.py``)."""
        self.session = session
        """The session token the socket was opened with (a logout closes it)."""
        rate = joins_per_minute / 60
        burst = max(JOIN_BURST, 3 * rate)
        self.joins = Bucket(rate, burst, burst, monotonic(), monotonic)
        """Joins this connection may still make (each costs a snapshot or a resend); its time
        is the hub's clock's (``monotonic``)."""

    def send(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self, code: int | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        # Wake the writer so it can close the socket; make room for the sentinel if needed.
        while True:
            try:
                self.outbox.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.user.name}>"
