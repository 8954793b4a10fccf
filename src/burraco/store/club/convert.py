"""From rows to records (``club_models`` to ``records``), and the moments as stored (UTC)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from .. import club_models as m
from .records import (
    AuditEntry,
    ChargeInfo,
    CheckinInfo,
    CheckStatus,
    ClubInfo,
    EveningInfo,
    EveningStatus,
    GameInfo,
    MemberInfo,
    PaymentInfo,
    PrizeInfo,
    PrizeKind,
    RestRow,
    ResultRow,
    ScoreCheckInfo,
    SeasonInfo,
    SeatRow,
)


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    # SQLite gives naive datetimes back for timezone-aware columns: they were stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def maybe(moment: datetime | None) -> datetime | None:
    return None if moment is None else aware(moment)


def utc(moment: datetime | None) -> datetime | None:
    """What is stored: UTC (SQLite keeps no offset, so a local time would be read back
    wrong)."""
    return None if moment is None else aware(moment).astimezone(UTC)


def club(row: m.Club) -> ClubInfo:
    return ClubInfo(row.id, row.name, row.timezone, row.place, aware(row.created_at))


def member(row: m.ClubMember, user_name: str | None) -> MemberInfo:
    return MemberInfo(
        row.id, row.club_id, row.name, row.email, row.user_id, user_name, row.officer, row.active
    )


def season(row: m.ClubSeason) -> SeasonInfo:
    return SeasonInfo(
        id=row.id,
        club_id=row.club_id,
        name=row.name,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        weekday=row.weekday,
        checkin_opens=row.checkin_opens,
        checkin_closes=row.checkin_closes,
        break_minutes=row.break_minutes,
        seating=row.seating,
        two_left_over=row.two_left_over,
        vp_table=row.vp_table,
        monthly_fee_cents=row.monthly_fee_cents,
        pool_share_cents=row.pool_share_cents,
        weekly_prize_cents=row.weekly_prize_cents,
        season_prizes_cents=tuple(int(v) for v in row.season_prizes_cents),
        rules_note=row.rules_note,
    )


def evening(row: m.ClubEvening) -> EveningInfo:
    return EveningInfo(
        id=row.id,
        season_id=row.season_id,
        date=row.date,
        type=row.type,
        one_game_fewer=row.one_game_fewer,
        status=EveningStatus(row.status),
        seed=row.seed,
        stations=None if row.stations is None else tuple(int(i) for i in row.stations),
        drawn_at=maybe(row.drawn_at),
        published_at=maybe(row.published_at),
        note=row.note,
    )


def check(row: m.ClubScoreCheck) -> ScoreCheckInfo:
    return ScoreCheckInfo(
        id=row.id,
        evening_id=row.evening_id,
        game=row.game,
        table_no=row.table_no,
        member_id=row.member_id,
        requested_by=row.requested_by,
        requested_at=aware(row.requested_at),
        note=row.note,
        status=CheckStatus(row.status),
        resolved_by=row.resolved_by,
        resolved_at=maybe(row.resolved_at),
        resolution=row.resolution,
    )


def audit(row: m.ClubAudit) -> AuditEntry:
    return AuditEntry(
        id=row.id,
        club_id=row.club_id,
        at=aware(row.at),
        user_id=row.user_id,
        actor=row.actor,
        action=row.action,
        subject=row.subject,
        season_id=row.season_id,
        evening_id=row.evening_id,
        before=row.before,
        after=row.after,
        reason=row.reason,
    )


def charge(row: m.ClubCharge) -> ChargeInfo:
    return ChargeInfo(
        row.id,
        row.season_id,
        row.member_id,
        row.due_on,
        row.amount_cents,
        row.reason,
        row.created_by,
    )


def payment(row: m.ClubPayment) -> PaymentInfo:
    return PaymentInfo(
        row.id,
        row.season_id,
        row.member_id,
        row.amount_cents,
        row.paid_on,
        row.note,
        row.recorded_by,
    )


def prize(row: m.ClubPrize) -> PrizeInfo:
    return PrizeInfo(
        row.id,
        row.season_id,
        PrizeKind(row.kind),
        row.evening_id,
        row.place,
        row.member_id,
        row.value_cents,
        row.description,
        row.delivered_on,
    )


def checkin(row: m.ClubCheckin) -> CheckinInfo:
    return CheckinInfo(
        row.member_id,
        aware(row.at),
        row.late,
        row.recorded_by,
        row.override_by,
        row.override_reason,
    )


def result(row: m.ClubResult) -> ResultRow:
    return ResultRow(
        row.table_no,
        row.ns,
        row.ew,
        None if row.smazzate is None else tuple((int(a), int(b)) for a, b in row.smazzate),
        row.timed_out,
        row.entered_by,
        aware(row.entered_at),
        row.corrections,
    )


def game(
    row: m.ClubGame,
    seats: Sequence[m.ClubSeat],
    rests: Sequence[m.ClubRest],
    results: Sequence[m.ClubResult],
) -> GameInfo:
    """A game with its seats, rests and results (picked out of the evening's)."""
    return GameInfo(
        number=row.number,
        drawn=row.drawn,
        relaxed=row.relaxed,
        seated_at=aware(row.seated_at),
        started_at=maybe(row.started_at),
        seats=tuple(
            SeatRow(s.member_id, s.table_no, s.line, s.position)
            for s in seats
            if s.game == row.number
        ),
        rests=tuple(RestRow(r.member_id, r.drawn) for r in rests if r.game == row.number),
        results=tuple(result(r) for r in results if r.game == row.number),
    )
