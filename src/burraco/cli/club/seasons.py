"""``burraco club season ...``, ``calendar ...`` and ``evening ...``: seasons, their calendar,
and adding, moving, cancelling or removing an evening."""

from __future__ import annotations

import argparse
from typing import Any

from burraco.club import export
from burraco.club.calendar import WEEKDAYS
from burraco.club.errors import bad
from burraco.club.service import Actor

from .running import Ctx, write_file


def _settings_given(a: argparse.Namespace) -> dict[str, Any]:
    """The season settings given on the command line (the service checks them with
    ``SeasonSettings``; those not given keep their value, or the default)."""
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
        ctx.actor, club.id, a.name, starts_on=a.start, ends_on=a.end, **_settings_given(a)
    )
    print(f"season {season.name} created: {season.starts_on} to {season.ends_on}")
    return 0


async def season_update(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    settings = _settings_given(a)
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
        write_file(a.ics, await ctx.service.calendar_ics(season_id, ctx.lang))
    if a.html:
        _, season, evenings = await ctx.service.calendar(season_id)
        write_file(a.html, export.calendar_html(club, season, evenings, ctx.lang))
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
