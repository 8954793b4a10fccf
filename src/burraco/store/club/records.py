"""The club's records as the store gives them back: plain frozen dataclasses, never ORM objects,
and the lifecycles of an evening, a score check and a prize (stored as these strings)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from enum import StrEnum
from typing import Any

from burraco.tournament.season import SeasonSettings


class EveningStatus(StrEnum):
    """An evening's lifecycle: scheduled (check-in), playing once its seats are drawn, finished
    after its last game; cancelled only before the draw (and back to scheduled)."""

    SCHEDULED = "scheduled"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def drawn(self) -> bool:
        """The seats are drawn: the evening is played or over."""
        return self in (EveningStatus.PLAYING, EveningStatus.FINISHED)

    @property
    def open(self) -> bool:
        """Neither finished nor cancelled (a season with such an evening cannot close)."""
        return self in (EveningStatus.SCHEDULED, EveningStatus.PLAYING)


class CheckStatus(StrEnum):
    """A score check: open until an officer confirms the score or corrects the result."""

    OPEN = "open"
    CONFIRMED = "confirmed"
    CORRECTED = "corrected"


class PrizeKind(StrEnum):
    """T28: an evening's best score (weekly) or a place of the season's top 3."""

    WEEKLY = "weekly"
    SEASON = "season"


@dataclass(frozen=True, slots=True)
class ClubInfo:
    id: int
    name: str
    timezone: str
    place: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MemberInfo:
    id: int
    club_id: int
    name: str
    email: str | None
    user_id: int | None
    user_name: str | None
    """The platform account's name (None: no account linked)."""
    officer: bool
    active: bool


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    id: int
    club_id: int
    name: str
    starts_on: date
    ends_on: date
    weekday: int
    checkin_opens: time
    checkin_closes: time
    break_minutes: int
    seating: str
    two_left_over: str
    vp_table: str
    monthly_fee_cents: int
    pool_share_cents: int
    weekly_prize_cents: int
    season_prizes_cents: tuple[int, ...]
    rules_note: str

    @property
    def settings(self) -> SeasonSettings:
        """The season's settings, typed and validated (``burraco.tournament.season``)."""
        return SeasonSettings(**{k: getattr(self, k) for k in SEASON_SETTINGS})


SEASON_SETTINGS = SeasonSettings.field_names()
"""The settings of a season that officers may change."""


@dataclass(frozen=True, slots=True)
class EveningInfo:
    id: int
    season_id: int
    date: date
    type: str
    one_game_fewer: bool
    status: EveningStatus
    seed: int | None
    stations: tuple[int, ...] | None
    drawn_at: datetime | None
    published_at: datetime | None
    note: str


@dataclass(frozen=True, slots=True)
class CheckinInfo:
    member_id: int
    at: datetime
    late: bool
    recorded_by: str
    override_by: str | None
    override_reason: str | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    member_id: int
    table_no: int
    line: int
    position: int


@dataclass(frozen=True, slots=True)
class RestRow:
    member_id: int
    drawn: bool


@dataclass(frozen=True, slots=True)
class ResultRow:
    table_no: int
    ns: int
    ew: int
    smazzate: tuple[tuple[int, int], ...] | None
    timed_out: int | None
    entered_by: str
    entered_at: datetime
    corrections: int


@dataclass(frozen=True, slots=True)
class GameInfo:
    number: int
    drawn: bool
    relaxed: bool
    seated_at: datetime
    started_at: datetime | None
    seats: tuple[SeatRow, ...]
    rests: tuple[RestRow, ...]
    results: tuple[ResultRow, ...]

    def result(self, table_no: int) -> ResultRow | None:
        for r in self.results:
            if r.table_no == table_no:
                return r
        return None

    @property
    def tables(self) -> tuple[int, ...]:
        return tuple(sorted({s.table_no for s in self.seats}))


@dataclass(frozen=True, slots=True)
class ScoreCheckInfo:
    id: int
    evening_id: int
    game: int
    table_no: int
    member_id: int | None
    requested_by: str
    requested_at: datetime
    note: str
    status: CheckStatus
    resolved_by: str | None
    resolved_at: datetime | None
    resolution: str | None


@dataclass(frozen=True, slots=True)
class EveningState:
    """Everything about one evening: what the draw, the results and the rankings are made of."""

    evening: EveningInfo
    checkins: tuple[CheckinInfo, ...]
    games: tuple[GameInfo, ...]
    checks: tuple[ScoreCheckInfo, ...]

    def game(self, number: int) -> GameInfo | None:
        for g in self.games:
            if g.number == number:
                return g
        return None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    club_id: int
    at: datetime
    user_id: int | None
    actor: str
    action: str
    subject: str
    season_id: int | None
    evening_id: int | None
    before: Any
    after: Any
    reason: str | None


@dataclass(frozen=True, slots=True)
class ChargeInfo:
    """An adjustment (extra charge or waiver) of what a member owes."""

    id: int
    season_id: int
    member_id: int
    due_on: date
    amount_cents: int
    reason: str
    created_by: str


@dataclass(frozen=True, slots=True)
class PaymentInfo:
    id: int
    season_id: int
    member_id: int
    amount_cents: int
    paid_on: date
    note: str
    recorded_by: str


@dataclass(frozen=True, slots=True)
class PrizeInfo:
    id: int
    season_id: int
    kind: PrizeKind
    evening_id: int | None
    place: int | None
    member_id: int
    value_cents: int
    description: str
    delivered_on: date | None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """One seat of a seating to store."""

    member_id: int
    table_no: int
    line: int
    position: int
