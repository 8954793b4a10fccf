"""The parser of ``burraco club``: its actions and their arguments. Light to import (``burraco
--help`` builds it): each action names its handler as ``module:function`` of this package,
imported with the store and the service only when the action runs (``running.run``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from . import arguments as arg


def _later(handler: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from .running import run

        return run(handler, args)

    return run


class _Actions:
    """Adds the actions of ``burraco club``, each with the common options."""

    def __init__(
        self,
        actions: argparse._SubParsersAction[argparse.ArgumentParser],
        common: argparse.ArgumentParser,
    ) -> None:
        self.actions = actions
        self.common = common

    def action(
        self,
        name: str,
        help: str,
        handler: str,
        group: argparse._SubParsersAction[argparse.ArgumentParser] | None = None,
    ) -> argparse.ArgumentParser:
        where = self.actions if group is None else group
        p = where.add_parser(name, parents=[self.common], help=help, description=help)
        p.set_defaults(run=_later(handler))
        return p

    def group(self, name: str, help: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        p = self.actions.add_parser(name, help=help, description=help)
        return p.add_subparsers(dest=f"{name}_command", metavar="ACTION", required=True)


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
    b = _Actions(actions, common)
    for add in (_club_and_members, _seasons_and_calendar, _evening, _results, _season, _mail):
        add(b)


def _club_and_members(b: _Actions) -> None:
    """``create`` and ``member ...``."""
    p = b.action("create", "create a club", "members:create_club")
    p.add_argument("name")
    p.add_argument("--timezone", default="Europe/Rome", help="IANA zone (Europe/Rome)")
    p.add_argument("--place", default="", help="where the evenings are played")

    members = b.group("member", "the club's members and officers")
    p = b.action("add", "add a member", "members:member_add", members)
    p.add_argument("name")
    p.add_argument("--email")
    p.add_argument("--officer", action="store_true", help="one of the club's officers")
    p.add_argument("--account", help="link the member's platform account (web login)")
    p = b.action("update", "change a member", "members:member_update", members)
    p.add_argument("name")
    p.add_argument("--rename", help="a new name")
    p.add_argument("--email", help="a new address ('' removes it)")
    p.add_argument("--account", help="link a platform account ('' unlinks)")
    p.add_argument("--officer", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--active", action=argparse.BooleanOptionalAction, default=None)
    b.action("list", "list the members", "members:member_list", members)


def _seasons_and_calendar(b: _Actions) -> None:
    """``season ...``, ``calendar ...``, ``evening ...``."""
    seasons = b.group("season", "the club's seasons (tournaments)")
    p = b.action("create", "create a season", "seasons:season_create", seasons)
    p.add_argument("name")
    p.add_argument("--start", type=arg.day, required=True)
    p.add_argument("--end", type=arg.day, required=True)
    season_settings(p)
    p = b.action("update", "change a season's settings", "seasons:season_update", seasons)
    season_option(p)
    p.add_argument("--start", type=arg.day)
    p.add_argument("--end", type=arg.day)
    season_settings(p)
    b.action("list", "list the seasons", "seasons:season_list", seasons)

    calendar = b.group("calendar", "the season's calendar")
    p = b.action("create", "plan the season's evenings", "seasons:calendar_create", calendar)
    season_option(p)
    p.add_argument("--first", type=arg.day, help="the first evening (default: season start)")
    p.add_argument("--count", type=int, default=16, help="how many evenings (16)")
    p.add_argument("--italiano", type=arg.numbers, help="Italiano evenings, e.g. 2,5,9,12,15")
    p.add_argument("--skip", type=arg.dates, help="dates without an evening, comma-separated")
    p = b.action("show", "print the calendar", "seasons:calendar_show", calendar)
    season_option(p)
    p = b.action(
        "export",
        "write the calendar as .ics and/or printable HTML",
        "seasons:calendar_export",
        calendar,
    )
    season_option(p)
    p.add_argument("--ics", type=Path)
    p.add_argument("--html", type=Path)

    evening = b.group("evening", "one evening of the calendar")
    p = b.action("add", "add an evening", "seasons:evening_add", evening)
    p.add_argument("day", type=arg.day)
    p.add_argument("--type", choices=("internazionale", "italiano"), default="internazionale")
    p.add_argument("--one-game-fewer", action="store_true")
    p = b.action(
        "update", "move, retype, shorten, cancel an evening", "seasons:evening_update", evening
    )
    on_date(p)
    p.add_argument("--move-to", type=arg.day)
    p.add_argument("--type", choices=("internazionale", "italiano"))
    p.add_argument("--one-game-fewer", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--cancelled", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--note")
    p.add_argument("--reason")
    p = b.action("delete", "remove an evening without check-ins", "seasons:evening_delete", evening)
    on_date(p)
    p.add_argument("--reason", default="")


def _evening(b: _Actions) -> None:
    """One evening: from ``checkin`` to ``rest``."""
    p = b.action("checkin", "register players present (in the window)", "evening:checkin")
    on_date(p)
    p.add_argument("names", nargs="+", metavar="NAME")
    p.add_argument("--at", help="when (HH:MM, default now)")
    p.add_argument("--override", metavar="REASON", help="admit outside the window (officer)")
    p = b.action("uncheck", "remove a registration made by mistake", "evening:uncheck")
    on_date(p)
    p.add_argument("name")
    p.add_argument("--reason", required=True)

    p = b.action("draw", "close check-in: draw stations, rests and game 1's tables", "evening:draw")
    on_date(p)
    p.add_argument("--at", help="when (HH:MM, default now)")
    p.add_argument("--seed", type=int, help="the draw's seed (default random)")
    p = b.action("undo-draw", "back to check-in (no result entered yet)", "evening:undo_draw")
    on_date(p)
    p.add_argument("--reason", required=True)

    p = b.action("show", "the evening: check-ins, games, results, ranking", "evening:show")
    on_date(p)
    p.add_argument("--json", action="store_true")
    p = b.action("seating", "enter a game's seating made by hand", "evening:seating")
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("--table", action="append", required=True, metavar="NS1,EW1,NS2,EW2")
    p.add_argument("--rest", action="append", metavar="NAME")
    p.add_argument("--reason")
    p = b.action("rest", "make NAME rest instead of another (officer)", "evening:rest")
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("name")
    p.add_argument("--instead-of", required=True)
    p.add_argument("--reason", required=True)


def _results(b: _Actions) -> None:
    """An evening's results: ``result``, ``correct``, ``check ...``, ``timer``."""
    p = b.action("result", "enter tables' results: TABLE=NS/EW ...", "evening:result")
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("results", nargs="+", type=arg.result, metavar="TABLE=NS/EW")
    p.add_argument("--smazzate", type=arg.smazzate, help="one table's smazzate: NS/EW,NS/EW,...")
    p.add_argument("--timed-out", choices=("ns", "ew"), help="the line out of time (T14)")
    p = b.action("correct", "correct a published result, with a reason", "evening:correct")
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("result", type=arg.result, metavar="TABLE=NS/EW")
    p.add_argument("--reason", required=True)
    p.add_argument("--smazzate", type=arg.smazzate)
    p.add_argument("--timed-out", choices=("ns", "ew"))

    checks = b.group("check", "score checks asked during the break")
    p = b.action("request", "ask for a check of a published score", "evening:check_request", checks)
    on_date(p)
    p.add_argument("--game", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--member", help="who asks")
    p.add_argument("--note", default="")
    p = b.action(
        "resolve", "the score stands (a wrong one: use correct)", "evening:check_resolve", checks
    )
    p.add_argument("id", type=int)
    p.add_argument("--resolution", required=True)

    p = b.action("timer", "the room's game timer (start a game with --start)", "evening:timer")
    on_date(p)
    p.add_argument("--start", type=int, metavar="GAME")
    p.add_argument("--at", help="when (HH:MM, default now)")


def _season(b: _Actions) -> None:
    """The season: rankings, standings, fees, prizes, reports, the audit trail."""
    p = b.action("ranking", "the evening ranking; exports", "season_reports:ranking")
    on_date(p)
    p.add_argument("--csv", type=Path)
    p.add_argument("--results-csv", type=Path)
    p.add_argument("--html", type=Path)
    p = b.action("standings", "the season standings; exports", "season_reports:standings")
    season_option(p)
    p.add_argument("--after", type=int, help="after the first N finished evenings")
    p.add_argument("--csv", type=Path)
    p.add_argument("--html", type=Path)
    p.add_argument("--png", type=Path, help="the chart of the standings over the evenings")

    p = b.action("fees", "what members owe and have paid", "season_reports:fees")
    season_option(p)
    p.add_argument("--member")
    p.add_argument("--csv", type=Path)
    p = b.action("pay", "record a payment", "season_reports:pay")
    season_option(p)
    p.add_argument("name")
    p.add_argument("amount", type=arg.euros, help="euros, e.g. 20 or 12.50")
    p.add_argument("--on", type=arg.day, help="the day (default today)")
    p.add_argument("--note", default="")
    p = b.action("charge", "an extra charge, or a waiver (negative)", "season_reports:charge")
    season_option(p)
    p.add_argument("name")
    p.add_argument("amount", type=arg.euros)
    p.add_argument("--reason", required=True)
    p.add_argument("--due", type=arg.day)

    p = b.action("prizes", "weekly and season prizes", "season_reports:prizes")
    season_option(p)
    p = b.action(
        "close-season",
        "award the prizes (every evening finished or cancelled)",
        "season_reports:close_season",
    )
    season_option(p)
    p = b.action(
        "report", "the club's season report, or a member's (--member)", "season_reports:report"
    )
    season_option(p)
    p.add_argument("--member")
    p.add_argument("--output", type=Path)
    p = b.action("audit", "the audit trail: who changed what, when and why", "season_reports:audit")
    p.add_argument("--date", type=arg.day, help="only this evening")
    p.add_argument("--action", help="only actions starting so (e.g. result.)")
    p.add_argument("-v", "--verbose", action="store_true", help="show before and after")


def _mail(b: _Actions) -> None:
    """``mail ...``."""
    mail = b.group("mail", "e-mail the members with an address")

    p = b.action(
        "standings",
        "the evening's and the season's standings",
        "season_reports:mail_standings",
        mail,
    )
    on_date(p)
    smtp(p)
    p = b.action(
        "calendar", "the calendar (.ics) with the rules", "season_reports:mail_calendar", mail
    )
    season_option(p)
    smtp(p)


def on_date(p: argparse.ArgumentParser) -> None:
    p.add_argument("--date", type=arg.day, required=True, help="the evening (YYYY-MM-DD)")


def season_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--season", help="the season (default: the one of the date, or the latest)")


def season_settings(p: argparse.ArgumentParser) -> None:
    p.add_argument("--weekday", type=arg.weekday, help="the evenings' day (fri)")
    p.add_argument("--checkin", type=arg.window, help="check-in window (20:30-20:45)")
    p.add_argument("--break", dest="break_minutes", type=int, help="break minutes (15)")
    p.add_argument("--seating", choices=("mitchell", "danish"), help="(mitchell)")
    p.add_argument("--two-left-over", choices=("rest", "table"), help="N mod 4 = 2: rest or table")
    p.add_argument("--vp-table", choices=("VP-2", "VP-3", "VP-4"), help="(VP-3)")
    p.add_argument("--fee", type=arg.euros, help="monthly fee in euros")
    p.add_argument("--pool-share", type=arg.euros, help="of each fee, to the prize pool")
    p.add_argument("--weekly-prize", type=arg.euros, help="value of a weekly prize")
    p.add_argument("--prizes", type=arg.prizes, help="top-3 prizes, e.g. 50,30,20")
    p.add_argument("--rules-note", help="the club's own words added to the rules")


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
