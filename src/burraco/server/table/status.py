"""Where a table is in its life: the values are the strings the store keeps and JSON carries."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    OPEN = "open"
    """Waiting for players (a rematch opens the table again)."""
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    """Withdrawn before it started (by its creator, or deserted)."""

    @property
    def is_over(self) -> bool:
        """Finished or cancelled: loaded only to be read, and let go when nobody watches."""
        return self in (TableStatus.FINISHED, TableStatus.CANCELLED)

    @property
    def is_live(self) -> bool:
        """Open or playing: listed in the lobby, resumed after a restart."""
        return self in (TableStatus.OPEN, TableStatus.PLAYING)


LIVE_STATUSES: tuple[TableStatus, ...] = (TableStatus.OPEN, TableStatus.PLAYING)
"""The statuses of the tables a server resumes at start."""
