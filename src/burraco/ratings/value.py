"""A rating: the model's estimate ``mu`` and its uncertainty ``sigma``, with a text round trip
(``1650±40``), as the engine's values have."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TEXT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*±\s*(\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not self.sigma > 0:
            raise ValueError(f"a rating's uncertainty is positive, not {self.sigma}")

    @property
    def shown(self) -> int:
        """What a person reads: the estimate, rounded."""
        return round(self.mu)

    def __str__(self) -> str:
        return f"{self.mu:.1f}±{self.sigma:.1f}"

    @classmethod
    def from_text(cls, text: str) -> Rating:
        match = _TEXT.match(text)
        if match is None:
            raise ValueError(f"not a rating (mu±sigma): {text!r}")
        return cls(float(match.group(1)), float(match.group(2)))
