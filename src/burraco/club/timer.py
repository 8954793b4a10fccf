"""The room's game timer (seed 003: the referee "detterà i tempi di gioco"): each game's time
limit, and the break after two games. Pure: the start times and "now" in, the state out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from .calendar import BREAK_AFTER


class Phase(StrEnum):
    WAITING = "waiting"
    """The next game has not been started yet."""
    PLAYING = "playing"
    OVER = "over"
    """The game's time is up (the tables finish the smazzata in play), the next one not started."""
    BREAK = "break"
    """After the second game: the break, when scores may be checked (seed 003)."""
    FINISHED = "finished"
    """The last game's time is up."""


@dataclass(frozen=True, slots=True)
class TimerState:
    phase: Phase
    game: int
    """The game playing or just over; for WAITING the game about to start."""
    games: int
    minutes: int
    seconds_left: int
    """Of the game (PLAYING) or of the break (BREAK); 0 otherwise."""
    ends_at: datetime | None
    """When the game (or the break) ends."""

    def to_json(self) -> dict[str, object]:
        return {
            "phase": self.phase.value,
            "game": self.game,
            "games": self.games,
            "minutes": self.minutes,
            "seconds_left": self.seconds_left,
            "ends_at": None if self.ends_at is None else self.ends_at.isoformat(),
        }


def timer_state(
    *,
    games: int,
    minutes: int,
    break_minutes: int,
    started: Mapping[int, datetime | None],
    now: datetime,
) -> TimerState:
    """Where the evening is: the latest game started decides (``started``: game -> start)."""
    begun = sorted(g for g, at in started.items() if at is not None and g <= games)
    if not begun:
        return TimerState(Phase.WAITING, 1, games, minutes, 0, None)
    game = begun[-1]
    start = started[game]
    assert start is not None
    end = start + timedelta(minutes=minutes)
    if now < end:
        left = int((end - now).total_seconds() + 0.999)
        return TimerState(Phase.PLAYING, game, games, minutes, left, end)
    if game >= games:
        return TimerState(Phase.FINISHED, game, games, minutes, 0, end)
    if game == BREAK_AFTER and break_minutes > 0:
        pause_end = end + timedelta(minutes=break_minutes)
        left = max(0, int((pause_end - now).total_seconds() + 0.999))
        return TimerState(Phase.BREAK, game, games, minutes, left, pause_end)
    return TimerState(Phase.OVER, game, games, minutes, 0, end)
