"""What a season gives: ``ranking``, ``standings``, ``fees``, ``pay``, ``charge``, ``prizes``,
``close-season``, ``report``, ``audit`` and ``mail ...``."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from burraco.club import export
from burraco.club import fees as fee
from burraco.club.calendar import zone

from .running import Ctx, write_file


async def ranking(ctx: Ctx) -> int:
    a = ctx.args
    _, evening_id = await ctx.evening_id()
    view = await ctx.service.evening(None, evening_id)
    print(export.ranking_text(ctx.lang, view))
    if a.csv:
        write_file(a.csv, export.evening_csv(view))
    if a.results_csv:
        write_file(a.results_csv, export.results_csv(view))
    if a.html:
        write_file(a.html, export.evening_html(view, ctx.lang))
    return 0


async def standings(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    view = await ctx.service.standings(None, await ctx.season_id(club), after=a.after)
    print(f"{club.name}, {view.season.name}: after {len(view.counted)} evenings")
    print(export.standings_text(ctx.lang, view))
    if a.csv:
        write_file(a.csv, export.standings_csv(view))
    if a.html:
        write_file(a.html, export.standings_html(view, ctx.lang))
    if a.png:
        write_file(a.png, export.standings_png(view, ctx.lang))
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
        write_file(a.csv, export.fees_csv(report))
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
        write_file(a.output, text)
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
