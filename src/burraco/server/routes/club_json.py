"""The club manager's answers as JSON: plain dicts made from the service's views (dates in ISO
8601, amounts in cents, names as stored). Used by the club routes (``club``, ``club_files``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any

from burraco.club import fees as fee
from burraco.club.calendar import EveningTimes
from burraco.club.service import (
    CheckinView,
    CheckView,
    EveningView,
    GameView,
    PrizesReport,
    Role,
    SeasonEvening,
    StandingsView,
    TableView,
)
from burraco.club.timer import TimerState
from burraco.store.club import (
    AuditEntry,
    ClubInfo,
    EveningInfo,
    MemberInfo,
    ResultRow,
    ScoreCheckInfo,
    SeasonInfo,
)
from burraco.tournament import EveningRanking

Json = dict[str, Any]


def iso(value: date | time | datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def club_json(club: ClubInfo) -> Json:
    return {
        "id": club.id,
        "name": club.name,
        "timezone": club.timezone,
        "place": club.place,
        "created_at": iso(club.created_at),
    }


def role_json(role: Role) -> Json:
    return {
        "member": None if role.member is None else role.member.name,
        "member_id": role.member_id,
        "officer": role.officer,
    }


def member_json(member: MemberInfo) -> Json:
    return {
        "id": member.id,
        "name": member.name,
        "email": member.email,
        "account": member.user_name,
        "officer": member.officer,
        "active": member.active,
    }


def season_json(season: SeasonInfo) -> Json:
    return {
        "id": season.id,
        "club_id": season.club_id,
        "name": season.name,
        "starts_on": iso(season.starts_on),
        "ends_on": iso(season.ends_on),
        "weekday": season.weekday,
        "checkin_opens": season.checkin_opens.strftime("%H:%M"),
        "checkin_closes": season.checkin_closes.strftime("%H:%M"),
        "break_minutes": season.break_minutes,
        "seating": season.seating,
        "two_left_over": season.two_left_over,
        "vp_table": season.vp_table,
        "monthly_fee_cents": season.monthly_fee_cents,
        "pool_share_cents": season.pool_share_cents,
        "weekly_prize_cents": season.weekly_prize_cents,
        "season_prizes_cents": list(season.season_prizes_cents),
        "rules_note": season.rules_note,
    }


def evening_info_json(evening: EveningInfo) -> Json:
    return {
        "id": evening.id,
        "season_id": evening.season_id,
        "date": iso(evening.date),
        "type": evening.type,
        "one_game_fewer": evening.one_game_fewer,
        "status": evening.status,
        "drawn_at": iso(evening.drawn_at),
        "published_at": iso(evening.published_at),
        "note": evening.note,
    }


def ranking_json(ranking: EveningRanking | None) -> list[Json] | None:
    if ranking is None:
        return None
    return [
        {
            "place": r.place,
            "player": str(r.player),
            "vp": r.vp,
            "mp": r.mp,
            "points": r.points,
            "played": r.played,
            "rests": r.rests,
        }
        for r in ranking.rows
    ]


def season_evening_json(evening: SeasonEvening) -> Json:
    return {
        **evening_info_json(evening.info),
        "number": evening.number,
        "games": evening.games,
        "ranking": ranking_json(evening.ranking),
    }


def times_json(times: EveningTimes) -> Json:
    return {
        "checkin_opens": iso(times.checkin_opens),
        "checkin_closes": iso(times.checkin_closes),
        "games": [[iso(a), iso(b)] for a, b in times.games],
        "break": None if times.break_ is None else [iso(t) for t in times.break_],
        "end": iso(times.end),
    }


def result_json(result: ResultRow | None) -> Json | None:
    if result is None:
        return None
    return {
        "ns": result.ns,
        "ew": result.ew,
        "smazzate": None if result.smazzate is None else [list(s) for s in result.smazzate],
        "timed_out": result.timed_out,
        "entered_by": result.entered_by,
        "entered_at": iso(result.entered_at),
        "corrections": result.corrections,
    }


def table_json(table: TableView) -> Json:
    return {
        "number": table.number,
        "ns": list(table.lines[0]),
        "ew": list(table.lines[1]),
        "result": result_json(table.result),
        "mp": None if table.mp is None else list(table.mp),
        "vp": None if table.vp is None else list(table.vp),
    }


def game_json(game: GameView) -> Json:
    return {
        "number": game.number,
        "drawn": game.drawn,
        "relaxed": game.relaxed,
        "started_at": iso(game.started_at),
        "tables": [table_json(t) for t in game.tables],
        "rests": list(game.rests),
        "rests_drawn": game.rests_drawn,
        "complete": game.complete,
    }


def checkin_json(checkin: CheckinView) -> Json:
    return {
        "name": checkin.name,
        "at": iso(checkin.at),
        "late": checkin.late,
        "recorded_by": checkin.recorded_by,
        "override_by": checkin.override_by,
        "override_reason": checkin.override_reason,
    }


def check_info_json(check: ScoreCheckInfo, member: str | None = None) -> Json:
    return {
        "id": check.id,
        "evening_id": check.evening_id,
        "game": check.game,
        "table": check.table_no,
        "member": member,
        "requested_by": check.requested_by,
        "requested_at": iso(check.requested_at),
        "note": check.note,
        "status": check.status,
        "resolved_by": check.resolved_by,
        "resolved_at": iso(check.resolved_at),
        "resolution": check.resolution,
    }


def check_json(check: CheckView) -> Json:
    return check_info_json(check.info, check.member)


def evening_json(view: EveningView, role: Role | None = None) -> Json:
    return {
        "club": club_json(view.club),
        "season": season_json(view.season),
        "evening": evening_info_json(view.evening),
        "number": view.number,
        "type": view.type.value,
        "minutes": view.type.minutes,
        "games_planned": view.games_planned,
        "times": times_json(view.times),
        "checkins": [checkin_json(c) for c in view.checkins],
        "stations": list(view.stations),
        "games": [game_json(g) for g in view.games],
        "ranking": ranking_json(view.ranking),
        "complete_games": view.complete_games,
        "finished": view.finished,
        "checks": [check_json(c) for c in view.checks],
        "role": None if role is None else role_json(role),
    }


def standings_json(view: StandingsView) -> Json:
    return {
        "club": club_json(view.club),
        "season": season_json(view.season),
        "evenings": [season_evening_json(e) for e in view.evenings],
        "counted": [e.info.id for e in view.counted],
        "rows": [
            {
                "place": r.place,
                "player": str(r.player),
                "points": r.points,
                "evenings": r.evenings,
                "weekly_prizes": r.weekly_prizes,
            }
            for r in view.rows
        ],
        "progress": {str(p): list(v) for p, v in view.progress.items()},
    }


def account_json(account: fee.MemberAccount) -> Json:
    return {
        "member": account.member,
        "fees": [
            {"period": f.period, "due_on": iso(f.due_on), "amount_cents": f.amount_cents}
            for f in account.fees
        ],
        "adjustments": [
            {"due_on": iso(a.due_on), "amount_cents": a.amount_cents, "reason": a.reason}
            for a in account.adjustments
        ],
        "payments": [
            {"paid_on": iso(p.paid_on), "amount_cents": p.amount_cents, "note": p.note}
            for p in account.payments
        ],
        "owed_cents": account.owed_cents,
        "paid_cents": account.paid_cents,
        "balance_cents": account.balance_cents,
    }


def fees_json(report: fee.FeesReport) -> Json:
    return {
        "accounts": [account_json(a) for a in report.accounts],
        "owed_cents": report.owed_cents,
        "paid_cents": report.paid_cents,
        "outstanding_cents": report.outstanding_cents,
        "pool_share_cents": report.pool_share_cents,
        "pool_cents": report.pool_cents,
        "prizes_cents": report.prizes_cents,
        "pool_left_cents": report.pool_left_cents,
    }


def prizes_json(report: PrizesReport) -> Json:
    return {
        "weekly": [
            {
                "evening_id": w.evening.id,
                "date": iso(w.evening.date),
                "number": w.number,
                "player": str(w.player),
                "vp": w.vp,
                "mp": w.mp,
                "value_cents": w.value_cents,
            }
            for w in report.weekly
        ],
        "season": [
            {
                "place": s.place,
                "player": str(s.player),
                "points": s.points,
                "value_cents": s.value_cents,
            }
            for s in report.season
        ],
        "awarded": [
            {
                "kind": a.kind,
                "evening_id": a.evening_id,
                "place": a.place,
                "member": report.names.get(a.member_id),
                "value_cents": a.value_cents,
                "description": a.description,
                "delivered_on": iso(a.delivered_on),
            }
            for a in report.awarded
        ],
        "weekly_by_player": report.weekly_by_player,
        "total_cents": report.total_cents,
    }


def audit_json(entries: Sequence[AuditEntry]) -> list[Json]:
    return [
        {
            "id": e.id,
            "at": iso(e.at),
            "actor": e.actor,
            "action": e.action,
            "subject": e.subject,
            "season_id": e.season_id,
            "evening_id": e.evening_id,
            "before": e.before,
            "after": e.after,
            "reason": e.reason,
        }
        for e in entries
    ]


def timer_json(state: TimerState, now: datetime) -> Json:
    return {**state.to_json(), "server_time": now.timestamp()}
