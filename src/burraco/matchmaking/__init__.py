"""Quick play's matchmaking, as pure logic (no I/O, no asyncio, time passed in): a queue per
mode, ruleset and time control seats players of similar rating together, the accepted gap
widening while they wait; a player may let bots fill his table after some seconds; pairs queue
together and sit as partners (docs/quickplay.md). The server runs it and opens the tables."""

from .queue import Group, Queue, QueueError, Seeker
from .settings import PRESETS, QueueSettings

__all__ = ["PRESETS", "Group", "Queue", "QueueError", "QueueSettings", "Seeker"]
