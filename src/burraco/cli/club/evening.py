"""One evening at the table: ``checkin``, ``uncheck``, ``draw``, ``undo-draw``, ``show``,
``seating``, ``rest``, ``result``, ``correct``, ``check ...`` and ``timer``."""

from __future__ import annotations

import json
from typing import Any

from burraco.club import export
from burraco.club.calendar import zone
from burraco.club.errors import bad
from burraco.club.service import EveningView, ResultInput

from .running import Ctx, moment


async def checkin(ctx: Ctx) -> int:
    a = ctx.args
    club, evening_id = await ctx.evening_id()
    at = moment(a.at, a.date, club.timezone)
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
        ctx.actor, evening_id, seed=a.seed, at=moment(a.at, a.date, club.timezone)
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
    at = moment(a.at, a.date, club.timezone)
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
