"""``burraco club``: the club manager from the command line (docs/club.md).

Every action works on the platform's database (``--database-url``, or SQLite in ``--data-dir``
as ``burraco serve``) through ``burraco.club.service``: one transaction per action, bad input
refused with one sentence on standard error (exit 1) and nothing changed. Changes are made as
the member named by ``--as`` (or ``BURRACO_CLUB_AS``), who must be one of the club's officers
once the club has one; reading needs no name.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from burraco.club import export
from burraco.club import fees as fee
from burraco.club.calendar import WEEKDAYS, zone
from burraco.club.errors import ClubError, bad
from burraco.club.service import Actor, ClubService, EveningView, ResultInput
from burraco.store import Store
from burraco.store.club import ClubInfo

Handler = Callable[["Ctx"], Awaitable[int]]
RESULT = re.compile(r"(\d+)=(-?\d+)/(-?\d+)")
SCORE = re.compile(r"(-?\d+)/(-?\d+)")


# ------------------------------------------------------------------------------ parsing


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _dates(text: str) -> list[date]:
    return [_date(part) for part in text.split(",") if part.strip()]


def _numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None


def _clock(text: str) -> time:
    try:
        return time.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time (HH:MM): {text!r}") from None


def _window(text: str) -> tuple[time, time]:
    opens, sep, closes = text.partition("-")
    if not sep:
        raise argparse.ArgumentTypeError(f"a window is HH:MM-HH:MM, not {text!r}")
    return _clock(opens), _clock(closes)


def _weekday(text: str) -> int:
    key = text.strip().lower()[:3]
    if key not in WEEKDAYS:
        raise argparse.ArgumentTypeError(f"a weekday is one of {', '.join(WEEKDAYS)}")
    return WEEKDAYS.index(key)


def _euros(text: str) -> int:
    try:
        return fee.parse_euros(text)
    except ClubError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def _prizes(text: str) -> list[int]:
    return [_euros(part) for part in text.split(",") if part.strip()]


def _result(text: str) -> tuple[int, int, int]:
    found = RESULT.fullmatch(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(
            f"a table's result is TABLE=NS/EW (e.g. 2=620/-35), not {text!r}"
        )
    return int(found[1]), int(found[2]), int(found[3])


def _smazzate(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        found = SCORE.fullmatch(part.strip())
        if found is None:
            raise argparse.ArgumentTypeError(
                f"the smazzate are NS/EW,NS/EW,... (e.g. 420/40,170/-230), not {text!r}"
            )
        out.append((int(found[1]), int(found[2])))
    return out


def _moment(text: str | None, day: date, tz_name: str) -> datetime | None:
    """``--at``: HH:MM on the evening's day in the club's zone, or a full ISO date and time."""
    if text is None:
        return None
    tz = zone(tz_name)
    try:
        if "T" in text or " " in text.strip():
            moment = datetime.fromisoformat(text.strip())
            return moment if moment.tzinfo else moment.replace(tzinfo=tz)
        return datetime.combine(day, time.fromisoformat(text.strip()), tz)
    except ValueError:
        raise bad(f"--at is HH:MM or an ISO date and time, not {text!r}") from None


# ------------------------------------------------------------------------------ running


@dataclass
class Ctx:
    service: ClubService
    args: argparse.Namespace

    @property
    def actor(self) -> Actor:
        return Actor.of_console(self.args.as_ or "console")

    @property
    def lang(self) -> str:
        return str(self.args.lang)

    async def club(self) -> ClubInfo:
        return await self.service.find_club(self.args.club)

    async def season_id(self, club: ClubInfo, day: date | None = None) -> int:
        return await self.service.find_season(club.id, getattr(self.args, "season", None), day)

    async def evening_id(self) -> tuple[ClubInfo, int]:
        club = await self.club()
        return club, await self.service.find_evening(club.id, self.args.date)


def _database(args: argparse.Namespace) -> str:
    from burraco.server.config import ServerConfig

    url = args.database_url or os.environ.get("BURRACO_DATABASE_URL")
    return ServerConfig(database_url=url, data_dir=args.data_dir).database()


def _runner(handler: Handler) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        async def main() -> int:
            store = await Store.open(_database(args))
            try:
                return await handler(Ctx(ClubService(store), args))
            finally:
                await store.close()

        try:
            return asyncio.run(main())
        except ClubError as error:
            hint = ""
            if error.code == "forbidden":
                hint = " (act as an officer with --as NAME or BURRACO_CLUB_AS)"
            print(f"burraco club: {error.message}{hint}", file=sys.stderr)
            return 1
        except BrokenPipeError:
            raise
        except OSError as error:
            print(f"burraco club: {type(error).__name__}: {error}", file=sys.stderr)
            return 1

    return run


def _write(path: Path, data: str | bytes) -> None:
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    print(f"wrote {path}")


# ------------------------------------------------------------------------------ handlers


async def create_club(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.service.create_club(ctx.actor, a.name, timezone=a.timezone, place=a.place)
    print(f"club {club.name} created (time zone {club.timezone})")
    return 0


async def member_add(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    m = await ctx.service.add_member(
        ctx.actor, club.id, a.name, email=a.email, officer=a.officer, account=a.account
    )
    print(f"member {m.name} added{' (officer)' if m.officer else ''}")
    return 0


async def member_update(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    m = await ctx.service.update_member(
        ctx.actor,
        club.id,
        a.name,
        name=a.rename,
        email=a.email,
        officer=a.officer,
        active=a.active,
        account=a.account,
    )
    print(f"member {m.name}: officer {m.officer}, active {m.active}, e-mail {m.email or '-'}")
    return 0


async def member_list(ctx: Ctx) -> int:
    club = await ctx.club()
    for m in await ctx.service.members(Actor.of_console(""), club.id):
        flags = " ".join(f for f, on in (("officer", m.officer), ("inactive", not m.active)) if on)
        print(f"{m.name:<24} {m.email or '-':<32} {flags}".rstrip())
    return 0


def _season_settings(a: argparse.Namespace) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for key, value in (
        ("weekday", a.weekday),
        ("break_minutes", a.break_minutes),
        ("seating", a.seating),
        ("two_left_over", a.two_left_over),
        ("vp_table", a.vp_table),
        ("monthly_fee_cents", a.fee),
        ("pool_share_cents", a.pool_share),
        ("weekly_prize_cents", a.weekly_prize),
        ("season_prizes_cents", a.prizes),
        ("rules_note", a.rules_note),
    ):
        if value is not None:
            settings[key] = value
    if a.checkin is not None:
        settings["checkin_opens"], settings["checkin_closes"] = a.checkin
    return settings


async def season_create(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    season = await ctx.service.create_season(
        ctx.actor, club.id, a.name, starts_on=a.start, ends_on=a.end, **_season_settings(a)
    )
    print(f"season {season.name} created: {season.starts_on} to {season.ends_on}")
    return 0


async def season_update(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    settings = _season_settings(a)
    if a.start is not None:
        settings["starts_on"] = a.start
    if a.end is not None:
        settings["ends_on"] = a.end
    season = await ctx.service.update_season(ctx.actor, await ctx.season_id(club), **settings)
    print(f"season {season.name} updated")
    return 0


async def season_list(ctx: Ctx) -> int:
    club = await ctx.club()
    for s in await ctx.service.seasons(Actor.of_console(""), club.id):
        print(f"{s.name:<24} {s.starts_on} to {s.ends_on}  {WEEKDAYS[s.weekday]}")
    return 0


async def calendar_create(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    evenings = await ctx.service.create_calendar(
        ctx.actor,
        await ctx.season_id(club),
        first=a.first,
        count=a.count,
        italiano=a.italiano,
        skip=a.skip or (),
    )
    print(f"{len(evenings)} evenings: {evenings[0].date} to {evenings[-1].date}")
    return await calendar_show(ctx)


async def calendar_show(ctx: Ctx) -> int:
    club = await ctx.club()
    _, season, evenings = await ctx.service.calendar(await ctx.season_id(club))
    print(export.calendar_text(club, season, evenings, ctx.lang))
    return 0


async def calendar_export(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    season_id = await ctx.season_id(club)
    if not a.ics and not a.html:
        raise bad("say where: --ics FILE and/or --html FILE")
    if a.ics:
        _write(a.ics, await ctx.service.calendar_ics(season_id, ctx.lang))
    if a.html:
        _, season, evenings = await ctx.service.calendar(season_id)
        _write(a.html, export.calendar_html(club, season, evenings, ctx.lang))
    return 0


async def evening_add(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    ev = await ctx.service.add_evening(
        ctx.actor,
        await ctx.season_id(club, a.day),
        a.day,
        a.type,
        one_game_fewer=a.one_game_fewer,
    )
    print(f"evening of {ev.date} added ({ev.type})")
    return 0


async def evening_update(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    ev = await ctx.service.update_evening(
        ctx.actor,
        evening_id,
        day=a.move_to,
        type=a.type,
        one_game_fewer=a.one_game_fewer,
        cancelled=a.cancelled,
        note=a.note,
        reason=a.reason,
    )
    fewer = ", one game fewer" if ev.one_game_fewer else ""
    print(f"evening of {ev.date}: {ev.type}{fewer}, {ev.status}")
    return 0


async def evening_delete(ctx: Ctx) -> int:
    _, evening_id = await ctx.evening_id()
    await ctx.service.delete_evening(ctx.actor, evening_id, ctx.args.reason)
    print(f"evening of {ctx.args.date} removed")
    return 0


async def checkin(ctx: Ctx) -> int:
    a = ctx.args
    club, evening_id = await ctx.evening_id()
    at = _moment(a.at, a.date, club.timezone)
    done = await ctx.service.checkins(ctx.actor, evening_id, a.names, at=at, override=a.override)
    for name, c in zip(a.names, done, strict=True):
        late = " (late: admitted by an officer)" if c.late else ""
        local = c.at.astimezone(zone(club.timezone))
        print(f"{name} registered at {local:%H:%M}{late}")
    return 0


async def uncheck(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    await ctx.service.uncheck(ctx.actor, evening_id, a.name, a.reason)
    print(f"{a.name} removed from {a.date}")
    return 0


def _print_game(view: EveningView, number: int) -> None:
    g = view.game(number)
    print(f"game {g.number}{' (seated by hand)' if not g.drawn else ''}")
    for table in g.tables:
        ns, ew = (" & ".join(line) for line in table.lines)
        line = f"  table {table.number}: {ns} v {ew}"
        if table.result is not None and table.vp is not None and table.mp is not None:
            line += (
                f"  {table.result.ns}-{table.result.ew}"
                f"  MP {table.mp[0]:+d}/{table.mp[1]:+d}  VP {table.vp[0]}-{table.vp[1]}"
            )
        print(line)
    if g.rests:
        print(f"  rest (10 VP, 0 MP): {', '.join(g.rests)}")


async def draw(ctx: Ctx) -> int:
    a = ctx.args
    club, evening_id = await ctx.evening_id()
    result = await ctx.service.draw(
        ctx.actor, evening_id, seed=a.seed, at=_moment(a.at, a.date, club.timezone)
    )
    print(f"stations: {', '.join(result.stations)}")
    view = await ctx.service.evening(None, evening_id)
    _print_game(view, 1)
    return 0


async def undo_draw(ctx: Ctx) -> int:
    _, evening_id = await ctx.evening_id()
    await ctx.service.undo_draw(ctx.actor, evening_id, ctx.args.reason)
    print(f"the draw of {ctx.args.date} is undone: back to check-in")
    return 0


def _view_json(view: EveningView) -> dict[str, Any]:
    return {
        "date": str(view.evening.date),
        "number": view.number,
        "type": view.type.value,
        "status": view.evening.status,
        "games_planned": view.games_planned,
        "checkins": [
            {"name": c.name, "at": c.at.isoformat(), "late": c.late, "override": c.override_reason}
            for c in view.checkins
        ],
        "stations": list(view.stations),
        "games": [
            {
                "number": g.number,
                "rests": list(g.rests),
                "tables": [
                    {
                        "number": tv.number,
                        "ns": list(tv.lines[0]),
                        "ew": list(tv.lines[1]),
                        "score": None if tv.result is None else [tv.result.ns, tv.result.ew],
                        "mp": None if tv.mp is None else list(tv.mp),
                        "vp": None if tv.vp is None else list(tv.vp),
                    }
                    for tv in g.tables
                ],
            }
            for g in view.games
        ],
        "ranking": [
            {
                "place": r.place,
                "player": r.player,
                "vp": r.vp,
                "mp": r.mp,
                "points": r.points,
                "played": r.played,
                "rests": r.rests,
            }
            for r in view.ranking.rows
        ],
        "checks": [
            {
                "id": c.info.id,
                "game": c.info.game,
                "table": c.info.table_no,
                "by": c.info.requested_by,
                "status": c.info.status,
            }
            for c in view.checks
        ],
    }


async def show(ctx: Ctx) -> int:
    _, evening_id = await ctx.evening_id()
    view = await ctx.service.evening(None, evening_id)
    if ctx.args.json:
        print(json.dumps(_view_json(view), indent=1))
        return 0
    print(
        f"{export.evening_title(ctx.lang, view)}: {view.evening.status}, {view.games_planned} games"
    )
    for c in view.checkins:
        late = f"  late, admitted by {c.override_by}: {c.override_reason}" if c.late else ""
        print(f"  {c.at:%H:%M} {c.name}{late}")
    for g in view.games:
        _print_game(view, g.number)
    for check in view.checks:
        info = check.info
        print(
            f"score check {info.id}: game {info.game}, table {info.table_no}, asked by"
            f" {info.requested_by}: {info.status}"
        )
    if view.complete_games:
        print(f"ranking after {view.complete_games} games:")
        print(export.ranking_text(ctx.lang, view))
    return 0


async def seating(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    tables = [[n.strip() for n in spec.split(",")] for spec in a.table]
    await ctx.service.set_seating(
        ctx.actor, evening_id, a.game, tables, a.rest or [], reason=a.reason or ""
    )
    _print_game(await ctx.service.evening(None, evening_id), a.game)
    return 0


async def rest(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    await ctx.service.change_rest(
        ctx.actor, evening_id, a.game, rest=a.name, instead_of=a.instead_of, reason=a.reason
    )
    _print_game(await ctx.service.evening(None, evening_id), a.game)
    return 0


def _timed_out(value: str | None) -> int | None:
    return None if value is None else ("ns", "ew").index(value)


async def result(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    if (a.smazzate or a.timed_out) and len(a.results) != 1:
        raise bad("--smazzate and --timed-out go with one table's result at a time")
    inputs = [
        ResultInput(t, ns, ew, a.smazzate, _timed_out(a.timed_out)) for t, ns, ew in a.results
    ]
    view = await ctx.service.enter_results(ctx.actor, evening_id, a.game, inputs)
    _print_game(view, a.game)
    _progress(view, a.game, ctx.lang)
    return 0


def _progress(view: EveningView, game: int, lang: str) -> None:
    if view.finished:
        print(f"the evening is finished; ranking after {view.complete_games} games:")
        print(export.ranking_text(lang, view))
    elif view.complete_games >= game and any(g.number == game + 1 for g in view.games):
        print(f"game {game} complete; game {game + 1} is drawn:")
        _print_game(view, game + 1)


async def correct(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    table, ns, ew = a.result
    view = await ctx.service.correct_result(
        ctx.actor,
        evening_id,
        a.game,
        table,
        ns=ns,
        ew=ew,
        reason=a.reason,
        smazzate=a.smazzate,
        timed_out=_timed_out(a.timed_out),
    )
    print(f"game {a.game}, table {table} corrected to {ns}-{ew}; rankings recomputed")
    _print_game(view, a.game)
    return 0


async def check_request(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    check = await ctx.service.request_check(
        ctx.actor, evening_id, a.game, a.table, note=a.note, member=a.member
    )
    print(f"score check {check.id} opened: game {check.game}, table {check.table_no}")
    return 0


async def check_resolve(ctx: Ctx) -> int:
    a = ctx.args
    check = await ctx.service.resolve_check(ctx.actor, a.id, a.resolution)
    print(f"score check {check.id}: {check.status}")
    return 0


async def timer(ctx: Ctx) -> int:
    a = ctx.args
    club, evening_id = await ctx.evening_id()
    at = _moment(a.at, a.date, club.timezone)
    if a.start is not None:
        state = await ctx.service.start_game(ctx.actor, evening_id, a.start, at=at)
    else:
        state = await ctx.service.timer(evening_id, now=at)
    left = f", {state.seconds_left // 60}:{state.seconds_left % 60:02d} left"
    ends = (
        ""
        if state.ends_at is None
        else f", ends at {state.ends_at.astimezone(zone(club.timezone)):%H:%M}"
    )
    print(
        f"game {state.game} of {state.games} ({state.minutes} minutes): {state.phase.value}"
        f"{left if state.seconds_left else ''}{ends}"
    )
    return 0


async def ranking(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    view = await ctx.service.evening(None, evening_id)
    print(export.ranking_text(ctx.lang, view))
    if a.csv:
        _write(a.csv, export.evening_csv(view))
    if a.results_csv:
        _write(a.results_csv, export.results_csv(view))
    if a.html:
        _write(a.html, export.evening_html(view, ctx.lang))
    return 0


async def standings(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    view = await ctx.service.standings(None, await ctx.season_id(club), after=a.after)
    print(f"{club.name}, {view.season.name}: after {len(view.counted)} evenings")
    print(export.standings_text(ctx.lang, view))
    if a.csv:
        _write(a.csv, export.standings_csv(view))
    if a.html:
        _write(a.html, export.standings_html(view, ctx.lang))
    if a.png:
        _write(a.png, export.standings_png(view, ctx.lang))
    return 0


async def fees(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    report = await ctx.service.fees(None, await ctx.season_id(club))
    for acc in report.accounts:
        if a.member and acc.member.casefold() != a.member.casefold():
            continue
        months = ",".join(f.period for f in acc.fees)
        print(
            f"{acc.member:<24} owed {fee.euros(acc.owed_cents):>8}  paid"
            f" {fee.euros(acc.paid_cents):>8}  balance {fee.euros(acc.balance_cents):>8}  {months}"
        )
    print(
        f"total owed {fee.euros(report.owed_cents)}, paid {fee.euros(report.paid_cents)},"
        f" outstanding {fee.euros(report.outstanding_cents)}; prize pool"
        f" {fee.euros(report.pool_cents)}, prizes {fee.euros(report.prizes_cents)}"
    )
    if a.csv:
        _write(a.csv, export.fees_csv(report))
    return 0


async def pay(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    account = await ctx.service.record_payment(
        ctx.actor,
        await ctx.season_id(club, a.on),
        a.name,
        a.amount,
        paid_on=a.on,
        note=a.note,
    )
    print(
        f"{account.member}: paid {fee.euros(a.amount)}; balance {fee.euros(account.balance_cents)}"
    )
    return 0


async def charge(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    account = await ctx.service.add_charge(
        ctx.actor,
        await ctx.season_id(club, a.due),
        a.name,
        a.amount,
        reason=a.reason,
        due_on=a.due,
    )
    print(
        f"{account.member}: {fee.euros(a.amount)} ({a.reason}); balance"
        f" {fee.euros(account.balance_cents)}"
    )
    return 0


async def prizes(ctx: Ctx) -> int:
    club = await ctx.club()
    report = await ctx.service.prizes(None, await ctx.season_id(club))
    _print_prizes(report)
    return 0


def _print_prizes(report: Any) -> None:
    for w in report.weekly:
        print(
            f"weekly prize, evening {w.number} ({w.evening.date}): {w.player},"
            f" {w.vp} VP {w.mp:+d} MP, {fee.euros(w.value_cents)}"
        )
    for s in report.season:
        print(
            f"season prize, place {s.place}: {s.player}, {s.points} points,"
            f" {fee.euros(s.value_cents)}"
        )
    if report.awarded:
        print(f"awarded when the season was closed: {len(report.awarded)} prizes")


async def close_season(ctx: Ctx) -> int:
    club = await ctx.club()
    report = await ctx.service.close_season(ctx.actor, await ctx.season_id(club))
    _print_prizes(report)
    return 0


async def report(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    season_id = await ctx.season_id(club)
    if a.member:
        text = export.member_report_text(await ctx.service.member_report(None, season_id, a.member))
    else:
        text = export.club_report_text(await ctx.service.club_report(None, season_id))
    print(text, end="")
    if a.output:
        _write(a.output, text)
    return 0


async def audit(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    evening_id = None
    if a.date is not None:
        evening_id = await ctx.service.find_evening(club.id, a.date)
    entries = await ctx.service.audit_trail(
        None, club.id, evening_id=evening_id, action_prefix=a.action
    )
    for e in entries:
        tz = zone(club.timezone)
        why = f"  because: {e.reason}" if e.reason else ""
        change = ""
        if e.before is not None or e.after is not None:
            change = f"  {json.dumps(e.before)} -> {json.dumps(e.after)}"
        print(f"{e.at.astimezone(tz):%Y-%m-%d %H:%M:%S} {e.actor}: {e.action} {e.subject}{why}")
        if change and a.verbose:
            print(f"    {change.strip()}")
    return 0


def _smtp(a: argparse.Namespace) -> Any:
    from burraco.club.mail import SmtpConfig

    return SmtpConfig(
        host=a.smtp_host or "",
        port=a.smtp_port,
        sender=a.sender,
        username=a.smtp_user,
        password=os.environ.get("BURRACO_SMTP_PASSWORD"),
        starttls=a.smtp_starttls,
        ssl=a.smtp_ssl,
    )


async def mail_standings(ctx: Ctx) -> int:
    from burraco.club.mail import mail_standings as send

    _, evening_id = await ctx.evening_id()
    sent = await send(ctx.service, ctx.actor, evening_id, _smtp(ctx.args), ctx.lang)
    print(f"standings sent to {len(sent)} members")
    return 0


async def mail_calendar(ctx: Ctx) -> int:
    from burraco.club.mail import mail_calendar as send

    club = await ctx.club()
    sent = await send(ctx.service, ctx.actor, await ctx.season_id(club), _smtp(ctx.args), ctx.lang)
    print(f"calendar and rules sent to {len(sent)} members")
    return 0


# ------------------------------------------------------------------------------ the parser


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "club",
        help="the club manager: calendar, check-in, draws, results, standings, fees",
        description="Run a club's evenings and seasons (docs/club.md).",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database-url", help="e.g. postgresql://user@host/db (default: SQLite)")
    common.add_argument("--data-dir", type=Path, default=Path("data"), help="data folder (data)")
    common.add_argument("--club", help="the club's name (needed when there are several)")
    common.add_argument(
        "--as",
        dest="as_",
        metavar="NAME",
        default=os.environ.get("BURRACO_CLUB_AS"),
        help="the officer making the change (default: $BURRACO_CLUB_AS)",
    )
    common.add_argument("--lang", choices=("it", "en"), default="it", help="language (it)")
    actions = parser.add_subparsers(dest="club_command", metavar="ACTION", required=True)

    def action(
        name: str,
        help: str,
        handler: Handler,
        group: argparse._SubParsersAction[argparse.ArgumentParser] = actions,
    ) -> argparse.ArgumentParser:
        p = group.add_parser(name, parents=[common], help=help, description=help)
        p.set_defaults(run=_runner(handler))
        return p

    def group(name: str, help: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        p = actions.add_parser(name, help=help, description=help)
        return p.add_subparsers(dest=f"{name}_command", metavar="ACTION", required=True)

    def on_date(p: argparse.ArgumentParser) -> None:
        p.add_argument("--date", type=_date, required=True, help="the evening (YYYY-MM-DD)")

    def season_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--season", help="the season (default: the one of the date, or the latest)")

    p = action("create", "create a club", create_club)
    p.add_argument("name")
    p.add_argument("--timezone", default="Europe/Rome", help="IANA zone (Europe/Rome)")
    p.add_argument("--place", default="", help="where the evenings are played")

    members = group("member", "the club's members and officers")
    p = action("add", "add a member", member_add, members)
    p.add_argument("name")
    p.add_argument("--email")
    p.add_argument("--officer", action="store_true", help="one of the club's officers")
    p.add_argument("--account", help="link the member's platform account (web login)")
    p = action("update", "change a member", member_update, members)
    p.add_argument("name")
    p.add_argument("--rename", help="a new name")
    p.add_argument("--email", help="a new address ('' removes it)")
    p.add_argument("--account", help="link a platform account ('' unlinks)")
    p.add_argument("--officer", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--active", action=argparse.BooleanOptionalAction, default=None)
    action("list", "list the members", member_list, members)

    def season_settings(p: argparse.ArgumentParser) -> None:
        p.add_argument("--weekday", type=_weekday, help="the evenings' day (fri)")
        p.add_argument("--checkin", type=_window, help="check-in window (20:30-20:45)")
        p.add_argument("--break", dest="break_minutes", type=int, help="break minutes (15)")
        p.add_argument("--seating", choices=("mitchell", "danish"), help="(mitchell)")
        p.add_argument(
            "--two-left-over", choices=("rest", "table"), help="N mod 4 = 2: rest or table"
        )
        p.add_argument("--vp-table", choices=("VP-2", "VP-3", "VP-4"), help="(VP-3)")
        p.add_argument("--fee", type=_euros, help="monthly fee in euros")
        p.add_argument("--pool-share", type=_euros, help="of each fee, to the prize pool")
        p.add_argument("--weekly-prize", type=_euros, help="value of a weekly prize")
        p.add_argument("--prizes", type=_prizes, help="top-3 prizes, e.g. 50,30,20")
        p.add_argument("--rules-note", help="the club's own words added to the rules")

    seasons = group("season", "the club's seasons (tournaments)")
    p = action("create", "create a season", season_create, seasons)
    p.add_argument("name")
    p.add_argument("--start", type=_date, required=True)
    p.add_argument("--end", type=_date, required=True)
    season_settings(p)
    p = action("update", "change a season's settings", season_update, seasons)
    season_option(p)
    p.add_argument("--start", type=_date)
    p.add_argument("--end", type=_date)
    season_settings(p)
    action("list", "list the seasons", season_list, seasons)

    calendar = group("calendar", "the season's calendar")
    p = action("create", "plan the season's evenings", calendar_create, calendar)
    season_option(p)
    p.add_argument("--first", type=_date, help="the first evening (default: season start)")
    p.add_argument("--count", type=int, default=16, help="how many evenings (16)")
    p.add_argument("--italiano", type=_numbers, help="Italiano evenings, e.g. 2,5,9,12,15")
    p.add_argument("--skip", type=_dates, help="dates without an evening, comma-separated")
    p = action("show", "print the calendar", calendar_show, calendar)
    season_option(p)
    p = action(
        "export", "write the calendar as .ics and/or printable HTML", calendar_export, calendar
    )
    season_option(p)
    p.add_argument("--ics", type=Path)
    p.add_argument("--html", type=Path)

    evening = group("evening", "one evening of the calendar")
    p = action("add", "add an evening", evening_add, evening)
    p.add_argument("day", type=_date)
    p.add_argument("--type", choices=("internazionale", "italiano"), default="internazionale")
    p.add_argument("--one-game-fewer", action="store_true")
    p = action("update", "move, retype, shorten, cancel an evening", evening_update, evening)
    on_date(p)
    p.add_argument("--move-to", type=_date)
    p.add_argument("--type", choices=("internazionale", "italiano"))
    p.add_argument("--one-game-fewer", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--cancelled", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--note")
    p.add_argument("--reason")
    p = action("delete", "remove an evening without check-ins", evening_delete, evening)
    on_date(p)
    p.add_argument("--reason", default="")

    p = action("checkin", "register players present (in the window)", checkin)
    on_date(p)
    p.add_argument("names", nargs="+", metavar="NAME")
    p.add_argument("--at", help="when (HH:MM, default now)")
    p.add_argument("--override", metavar="REASON", help="admit outside the window (officer)")
    p = action("uncheck", "remove a registration made by mistake", uncheck)
    on_date(p)
    p.add_argument("name")
    p.add_argument("--reason", required=True)

    p = action("draw", "close check-in: draw stations, rests and game 1's tables", draw)
    on_date(p)
    p.add_argument("--at", help="when (HH:MM, default now)")
    p.add_argument("--seed", type=int, help="the draw's seed (default random)")
    p = action("undo-draw", "back to check-in (no result entered yet)", undo_draw)
    on_date(p)
    p.add_argument("--reason", required=True)

    p = action("show", "the evening: check-ins, games, results, ranking", show)
    on_date(p)
    p.add_argument("--json", action="store_true")
    p = action("seating", "enter a game's seating made by hand", seating)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("--table", action="append", required=True, metavar="NS1,EW1,NS2,EW2")
    p.add_argument("--rest", action="append", metavar="NAME")
    p.add_argument("--reason")
    p = action("rest", "make NAME rest instead of another (officer)", rest)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("name")
    p.add_argument("--instead-of", required=True)
    p.add_argument("--reason", required=True)

    p = action("result", "enter tables' results: TABLE=NS/EW ...", result)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("results", nargs="+", type=_result, metavar="TABLE=NS/EW")
    p.add_argument("--smazzate", type=_smazzate, help="one table's smazzate: NS/EW,NS/EW,...")
    p.add_argument("--timed-out", choices=("ns", "ew"), help="the line out of time (T14)")
    p = action("correct", "correct a published result, with a reason", correct)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("result", type=_result, metavar="TABLE=NS/EW")
    p.add_argument("--reason", required=True)
    p.add_argument("--smazzate", type=_smazzate)
    p.add_argument("--timed-out", choices=("ns", "ew"))

    checks = group("check", "score checks asked during the break")
    p = action("request", "ask for a check of a published score", check_request, checks)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--member", help="who asks")
    p.add_argument("--note", default="")
    p = action("resolve", "the score stands (a wrong one: use correct)", check_resolve, checks)
    p.add_argument("id", type=int)
    p.add_argument("--resolution", required=True)

    p = action("timer", "the room's game timer (start a game with --start)", timer)
    on_date(p)
    p.add_argument("--start", type=int, metavar="GAME")
    p.add_argument("--at", help="when (HH:MM, default now)")

    p = action("ranking", "the evening ranking; exports", ranking)
    on_date(p)
    p.add_argument("--csv", type=Path)
    p.add_argument("--results-csv", type=Path)
    p.add_argument("--html", type=Path)
    p = action("standings", "the season standings; exports", standings)
    season_option(p)
    p.add_argument("--after", type=int, help="after the first N finished evenings")
    p.add_argument("--csv", type=Path)
    p.add_argument("--html", type=Path)
    p.add_argument("--png", type=Path, help="the chart of the standings over the evenings")

    p = action("fees", "what members owe and have paid", fees)
    season_option(p)
    p.add_argument("--member")
    p.add_argument("--csv", type=Path)
    p = action("pay", "record a payment", pay)
    season_option(p)
    p.add_argument("name")
    p.add_argument("amount", type=_euros, help="euros, e.g. 20 or 12.50")
    p.add_argument("--on", type=_date, help="the day (default today)")
    p.add_argument("--note", default="")
    p = action("charge", "an extra charge, or a waiver (negative)", charge)
    season_option(p)
    p.add_argument("name")
    p.add_argument("amount", type=_euros)
    p.add_argument("--reason", required=True)
    p.add_argument("--due", type=_date)

    p = action("prizes", "weekly and season prizes", prizes)
    season_option(p)
    p = action(
        "close-season", "award the prizes (every evening finished or cancelled)", close_season
    )
    season_option(p)
    p = action("report", "the club's season report, or a member's (--member)", report)
    season_option(p)
    p.add_argument("--member")
    p.add_argument("--output", type=Path)
    p = action("audit", "the audit trail: who changed what, when and why", audit)
    p.add_argument("--date", type=_date, help="only this evening")
    p.add_argument("--action", help="only actions starting so (e.g. result.)")
    p.add_argument("-v", "--verbose", action="store_true", help="show before and after")

    mail = group("mail", "e-mail the members with an address")

    def smtp(p: argparse.ArgumentParser) -> None:
        env = os.environ
        p.add_argument("--smtp-host", default=env.get("BURRACO_SMTP_HOST"))
        p.add_argument("--smtp-port", type=int, default=int(env.get("BURRACO_SMTP_PORT", "25")))
        p.add_argument("--smtp-user", default=env.get("BURRACO_SMTP_USER"))
        p.add_argument("--smtp-starttls", action="store_true")
        p.add_argument("--smtp-ssl", action="store_true")
        p.add_argument(
            "--from", dest="sender", default=env.get("BURRACO_SMTP_FROM", "burraco@localhost")
        )

    p = action("standings", "the evening's and the season's standings", mail_standings, mail)
    on_date(p)
    smtp(p)
    p = action("calendar", "the calendar (.ics) with the rules", mail_calendar, mail)
    season_option(p)
    smtp(p)
