"""The season calendar (RULES.md T26, seed 003): the evenings' dates and types, their times,
and the iCalendar file (RFC 5545) written by hand with the standard library.

Pure: dates in, dates and text out (the time zone database is the only thing read).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from burraco.tournament import EveningType

from .errors import bad

EVENINGS = 16
"""Seed 003: 11 evenings of Internazionale and 5 of Italiano per tournament (C15: "circa 15")."""
ITALIANO_EVENINGS = 5
BREAK_AFTER = 2
"""Seed 003: the break comes after two games."""
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise bad(f"unknown time zone {name!r} (e.g. Europe/Rome)") from None


def spread(count: int, among: int) -> list[int]:
    """``count`` evening numbers (1-based) spread evenly over ``among`` evenings: where the
    Italiano evenings go by default (16 evenings, 5 Italiano: 2, 5, 9, 12, 15)."""
    if not 0 <= count <= among:
        raise bad(f"cannot place {count} evenings among {among}")
    return [(2 * i + 1) * among // (2 * count) + 1 for i in range(count)]


@dataclass(frozen=True, slots=True)
class PlannedEvening:
    number: int
    date: date
    type: EveningType


def plan(
    first: date,
    count: int = EVENINGS,
    *,
    weekday: int = 4,
    skip: Iterable[date] = (),
    italiano: Sequence[int] | None = None,
) -> list[PlannedEvening]:
    """``count`` evenings on ``weekday`` from ``first`` (or the next such day), every week but the
    ``skip`` dates (holidays); ``italiano`` are the numbers of the Italiano evenings (default:
    5 in 16, spread evenly, the others Internazionale)."""
    if not 1 <= count <= 60:
        raise bad(f"a tournament has 1 to 60 evenings, not {count}", "evening_count", n=count)
    if not 0 <= weekday <= 6:
        raise bad("the weekday is 0 (Monday) to 6 (Sunday)")
    if italiano is None:  # seed 003's proportion: 5 Italiano evenings in 16
        italiano = spread(round(count * ITALIANO_EVENINGS / EVENINGS), count)
    numbers = set(italiano)
    if any(not 1 <= n <= count for n in numbers):
        raise bad(f"Italiano evenings are numbered 1 to {count}")
    skipped = set(skip)
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    out: list[PlannedEvening] = []
    while len(out) < count:
        if day not in skipped:
            n = len(out) + 1
            kind = EveningType.ITALIANO if n in numbers else EveningType.INTERNAZIONALE
            out.append(PlannedEvening(n, day, kind))
        day += timedelta(days=7)
    return out


def games_of(type: EveningType, one_game_fewer: bool) -> int:
    return type.games - one_game_fewer


@dataclass(frozen=True, slots=True)
class EveningTimes:
    """An evening's times in the club's zone: check-in window, games, break, end."""

    checkin_opens: datetime
    checkin_closes: datetime
    games: tuple[tuple[datetime, datetime], ...]
    """Each game's planned start and end (the first starts when check-in closes)."""
    break_: tuple[datetime, datetime] | None

    @property
    def start(self) -> datetime:
        return self.checkin_opens

    @property
    def end(self) -> datetime:
        return self.games[-1][1]


def evening_times(
    day: date,
    tz: ZoneInfo,
    *,
    opens: time,
    closes: time,
    type: EveningType,
    one_game_fewer: bool = False,
    break_minutes: int = 15,
) -> EveningTimes:
    """The planned timetable: games back to back from the close of check-in, with the break
    after the second game (when a third follows)."""
    start = datetime.combine(day, opens, tz)
    at = datetime.combine(day, closes, tz)
    if at < start:
        raise bad("check-in must close after it opens", "season_setting", field="checkin_closes")
    length = timedelta(minutes=type.minutes)
    games: list[tuple[datetime, datetime]] = []
    pause: tuple[datetime, datetime] | None = None
    count = games_of(type, one_game_fewer)
    for n in range(1, count + 1):
        games.append((at, at + length))
        at += length
        if n == BREAK_AFTER and n < count and break_minutes > 0:
            pause = (at, at + timedelta(minutes=break_minutes))
            at = pause[1]
    return EveningTimes(start, datetime.combine(day, closes, tz), tuple(games), pause)


# ------------------------------------------------------------------------------ iCalendar


@dataclass(frozen=True, slots=True)
class IcsEvent:
    uid: str
    start: datetime
    end: datetime
    summary: str
    description: str = ""
    location: str = ""
    cancelled: bool = False
    sequence: int = 0


def _escape(text: str) -> str:
    """TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and newlines escaped."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def _fold(line: str) -> str:
    """Lines longer than 75 octets are folded (3.1): CRLF and one space, never inside a UTF-8
    character."""
    out: list[str] = []
    current = ""
    size = 0
    limit = 75
    for ch in line:
        width = len(ch.encode())
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += ch
        size += width
    out.append(current)
    return "\r\n".join(out)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def ics(name: str, events: Iterable[IcsEvent], *, stamp: datetime) -> str:
    """A VCALENDAR of the events, times in UTC (no VTIMEZONE needed), CRLF line ends."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Burraco//Club manager//IT",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{_escape(name)}",
    ]
    for e in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{e.uid}",
            f"DTSTAMP:{_utc(stamp)}",
            f"DTSTART:{_utc(e.start)}",
            f"DTEND:{_utc(e.end)}",
            f"SEQUENCE:{e.sequence}",
            f"SUMMARY:{_escape(e.summary)}",
        ]
        if e.description:
            lines.append(f"DESCRIPTION:{_escape(e.description)}")
        if e.location:
            lines.append(f"LOCATION:{_escape(e.location)}")
        lines.append(f"STATUS:{'CANCELLED' if e.cancelled else 'CONFIRMED'}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)
