"""The types of ``burraco club``'s arguments (dates, times, euros, results...). Light to import:
what they need of the club manager is imported when an argument is parsed."""

from __future__ import annotations

import argparse
import datetime as dt
import re

RESULT = re.compile(r"(\d+)=(-?\d+)/(-?\d+)")
SCORE = re.compile(r"(-?\d+)/(-?\d+)")


def day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def dates(text: str) -> list[dt.date]:
    return [day(part) for part in text.split(",") if part.strip()]


def numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None


def clock(text: str) -> dt.time:
    try:
        return dt.time.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time (HH:MM): {text!r}") from None


def window(text: str) -> tuple[dt.time, dt.time]:
    opens, sep, closes = text.partition("-")
    if not sep:
        raise argparse.ArgumentTypeError(f"a window is HH:MM-HH:MM, not {text!r}")
    return clock(opens), clock(closes)


def weekday(text: str) -> int:
    from burraco.club.calendar import WEEKDAYS

    key = text.strip().lower()[:3]
    if key not in WEEKDAYS:
        raise argparse.ArgumentTypeError(f"a weekday is one of {', '.join(WEEKDAYS)}")
    return WEEKDAYS.index(key)


def euros(text: str) -> int:
    from burraco.club import fees
    from burraco.club.errors import ClubError

    try:
        return fees.parse_euros(text)
    except ClubError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def prizes(text: str) -> list[int]:
    return [euros(part) for part in text.split(",") if part.strip()]


def result(text: str) -> tuple[int, int, int]:
    found = RESULT.fullmatch(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(
            f"a table's result is TABLE=NS/EW (e.g. 2=620/-35), not {text!r}"
        )
    return int(found[1]), int(found[2]), int(found[3])


def smazzate(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        found = SCORE.fullmatch(part.strip())
        if found is None:
            raise argparse.ArgumentTypeError(
                f"the smazzate are NS/EW,NS/EW,... (e.g. 420/40,170/-230), not {text!r}"
            )
        out.append((int(found[1]), int(found[2])))
    return out
