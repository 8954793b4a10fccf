"""A table: one asyncio actor that serialises every command for one table (DESIGN.md, habit 7).

Every change goes through the actor's queue: seats, actions, chat, timers, bot moves. An action
is checked by the engine, applied to a copy of the state, written to the store, and only then
does the copy become the table's state and the events go out: nobody hears of an action that
is not durable. Events are numbered (``seq``); each connection gets what its seat may see; a
client that reconnects gets what it missed, or a full snapshot.

The parts: ``actor`` (the queue and the dispatch), ``commands`` (one value per command),
``seats``, ``play``, ``bots``, ``timers`` (clocks, deadlines, eviction), ``history`` (numbered
events, resends, snapshots), ``recovery`` (after a restart), ``finish`` (result and record),
``status`` (TableStatus); ``core`` declares what they share.
"""

from __future__ import annotations

from . import commands
from .actor import TableActor
from .core import TableError
from .history import CHAT_MEMORY, EVENT_MEMORY
from .seats import SeatState
from .status import TableStatus

__all__ = [
    "CHAT_MEMORY",
    "EVENT_MEMORY",
    "SeatState",
    "TableActor",
    "TableError",
    "TableStatus",
    "commands",
]
