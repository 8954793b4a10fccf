"""The chess clock of a round (RULES.md 4.3, T5-T14), as pure logic: time is passed in.

The server owns the real time (T14a) and feeds timestamps in; this module only does the
arithmetic, so that it can be tested exactly (T-E1..T-E3) and replayed after a crash.

- T5: each line has a bank of ``round_seconds / 2`` for the whole round (``scope="player"``:
  ``round_seconds / players`` per player).
- T6, T8, T10: only the bank of the line (or player) on turn runs, from the server time the turn
  starts until the server receives the discard.
- T7: the clocks are stopped between smazzate (``pause``), and before the first turn.
- T9: each time a turn starts, ``increment`` seconds are credited to the bank, at most
  ``increment_cap`` seconds per line over the round.
- T11, T12: a turn timer of ``hand_seconds`` runs alongside; a pozzetto in diretta resets it.
- T13: when the turn timer runs out the server plays automatically; ``max_auto_plays`` in a row
  count as running out of time (T14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import RulesError

ClockScope = Literal["line", "player"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeControl:
    """The time settings of a table or tournament round."""

    round_seconds: float
    """The round's total time (T5): 36 minutes -> 18 per line."""
    hand_seconds: float | None = None
    """The turn timer (T11), or None for none."""
    increment: float = 2.0
    increment_cap: float = 120.0
    scope: ClockScope = "line"
    max_auto_plays: int = 3
    """T13: consecutive automatic plays that count as running out of time."""

    def __post_init__(self) -> None:
        if self.round_seconds <= 0:
            raise RulesError("round_seconds must be positive")
        if self.hand_seconds is not None and self.hand_seconds <= 0:
            raise RulesError("hand_seconds must be positive")
        if self.increment < 0 or self.increment_cap < 0:
            raise RulesError("increment and increment_cap must not be negative")
        if self.scope not in ("line", "player"):
            raise RulesError("scope must be 'line' or 'player'")
        if self.max_auto_plays < 1:
            raise RulesError("max_auto_plays must be at least 1")


Expiry = Literal["bank", "turn"]


@dataclass(slots=True)
class RoundClock:
    """The clocks of one round at one table. ``owner_of[seat]`` is the bank a seat spends."""

    control: TimeControl
    owner_of: tuple[int, ...]
    banks: list[float]
    credited: list[float]
    running: int | None = None
    """The seat whose turn is being timed, or None when the clocks are stopped."""
    since: float = 0.0
    """Server time when the running turn (or its last resumption) started."""
    turn_left: float | None = None
    """What is left of the turn timer when the clock was last (re)started."""
    auto_plays: list[int] | None = None

    @classmethod
    def start_round(cls, control: TimeControl, line_of: tuple[int, ...]) -> RoundClock:
        """New banks for a round (T5): one per line, or one per player."""
        seats = len(line_of)
        if control.scope == "player":
            owners = tuple(range(seats))
            bank = control.round_seconds / seats
        else:
            lines = sorted(set(line_of))
            owners = tuple(lines.index(line) for line in line_of)
            bank = control.round_seconds / len(lines)
        count = max(owners) + 1
        return cls(
            control=control,
            owner_of=owners,
            banks=[bank] * count,
            credited=[0.0] * count,
            auto_plays=[0] * seats,
        )

    # -- the turn --

    def start_turn(self, seat: int, now: float) -> None:
        """T8, T9, T11: the turn of ``seat`` starts at server time ``now``."""
        self.stop(now)
        owner = self.owner_of[seat]
        room = self.control.increment_cap - self.credited[owner]
        credit = min(self.control.increment, max(room, 0.0))
        self.banks[owner] += credit
        self.credited[owner] += credit
        self.running = seat
        self.since = now
        self.turn_left = self.control.hand_seconds

    def reset_turn_timer(self, now: float) -> None:
        """T12: a pozzetto in diretta gives the turn timer its full time again."""
        if self.running is None:
            return
        self._charge(now)
        self.turn_left = self.control.hand_seconds

    def compensate(self, seconds: float, now: float) -> None:
        """Do not charge the last ``seconds`` of the running turn (network lag, bounded by the
        caller): the turn's timing starts that much later, never after ``now``."""
        if self.running is not None and seconds > 0:
            self.since = min(now, self.since + seconds)

    def stop(self, now: float) -> None:
        """T10: the discard reached the server (or the smazzata ended, T7)."""
        if self.running is not None:
            self._charge(now)
            self.running = None
            self.turn_left = None

    def pause(self, now: float) -> None:
        """T7: stop the clocks between smazzate (same as ``stop``)."""
        self.stop(now)

    def _charge(self, now: float) -> None:
        assert self.running is not None
        elapsed = max(0.0, now - self.since)
        self.banks[self.owner_of[self.running]] -= elapsed
        if self.turn_left is not None:
            self.turn_left -= elapsed
        self.since = now

    # -- reading --

    def remaining(self, seat: int, now: float) -> float:
        """Seconds left in the bank ``seat`` spends (may be negative once run out)."""
        owner = self.owner_of[seat]
        bank = self.banks[owner]
        if self.running is not None and self.owner_of[self.running] == owner:
            bank -= max(0.0, now - self.since)
        return bank

    def turn_remaining(self, now: float) -> float | None:
        if self.running is None or self.turn_left is None:
            return None
        return self.turn_left - max(0.0, now - self.since)

    def next_expiry(self) -> tuple[float, Expiry] | None:
        """When the running clock will expire if nothing happens: (server time, which)."""
        if self.running is None:
            return None
        bank_at = self.since + self.banks[self.owner_of[self.running]]
        if self.turn_left is not None:
            turn_at = self.since + self.turn_left
            if turn_at < bank_at:
                return (turn_at, "turn")
        return (bank_at, "bank")

    def expired(self, now: float) -> Expiry | None:
        """Which clock of the player on turn has run out at ``now``, if any (bank first)."""
        if self.running is None:
            return None
        if self.remaining(self.running, now) <= 0:
            return "bank"
        left = self.turn_remaining(now)
        if left is not None and left <= 0:
            return "turn"
        return None

    # -- T13 --

    def note_auto_play(self, seat: int) -> bool:
        """Count an automatic play; True when the seat reached ``max_auto_plays`` in a row."""
        assert self.auto_plays is not None
        self.auto_plays[seat] += 1
        return self.auto_plays[seat] >= self.control.max_auto_plays

    def note_own_play(self, seat: int) -> None:
        assert self.auto_plays is not None
        self.auto_plays[seat] = 0

    def grace(self, seconds: float) -> None:
        """Add ``seconds`` to every bank (after a server restart, as lichess gives +20 s)."""
        self.banks = [bank + seconds for bank in self.banks]

    def snapshot(self) -> ClockSnapshot:
        """What must survive a restart: banks, increments credited, automatic plays."""
        return ClockSnapshot(
            banks=tuple(self.banks),
            credited=tuple(self.credited),
            auto_plays=tuple(self.auto_plays or ()),
        )

    def restore(self, snapshot: ClockSnapshot) -> None:
        """Take back a snapshot; the clocks come back stopped (the server restarts the turn)."""
        self.banks = list(snapshot.banks)
        self.credited = list(snapshot.credited)
        self.auto_plays = list(snapshot.auto_plays)
        self.running = None
        self.turn_left = None


@dataclass(frozen=True, slots=True)
class ClockSnapshot:
    banks: tuple[float, ...]
    credited: tuple[float, ...]
    auto_plays: tuple[int, ...]
