"""The Mitchell movement (RULES.md T22)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entrants import EntrantId
from .pairing import Pairing, Table


@dataclass(frozen=True, slots=True)
class Mitchell:
    """NS lines stay at their table; EW lines move one table up each round (table t -> t + 1,
    the last -> 1). With an odd number of lines the last EW place is empty: the NS line it
    reaches sits out that round (a bye, 10 VP and 0 MP, T20), a different one each round.
    Rounds are limited to the number of tables, so no two lines meet twice (T22). Burraco has
    no duplicated boards: one overall ranking by VP then MP (T17), no separate NS/EW ranking."""

    ns: tuple[EntrantId, ...]
    ew: tuple[EntrantId | None, ...]

    def __post_init__(self) -> None:
        if len(self.ns) != len(self.ew) or not self.ns:
            raise ValueError("a Mitchell needs as many EW places as NS lines, at least one")
        lines = [*self.ns, *(e for e in self.ew if e is not None)]
        if len(set(lines)) != len(lines) or len(lines) < 2:
            raise ValueError("a Mitchell needs at least 2 distinct lines")

    @classmethod
    def seat(cls, entrants: Sequence[EntrantId]) -> Mitchell:
        """Seat the lines in the given (drawn) order: table t gets entrants 2t - 1 (NS) and
        2t (EW), 1-based; an odd last line sits NS facing the empty EW place."""
        ew: list[EntrantId | None] = list(entrants[1::2])
        if len(entrants) % 2:
            ew.append(None)
        return cls(tuple(entrants[0::2]), tuple(ew))

    @property
    def tables(self) -> int:
        return len(self.ns)

    @property
    def max_rounds(self) -> int:
        """T22: rounds <= number of tables (a phantom EW line counts as a table's EW line)."""
        return self.tables

    def round(self, round: int) -> Pairing:
        """Round ``round`` (1-based): at table t sits NS line t and the EW line that started at
        table t - (round - 1)."""
        if not 1 <= round <= self.max_rounds:
            raise ValueError(f"a Mitchell of {self.tables} tables has rounds 1 to {self.tables}")
        tables: list[Table] = []
        byes: list[EntrantId] = []
        for t, ns in enumerate(self.ns):
            ew = self.ew[(t - (round - 1)) % self.tables]
            if ew is None:
                byes.append(ns)
            else:
                tables.append(Table.of(t + 1, ns, ew))
        return Pairing(round, tuple(tables), tuple(byes))
