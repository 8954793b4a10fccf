"""What the club manager gives back: views of an evening, the standings, prizes and reports
(frozen dataclasses made of the store's records and ``burraco.tournament``'s rankings), and
what it is given for a table's result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from burraco.store.club import (
    ClubInfo,
    EveningInfo,
    EveningStatus,
    PrizeInfo,
    ResultRow,
    ScoreCheckInfo,
    SeasonInfo,
)
from burraco.tournament import EveningRanking, EveningRow, EveningType, Season, SeasonRow

from . import calendar as cal
from . import fees as fee
from .errors import not_found


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    result: ResultRow | None
    mp: tuple[int, int] | None
    vp: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class GameView:
    number: int
    drawn: bool
    relaxed: bool
    started_at: datetime | None
    tables: tuple[TableView, ...]
    rests: tuple[str, ...]
    rests_drawn: bool

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tables)


@dataclass(frozen=True, slots=True)
class CheckinView:
    name: str
    at: datetime
    """In the club's time zone."""
    late: bool
    recorded_by: str
    override_by: str | None
    override_reason: str | None


@dataclass(frozen=True, slots=True)
class CheckView:
    info: ScoreCheckInfo
    member: str | None


@dataclass(frozen=True, slots=True)
class EveningView:
    club: ClubInfo
    season: SeasonInfo
    evening: EveningInfo
    number: int
    """The evening's place in the season's calendar (1-based)."""
    type: EveningType
    games_planned: int
    times: cal.EveningTimes
    checkins: tuple[CheckinView, ...]
    stations: tuple[str, ...]
    games: tuple[GameView, ...]
    ranking: EveningRanking
    """Over the games complete so far (everyone at 0 before the first)."""
    complete_games: int
    checks: tuple[CheckView, ...]

    @property
    def finished(self) -> bool:
        return self.evening.status is EveningStatus.FINISHED

    def game(self, number: int) -> GameView:
        for g in self.games:
            if g.number == number:
                return g
        raise not_found(f"game {number} has not been seated")


@dataclass(frozen=True, slots=True)
class SeasonEvening:
    info: EveningInfo
    number: int
    type: EveningType
    games: int
    ranking: EveningRanking | None
    """For finished evenings."""


@dataclass(frozen=True, slots=True)
class StandingsView:
    club: ClubInfo
    season: SeasonInfo
    evenings: tuple[SeasonEvening, ...]
    """The whole calendar."""
    counted: tuple[SeasonEvening, ...]
    """The finished evenings the standings are made of (those up to ``after``)."""
    rows: tuple[SeasonRow, ...]
    progress: Mapping[str, tuple[int, ...]]
    """Each player's points after each counted evening (the chart)."""

    @property
    def tournament(self) -> Season:
        return Season(tuple(e.ranking for e in self.counted if e.ranking is not None))


@dataclass(frozen=True, slots=True)
class WeeklyPrize:
    evening: EveningInfo
    number: int
    player: str
    vp: int
    mp: int
    value_cents: int


@dataclass(frozen=True, slots=True)
class SeasonPrize:
    place: int
    player: str
    points: int
    value_cents: int


@dataclass(frozen=True, slots=True)
class PrizesReport:
    weekly: tuple[WeeklyPrize, ...]
    season: tuple[SeasonPrize, ...]
    awarded: tuple[PrizeInfo, ...]
    """The prizes stored when the season was closed (empty before)."""
    names: Mapping[int, str] = field(default_factory=dict)

    @property
    def weekly_by_player(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for w in self.weekly:
            out[w.player] = out.get(w.player, 0) + 1
        return out

    @property
    def total_cents(self) -> int:
        return sum(w.value_cents for w in self.weekly) + sum(s.value_cents for s in self.season)


@dataclass(frozen=True, slots=True)
class MemberEvening:
    """One evening of the calendar as a member lived it (``row`` None: absent)."""

    evening: SeasonEvening
    row: EveningRow | None
    late: bool
    """Admitted after the check-in window by an officer's override."""


@dataclass(frozen=True, slots=True)
class MemberReport:
    club: ClubInfo
    season: SeasonInfo
    member: str
    standing: SeasonRow | None
    """None before he has played a finished evening."""
    evenings: tuple[MemberEvening, ...]
    """The finished evenings."""
    weekly: tuple[WeeklyPrize, ...]
    season_prize: SeasonPrize | None
    account: fee.MemberAccount | None

    @property
    def attended(self) -> int:
        return sum(1 for e in self.evenings if e.row is not None)


@dataclass(frozen=True, slots=True)
class EveningSummary:
    evening: SeasonEvening
    players: int
    late: int
    """Late players admitted by an officer."""
    best: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClubReport:
    club: ClubInfo
    season: SeasonInfo
    evenings: tuple[EveningSummary, ...]
    """The whole calendar (players 0 for evenings not played)."""
    standings: StandingsView
    fees: fee.FeesReport
    prizes: PrizesReport
    corrections: int
    """Results corrected after publication (each one in the audit trail)."""
    members: int

    def count(self, status: str) -> int:
        """How many evenings of the calendar have this status (an ``EveningStatus``)."""
        return sum(1 for e in self.evenings if e.evening.info.status == status)


@dataclass(frozen=True, slots=True)
class ResultInput:
    """One table's result as entered: the NS and EW scores of the game, optionally its
    smazzate ([NS, EW] each, adding up to the scores) and the line that ran out of time."""

    table: int
    ns: int
    ew: int
    smazzate: Sequence[Sequence[int]] | None = None
    timed_out: int | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """What a draw produced: the stations and the first game's seating."""

    stations: tuple[str, ...]
    game: GameView
