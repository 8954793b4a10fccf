"""How ratings are computed: a frozen, validated, keyword-only dataclass with named presets, as
``Rules`` is for the game."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, kw_only=True)
class RatingSettings:
    mu: float = 1500.0
    """A newcomer's rating."""
    sigma: float = 350.0
    """A newcomer's uncertainty (Glicko's customary 350: a new player moves fast)."""
    beta: float = 400 / math.log(10) / math.sqrt(2)
    """The performance spread of one match. With this value the model's odds follow Elo's
    scale for well-known players: 400 points apart is 10 to 1 (docs/ratings.md)."""
    tau: float = 5.0
    """Uncertainty added before every match, so that a rating keeps following a player who
    improves (the model's dynamics factor)."""
    provisional_sigma: float = 200.0
    """Above this uncertainty a rating is provisional: shown apart on the leaderboards (about
    the first ten rated matches)."""
    abandon_penalty: float = 50.0
    """Points taken from a player who abandons a rated match, on top of the lost match."""
    min_smazzate: int = 3
    """A match of a fixed number of smazzate is rated from this many on (Burraconline does not
    rate matches of 1 or 2); a match to a target score always is."""

    def __post_init__(self) -> None:
        for name in ("sigma", "beta", "provisional_sigma"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive")
        if self.tau < 0 or self.abandon_penalty < 0:
            raise ValueError("tau and abandon_penalty must not be negative")
        if self.min_smazzate < 1:
            raise ValueError("min_smazzate must be at least 1")


PRESETS: Final[dict[str, RatingSettings]] = {"standard": RatingSettings()}
"""Named settings; the server rates with ``standard``."""
