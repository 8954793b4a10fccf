"""The club manager's checks of what it is given: names, addresses, scores, a season's settings
(``SeasonSettings``), an evening's type. A bad value is a ``bad_input`` error saying why."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from burraco.tournament import EveningType
from burraco.tournament.season import SeasonSettings, SeasonSettingsError

from .errors import bad

NAME = re.compile(r"[^\s,;][^,;\n\r\t]{0,62}[^\s,;]|[^\s,;]")
"""A member's name: 1 to 64 characters, no commas or semicolons (lists on the command line)."""
EMAIL = re.compile(r"[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+")
MAX_SCORE = 20_000
"""No line scores more than this in one game (a typo guard)."""


def clean(text: str | None) -> str:
    return (text or "").strip()


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME.fullmatch(name):
        raise bad(
            f"a member's name has 1 to 64 characters and no commas or semicolons: {name!r}",
            "member_name",
            name=name,
        )
    return name


def check_email(email: str | None) -> str | None:
    email = clean(email)
    if not email:
        return None
    if len(email) > 254 or not EMAIL.fullmatch(email):
        raise bad(f"not an e-mail address: {email!r}", "email", email=email)
    return email


def check_score(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{what} must be a whole number", "score_whole")
    if abs(value) > MAX_SCORE:
        raise bad(
            f"{what} {value} is out of range (at most {MAX_SCORE} in absolute value)",
            "score_range",
            value=value,
            max=MAX_SCORE,
        )
    if value % 5:
        raise bad(
            f"{what} {value} is not a multiple of 5: Burraco scores always are",
            "score_multiple",
            value=value,
        )
    return value


def evening_type(value: str) -> EveningType:
    try:
        return EveningType(value.strip().lower())
    except ValueError:
        raise bad(f"an evening is internazionale or italiano, not {value!r}") from None


def season_settings(**values: Any) -> SeasonSettings:
    """A whole season's settings (those not given: the defaults)."""
    checked_settings(values)
    try:
        return SeasonSettings(**values)
    except SeasonSettingsError as error:
        raise bad(str(error), "season_setting", field=error.field) from None


def checked_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Some settings (a change) checked one by one, spelled as stored."""
    try:
        return SeasonSettings.checked(values)
    except SeasonSettingsError as error:
        raise bad(str(error), "season_setting", field=error.field) from None


def replaced_settings(settings: SeasonSettings, changes: Mapping[str, Any]) -> SeasonSettings:
    """``settings`` changed (the dates checked with the others')."""
    try:
        return settings.replace(**changes)
    except SeasonSettingsError as error:
        raise bad(str(error), "season_setting", field=error.field) from None


def suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""
