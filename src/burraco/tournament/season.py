"""Season standings (RULES.md T26, T28): the sum of the evenings' ranking points, the weekly
prize for the best evening, the prizes for the top 3."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .club import EveningRanking
from .entrants import EntrantId
from .standings import ranked

PRIZE_PLACES = 3
"""T28: season prizes go to the first three."""


@dataclass(frozen=True, slots=True)
class SeasonRow:
    place: int
    player: EntrantId
    points: int
    evenings: int
    """Evenings played."""
    weekly_prizes: int
    """Evenings won outright or ex aequo (the weekly prizes add up, seed 003)."""


@dataclass(frozen=True, slots=True)
class Season:
    """The evenings of one tournament of the season, in calendar order."""

    evenings: tuple[EveningRanking, ...] = ()

    def add(self, evening: EveningRanking) -> Season:
        return Season((*self.evenings, evening))

    @property
    def weekly_best(self) -> tuple[tuple[EntrantId, ...], ...]:
        """Each evening's best score (highest VP, ties by MP; still tied: shared)."""
        return tuple(e.best for e in self.evenings)

    def standings(self) -> tuple[SeasonRow, ...]:
        """Sum of the ranking points; equal points share the place ("1-2-2-4"), listed by id."""
        points: dict[EntrantId, int] = {}
        played: dict[EntrantId, int] = {}
        wins: dict[EntrantId, int] = {}
        for evening in self.evenings:
            for row in evening.rows:
                points[row.player] = points.get(row.player, 0) + row.points
                played[row.player] = played.get(row.player, 0) + 1
            for p in evening.best:
                wins[p] = wins.get(p, 0) + 1
        return tuple(
            SeasonRow(place, p, points[p], played[p], wins.get(p, 0))
            for place, p in ranked(sorted(points), key=lambda p: (points[p],))
        )

    def prizes(self, places: int = PRIZE_PLACES) -> tuple[SeasonRow, ...]:
        """T28: the rows whose place is within the first ``places`` (ties may make more)."""
        return tuple(r for r in self.standings() if r.place <= places)

    def standings_after(self, evenings: int) -> Sequence[SeasonRow]:
        """The partial standings after the first ``evenings`` evenings (for the e-mails and the
        chart of the season)."""
        return Season(self.evenings[:evenings]).standings()
