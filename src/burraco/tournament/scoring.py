"""From a table's result to each entrant's MP and VP (RULES.md R65, R66, 4.4, T14-T16, T20, T29).

A table result is the two lines' round totals, as the engine's ``Match.totals`` gives them or as
a club organiser enters them. MP is the signed difference, VP comes from the tournament's table
(VP-3 by default; VP-4, the VP-2 placeholder, or custom bounds). A line that ran out of time gets
the technical score of T14. A bye or a rest is worth ``bye_vp`` (10) VP and 0 MP.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from burraco.engine.vp import VP3, RoundScore, VPTable, round_score, technical_score, vp_table

from .byes import BYE_VP
from .entrants import EntrantId
from .pairing import Pairing, Table

DEFAULT_VP_TABLE = VP3
"""4.4: VP-3 is the default table (it matches the 355 MP <-> 14 VP technical score of [S002])."""


def choose_vp_table(spec: str | Sequence[int] = "VP-3") -> VPTable:
    """``VP-3`` (default), ``VP-4``, ``VP-2`` (a proposed placeholder), or ten custom bounds."""
    return vp_table(spec)


class OutcomeKind(StrEnum):
    PLAYED = "played"
    TECHNICAL = "technical"
    """The round ended by a timeout: the technical score of T14."""
    BYE = "bye"
    """T20: a bye in a tournament."""
    REST = "rest"
    """T29: a rest at a club evening."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One entrant's result in one round: what the standings add up."""

    entrant: EntrantId
    round: int
    vp: int
    mp: int
    """Signed MP (R65): the line's total minus the opponents' (or the technical score)."""
    kind: OutcomeKind = OutcomeKind.PLAYED
    table: int | None = None
    partners: tuple[EntrantId, ...] = ()
    opponents: tuple[EntrantId, ...] = ()
    timed_out: bool = False
    """The entrant's line ran out of time in this round (T14)."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one table: each line's round total (over the completed smazzate when the
    round ended by a timeout, T14, C33) and, for knockout tie-breaks, each line's closings."""

    table: int
    totals: tuple[int, int]
    timed_out: int | None = None
    """The line (0 = NS, 1 = EW) whose clock reached zero, if any."""
    closings: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if self.timed_out not in (None, 0, 1):
            raise ValueError("timed_out is line 0, line 1 or None")
        if any(t % 5 for t in self.totals):
            raise ValueError(f"table {self.table}: round totals are multiples of 5")


def score(result: TableResult, table: VPTable = DEFAULT_VP_TABLE) -> RoundScore:
    """MP and VP of both lines: R65/R66, or the technical score of T14 after a timeout (which
    keeps its fixed +-355 MP / 14-6 VP minimum whatever the table, T16)."""
    if result.timed_out is None:
        return round_score(result.totals, table)
    return technical_score(result.totals, result.timed_out, table)


def table_outcomes(
    seating: Table, result: TableResult, round: int, table: VPTable = DEFAULT_VP_TABLE
) -> tuple[Outcome, ...]:
    """Every entrant's outcome at one table: both partners of a line share its MP and VP."""
    if seating.number != result.table:
        raise ValueError(f"the result of table {result.table} given for table {seating.number}")
    rs = score(result, table)
    kind = OutcomeKind.TECHNICAL if rs.technical else OutcomeKind.PLAYED
    out = []
    for i, line in enumerate(seating.lines):
        other = seating.lines[1 - i]
        for entrant in line:
            partners = tuple(e for e in line if e != entrant)
            timed_out = result.timed_out == i
            out.append(
                Outcome(
                    entrant,
                    round,
                    rs.vp[i],
                    rs.mp[i],
                    kind,
                    seating.number,
                    partners,
                    other,
                    timed_out,
                )
            )
    return tuple(out)


def sit_out(
    entrant: EntrantId, round: int, kind: OutcomeKind = OutcomeKind.BYE, vp: int = BYE_VP
) -> Outcome:
    """T20 / T29: a bye or a rest, worth ``vp`` (10) VP and 0 MP."""
    if kind not in (OutcomeKind.BYE, OutcomeKind.REST):
        raise ValueError("a sit-out is a bye or a rest")
    return Outcome(entrant, round, vp, 0, kind)


def round_outcomes(
    pairing: Pairing,
    results: Iterable[TableResult],
    table: VPTable = DEFAULT_VP_TABLE,
    *,
    bye_vp: int = BYE_VP,
    sit_out_kind: OutcomeKind = OutcomeKind.BYE,
) -> tuple[Outcome, ...]:
    """Every entrant's outcome in a round: one result per table (no more, no fewer), and the
    sit-outs of the pairing."""
    by_table = {}
    for r in results:
        if r.table in by_table:
            raise ValueError(f"two results for table {r.table}")
        by_table[r.table] = r
    numbers = {t.number for t in pairing.tables}
    if set(by_table) != numbers:
        missing = sorted(numbers - set(by_table))
        extra = sorted(set(by_table) - numbers)
        raise ValueError(
            f"round {pairing.round}: results missing for tables {missing}, unknown tables {extra}"
        )
    out: list[Outcome] = []
    for seating in pairing.tables:
        out.extend(table_outcomes(seating, by_table[seating.number], pairing.round, table))
    out.extend(sit_out(e, pairing.round, sit_out_kind, bye_vp) for e in pairing.byes)
    return tuple(out)
