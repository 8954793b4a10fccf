"""A finished server table of an online tournament, and what it is worth (T14, T15, T23).

``TableVerdict`` is the result stored with a round's table (its JSON, key for key, is what the
store keeps and the HTTP view shows); ``FinishedTable`` is what the server knows when a match
at that table ends. Settling one into the other is ``PairingSystem.settle``
(``burraco.tournament.systems``): a VP system scores it, a knockout also names the winner or
asks for one more smazzata (T23).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from burraco.engine.vp import TECHNICAL_MP, TECHNICAL_VP, VPTable

from .scoring import TableResult, score

Pair = tuple[int, int]


class ClosingsUnknown(ValueError):
    """T23 needs the closings of a tied knockout match and they could not be read (a match
    whose record is missing or unreadable): no winner may be drawn from made-up zeros."""


def _pair(values: Sequence[Any]) -> Pair:
    if len(values) != 2:
        raise ValueError(f"a table has two lines, not {len(values)}: {list(values)}")
    return (int(values[0]), int(values[1]))


def _add(a: Pair | None, b: Pair | None) -> Pair | None:
    """Two counts added line by line; unknown (None) if either is."""
    if a is None or b is None:
        return None
    return (a[0] + b[0], a[1] + b[1])


@dataclass(frozen=True, slots=True)
class EarlierMatch:
    """A tied knockout match already played at this pairing (T23): its totals and closings
    count towards the decision of the next one."""

    table_id: str
    totals: Pair
    closings: Pair | None

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "totals": list(self.totals),
            "closings": None if self.closings is None else list(self.closings),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EarlierMatch:
        closings = data.get("closings")
        return cls(
            str(data["table_id"]),
            _pair(data["totals"]),
            None if closings is None else _pair(closings),
        )


@dataclass(frozen=True, slots=True)
class FinishedTable:
    """A match that ended at a tournament table, as the server saw it."""

    table_id: str
    totals: Pair
    """The round totals of both lines (over the completed smazzate after a timeout, T14)."""
    winner: int | None
    ended: str
    """``complete``, ``timeout`` or ``forfeit`` (the engine's and the table's words)."""
    closings: Pair | None
    """Each line's closings (T23), None when they could not be read."""
    earlier: tuple[EarlierMatch, ...] = ()
    """The tied matches played before at this pairing (T23's extra smazzate)."""
    deals: tuple[Pair, ...] = ()
    """Each completed smazzata's line scores (a same-cards tournament compares them)."""

    @property
    def timed_out(self) -> int | None:
        """T14/T15: the line that ran out of time (or forfeited) loses."""
        if self.ended in ("timeout", "forfeit") and self.winner is not None:
            return 1 - int(self.winner)
        return None

    @property
    def double_forfeit(self) -> bool:
        """Both lines forfeited: both get the losing technical score."""
        return self.ended == "forfeit" and self.winner is None

    @property
    def match_totals(self) -> Pair:
        """The totals of every match at this pairing (T23: the extra smazzate add up)."""
        totals = self.totals
        for match in self.earlier:
            totals = (totals[0] + match.totals[0], totals[1] + match.totals[1])
        return totals

    @property
    def match_closings(self) -> Pair | None:
        closings = self.closings
        for match in self.earlier:
            closings = _add(closings, match.closings)
        return closings

    def as_earlier(self) -> EarlierMatch:
        """This match, kept for the decision of the next smazzata (T23)."""
        return EarlierMatch(self.table_id, self.totals, self.closings)


@dataclass(frozen=True, slots=True)
class TableVerdict:
    """A table's stored result: the match totals, who timed out, the closings, how it ended,
    a knockout's winner, and each line's MP and VP."""

    totals: Pair
    timed_out: int | None
    closings: Pair | None
    ended: str
    mp: Pair
    vp: Pair
    double_forfeit: bool = False
    winner: int | None = None
    """A knockout match's winner (line 0 or 1); None in a VP system."""
    knockout: bool = False
    """Stored with a ``winner`` key (a knockout)."""
    deals: tuple[Pair, ...] = ()
    """Each completed smazzata's line scores (stored as ``deals`` in a same-cards
    tournament; its ``mp`` and ``vp`` are then the table's own, and the comparison with the
    other tables is what counts: ``TournamentState.comparison``)."""

    @property
    def technical(self) -> bool:
        """T14: a timeout or a forfeit gave the technical score."""
        return self.timed_out is not None or self.double_forfeit

    def lost_on_time(self, line: int) -> bool:
        return self.timed_out == line or self.double_forfeit

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "totals": list(self.totals),
            "timed_out": self.timed_out,
            "closings": None if self.closings is None else list(self.closings),
            "ended": self.ended,
        }
        if self.double_forfeit:
            out["double_forfeit"] = True
        if self.knockout:
            out["winner"] = self.winner
        if self.deals:
            out["deals"] = [list(d) for d in self.deals]
        out["mp"], out["vp"] = list(self.mp), list(self.vp)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableVerdict:
        closings = data.get("closings")
        timed_out = data.get("timed_out")
        winner = data.get("winner")
        return cls(
            totals=_pair(data["totals"]),
            timed_out=None if timed_out is None else int(timed_out),
            closings=None if closings is None else _pair(closings),
            ended=str(data.get("ended", "complete")),
            mp=_pair(data["mp"]),
            vp=_pair(data["vp"]),
            double_forfeit=bool(data.get("double_forfeit")),
            winner=None if winner is None else int(winner),
            knockout="winner" in data,
            deals=tuple(_pair(d) for d in data.get("deals") or ()),
        )


def double_forfeit_score() -> tuple[Pair, Pair]:
    """Both lines forfeited: each gets the losing side of T14's technical score (-355 MP,
    6 VP), whatever the VP table (T16)."""
    return (-TECHNICAL_MP, -TECHNICAL_MP), (20 - TECHNICAL_VP, 20 - TECHNICAL_VP)


def scored(
    finished: FinishedTable, table: VPTable, *, winner: int | None = None, knockout: bool = False
) -> TableVerdict:
    """The verdict of ``finished`` with each line's MP and VP (R65, R66; T14 after a timeout or
    a forfeit; a double forfeit both lose)."""
    totals = finished.match_totals
    closings = finished.match_closings
    if finished.double_forfeit:
        mp, vp = double_forfeit_score()
    else:
        rs = score(TableResult(0, totals, finished.timed_out, closings or (0, 0)), table)
        mp, vp = _pair(rs.mp), _pair(rs.vp)
    return TableVerdict(
        totals=totals,
        timed_out=finished.timed_out,
        closings=closings,
        ended=finished.ended,
        mp=mp,
        vp=vp,
        double_forfeit=finished.double_forfeit,
        winner=winner,
        knockout=knockout,
        deals=finished.deals,
    )
