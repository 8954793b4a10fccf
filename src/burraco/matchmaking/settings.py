"""How far apart in rating quick play seats people: a frozen, validated, keyword-only dataclass
with named presets, as ``Rules`` and ``RatingSettings`` are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, kw_only=True)
class QueueSettings:
    base_gap: float = 150.0
    """The rating gap two players accept at once (about a 70:30 match on Elo's scale)."""
    widen_per_second: float = 10.0
    """How much each player's accepted gap grows every second he waits (lichess widens its
    pool's range the same way): after 30 s, 450 points."""
    max_gap: float = 800.0
    """The widest gap ever accepted."""

    def __post_init__(self) -> None:
        if not 0 <= self.base_gap <= self.max_gap:
            raise ValueError("base_gap must be between 0 and max_gap")
        if self.widen_per_second < 0:
            raise ValueError("widen_per_second must not be negative")

    def gap(self, waited: float) -> float:
        """The gap accepted by a player who has waited ``waited`` seconds."""
        return min(self.max_gap, self.base_gap + self.widen_per_second * max(0.0, waited))


PRESETS: Final[dict[str, QueueSettings]] = {"standard": QueueSettings()}
