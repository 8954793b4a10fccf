"""What every pairing system produces: the tables of one round and who sits out."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .entrants import EntrantId

Line = tuple[EntrantId, ...]
"""One side of a table: one entrant (a single player or a fixed pair), or two single players
who are partners for this round (individuals at 4-player tables)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table of one round. ``lines[0]`` is NS (the stationary line in a Mitchell), ``lines[1]``
    EW."""

    number: int
    """1-based; a Mitchell keeps the physical numbers, so a table whose EW line is missing
    leaves a gap."""
    lines: tuple[Line, Line]

    @classmethod
    def of(cls, number: int, a: EntrantId, b: EntrantId) -> Table:
        """A table of two one-entrant lines."""
        return cls(number, ((a,), (b,)))

    @property
    def entrants(self) -> tuple[EntrantId, ...]:
        return self.lines[0] + self.lines[1]

    def line_of(self, entrant: EntrantId) -> int:
        """0 or 1: the line ``entrant`` plays in."""
        for i, line in enumerate(self.lines):
            if entrant in line:
                return i
        raise KeyError(entrant)


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round: its tables and the entrants who sit out it (byes, rests), each worth
    ``bye_vp`` VP and 0 MP (T20, T29)."""

    round: int
    """1-based."""
    tables: tuple[Table, ...]
    byes: tuple[EntrantId, ...] = ()
    relaxed: bool = False
    """The rematch policy (or the partner rule) could not be met by any complete pairing, so it
    was relaxed for this round (T19)."""

    def __post_init__(self) -> None:
        seen = [e for t in self.tables for e in t.entrants] + list(self.byes)
        if len(set(seen)) != len(seen):
            raise ValueError(f"round {self.round}: an entrant is seated twice")
        numbers = [t.number for t in self.tables]
        if numbers != sorted(set(numbers)) or (numbers and numbers[0] < 1):
            raise ValueError(f"round {self.round}: table numbers must be increasing from 1")

    @property
    def entrants(self) -> tuple[EntrantId, ...]:
        """Everyone in the round, seated or sitting out."""
        return tuple(e for t in self.tables for e in t.entrants) + self.byes

    def opponent_pairs(self) -> Iterator[tuple[EntrantId, EntrantId]]:
        """Every (a, b) of entrants on opposite lines of a table."""
        for table in self.tables:
            for a in table.lines[0]:
                for b in table.lines[1]:
                    yield a, b

    def partner_pairs(self) -> Iterator[tuple[EntrantId, EntrantId]]:
        """Every (a, b) of distinct entrants on the same line (individuals at 4-player tables)."""
        for table in self.tables:
            for line in table.lines:
                for i, a in enumerate(line):
                    for b in line[i + 1 :]:
                        yield a, b
