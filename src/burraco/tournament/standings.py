"""Standings (RULES.md T17): VP, then cumulative signed MP, then ex aequo.

Tied entrants share a place (standard competition ranking, "1-2-2-4") and the prizes of the
places they cover are pooled and split. Only for pairing are the remaining ties broken, at random
with the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from .entrants import EntrantId
from .scoring import Outcome, OutcomeKind

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Total:
    """An entrant's running totals."""

    entrant: EntrantId
    vp: int = 0
    mp: int = 0
    played: int = 0
    """Rounds played at a table (technical results included)."""
    sat_out: int = 0
    """Byes and rests."""

    @property
    def key(self) -> tuple[int, int]:
        """What T17 ranks by: VP, then MP (higher first)."""
        return (self.vp, self.mp)


def totals(outcomes: Iterable[Outcome], entrants: Iterable[EntrantId] = ()) -> tuple[Total, ...]:
    """Sum the outcomes per entrant; ``entrants`` without outcomes get zero totals. Sorted by id."""
    acc: dict[EntrantId, Total] = {e: Total(e) for e in entrants}
    for o in outcomes:
        t = acc.get(o.entrant, Total(o.entrant))
        sat_out = o.kind in (OutcomeKind.BYE, OutcomeKind.REST)
        acc[o.entrant] = replace(
            t,
            vp=t.vp + o.vp,
            mp=t.mp + o.mp,
            played=t.played + (not sat_out),
            sat_out=t.sat_out + sat_out,
        )
    return tuple(acc[e] for e in sorted(acc))


def competition_places(keys: Sequence[K]) -> list[int]:
    """Standard competition ranking of keys already in rank order: equal neighbours share the
    higher place and the next place is skipped (1, 2, 2, 4)."""
    places: list[int] = []
    for i, key in enumerate(keys):
        places.append(places[-1] if i and keys[i - 1] == key else i + 1)
    return places


def ranked(items: Iterable[K], key: Callable[[K], tuple[int, ...]]) -> list[tuple[int, K]]:
    """Items sorted by ``key`` (higher first) with their competition places; ties keep the input
    order."""
    ordered = sorted(items, key=key, reverse=True)
    # sorted is stable even with reverse=True, so equal keys keep the input order
    return list(zip(competition_places([key(i) for i in ordered]), ordered, strict=True))


@dataclass(frozen=True, slots=True)
class Row:
    place: int
    total: Total
    tied: bool = False
    """Ex aequo: another entrant has the same place (T17)."""

    @property
    def entrant(self) -> EntrantId:
        return self.total.entrant

    @property
    def vp(self) -> int:
        return self.total.vp

    @property
    def mp(self) -> int:
        return self.total.mp


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranking of T17, best first; tied entrants are listed by id."""

    rows: tuple[Row, ...]

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], entrants: Iterable[EntrantId] = ()) -> Standings:
        return cls.from_totals(totals(outcomes, entrants))

    @classmethod
    def from_totals(cls, all_totals: Iterable[Total]) -> Standings:
        items = sorted(all_totals, key=lambda t: t.entrant)
        if len({t.entrant for t in items}) != len(items):
            raise ValueError("an entrant has two totals")
        places = ranked(items, key=lambda t: t.key)
        counts: dict[int, int] = {}
        for place, _ in places:
            counts[place] = counts.get(place, 0) + 1
        return cls(tuple(Row(p, t, counts[p] > 1) for p, t in places))

    @property
    def order(self) -> tuple[EntrantId, ...]:
        """The entrants in place order (ties by id): a display order, not a pairing order."""
        return tuple(r.entrant for r in self.rows)

    @property
    def groups(self) -> tuple[tuple[Row, ...], ...]:
        """The rows grouped by place: a group of more than one is ex aequo."""
        out: list[list[Row]] = []
        for row in self.rows:
            if out and out[-1][0].place == row.place:
                out[-1].append(row)
            else:
                out.append([row])
        return tuple(tuple(g) for g in out)

    @property
    def ties(self) -> tuple[tuple[Row, ...], ...]:
        """Only the ex aequo groups (their prizes are pooled)."""
        return tuple(g for g in self.groups if len(g) > 1)

    def row(self, entrant: EntrantId) -> Row:
        for r in self.rows:
            if r.entrant == entrant:
                return r
        raise KeyError(entrant)

    def pairing_order(self, rng: random.Random) -> tuple[EntrantId, ...]:
        """T17/T18: the order used for pairing, with each exact tie (same VP and MP) shuffled by
        ``rng``. A total order; the same ``rng`` state gives the same order."""
        out: list[EntrantId] = []
        for group in self.groups:
            ids = [r.entrant for r in group]
            if len(ids) > 1:
                rng.shuffle(ids)
            out.extend(ids)
        return tuple(out)

    def prizes(self, prizes: Sequence[int | Fraction]) -> dict[EntrantId, Fraction]:
        """T17: each entrant's share of ``prizes`` (by place, 1st first). Entrants ex aequo pool
        the prizes of the places they cover and split them equally."""
        out: dict[EntrantId, Fraction] = {}
        for group in self.groups:
            first = group[0].place - 1
            pool = sum((Fraction(p) for p in prizes[first : first + len(group)]), Fraction(0))
            for row in group:
                out[row.entrant] = pool / len(group)
        return out
