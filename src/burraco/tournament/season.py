"""Seasons (RULES.md T26, T28, T30): a season's settings, and its standings (the sum of the
evenings' ranking points, the weekly prize for the best evening, the prizes for the top 3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, time
from typing import Any, Final

from burraco.engine.errors import RulesError

from .club import EveningRanking, Seating, TwoLeftOver
from .entrants import EntrantId
from .scoring import choose_vp_table
from .standings import ranked

PRIZE_PLACES = 3
"""T28: season prizes go to the first three."""


@dataclass(frozen=True, slots=True)
class SeasonRow:
    place: int
    player: EntrantId
    points: int
    evenings: int
    """Evenings played."""
    weekly_prizes: int
    """Evenings won outright or ex aequo (the weekly prizes add up, seed 003)."""


@dataclass(frozen=True, slots=True)
class Season:
    """The evenings of one tournament of the season, in calendar order."""

    evenings: tuple[EveningRanking, ...] = ()

    def add(self, evening: EveningRanking) -> Season:
        return Season((*self.evenings, evening))

    @property
    def weekly_best(self) -> tuple[tuple[EntrantId, ...], ...]:
        """Each evening's best score (highest VP, ties by MP; still tied: shared)."""
        return tuple(e.best for e in self.evenings)

    def standings(self) -> tuple[SeasonRow, ...]:
        """Sum of the ranking points; equal points share the place ("1-2-2-4"), listed by id."""
        points: dict[EntrantId, int] = {}
        played: dict[EntrantId, int] = {}
        wins: dict[EntrantId, int] = {}
        for evening in self.evenings:
            for row in evening.rows:
                points[row.player] = points.get(row.player, 0) + row.points
                played[row.player] = played.get(row.player, 0) + 1
            for p in evening.best:
                wins[p] = wins.get(p, 0) + 1
        return tuple(
            SeasonRow(place, p, points[p], played[p], wins.get(p, 0))
            for place, p in ranked(sorted(points), key=lambda p: (points[p],))
        )

    def prizes(self, places: int = PRIZE_PLACES) -> tuple[SeasonRow, ...]:
        """T28: the rows whose place is within the first ``places`` (ties may make more)."""
        return tuple(r for r in self.standings() if r.place <= places)

    def standings_after(self, evenings: int) -> Sequence[SeasonRow]:
        """The partial standings after the first ``evenings`` evenings (for the e-mails and the
        chart of the season)."""
        return Season(self.evenings[:evenings]).standings()


# ------------------------------------------------------------------------------ settings

MAX_NAME: Final = 80
MAX_RULES_NOTE: Final = 4000
MAX_BREAK_MINUTES: Final = 60
MAX_DAYS: Final = 366
"""A season lasts at most a year."""


class SeasonSettingsError(ValueError):
    """A season setting out of range; ``field`` names it (the message says what is allowed)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonSettings:
    """What the officers set for a season (the defaults are seed 003's club). Validated when
    built, raising ``SeasonSettingsError`` naming the field; the values given are spelled as
    stored first (spaces of the name collapsed, the seating and leftover rule as enums, the VP
    table by its name, the prizes a tuple, the rules note cut to 4000 characters)."""

    name: str
    starts_on: date
    ends_on: date
    weekday: int = 4
    """0 Monday ... 6 Sunday: Friday."""
    checkin_opens: time = time(20, 30)
    """T30: check-in from 20:30 to 20:45."""
    checkin_closes: time = time(20, 45)
    break_minutes: int = 15
    """The break after the second game."""
    seating: Seating = Seating.MITCHELL
    two_left_over: TwoLeftOver = TwoLeftOver.REST
    vp_table: str = "VP-3"
    monthly_fee_cents: int = 0
    pool_share_cents: int = 0
    """Of each monthly fee, what goes to the prize pool."""
    weekly_prize_cents: int = 0
    season_prizes_cents: tuple[int, ...] = ()
    """The prizes of places 1, 2, 3 (T28)."""
    rules_note: str = ""
    """The club's own words added to the rules."""

    def __post_init__(self) -> None:
        for name, value in self.checked(self.values(self.field_names())).items():
            object.__setattr__(self, name, value)  # the stored spelling (frozen dataclass)
        _check_dates(self)

    @classmethod
    def checked(cls, values: Mapping[str, Any]) -> dict[str, Any]:
        """Some settings (a change) checked one by one and spelled as stored, in the order
        given; the dates are checked with the others' (``replace``)."""
        _check_names(values)
        checked = {k: values[k] for k in values}
        for key, check in FIELD_CHECKS.items():
            if key in checked:
                checked[key] = check(checked[key])
        return checked

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    def replace(self, **changes: Any) -> SeasonSettings:
        """A copy with some settings changed (validated as a whole)."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def values(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """The settings as stored (plain strings, a tuple of prizes): all of them in the order of
        the stored JSON, or ``names`` in their order."""
        keys = JSON_ORDER if names is None else tuple(names)
        return {k: _plain(getattr(self, k)) for k in keys}

    def to_json(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """As the audit trail stores it: dates and times in ISO format, the prizes a list."""
        return {k: _json(v) for k, v in self.values(names).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeasonSettings:
        """The settings of ``to_json`` (ISO dates and times parsed); a missing one is its
        default."""
        _check_names(data)
        values = dict(data)
        for key in ("starts_on", "ends_on"):
            if isinstance(values.get(key), str):
                values[key] = date.fromisoformat(values[key])
        for key in ("checkin_opens", "checkin_closes"):
            if isinstance(values.get(key), str):
                values[key] = time.fromisoformat(values[key])
        return cls(**values)


JSON_ORDER: Final = (
    "weekday",
    "break_minutes",
    "seating",
    "two_left_over",
    "vp_table",
    "monthly_fee_cents",
    "pool_share_cents",
    "weekly_prize_cents",
    "season_prizes_cents",
    "rules_note",
    "name",
    "starts_on",
    "ends_on",
    "checkin_opens",
    "checkin_closes",
)
"""The order of the keys in the audit entry of a new season (``season.create``), kept as it
was written before the settings had a type."""

CENTS: Final = ("monthly_fee_cents", "pool_share_cents", "weekly_prize_cents")
PRIZES_MESSAGE: Final = "season prizes: up to three amounts (1st, 2nd, 3rd), at least 0"


def _check_names(values: Mapping[str, Any]) -> None:
    unknown = sorted(set(values) - set(SeasonSettings.field_names()))
    if unknown:
        raise SeasonSettingsError(unknown[0], f"unknown season setting(s): {', '.join(unknown)}")


def _plain(value: Any) -> Any:
    if isinstance(value, Seating | TwoLeftOver):
        return value.value
    return value


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, date | time):
        return value.isoformat()
    return value


def _name(value: Any) -> str:
    name = " ".join(str(value).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise SeasonSettingsError("name", f"a season's name has 1 to {MAX_NAME} characters")
    return name


def _seating(value: Any) -> Seating:
    try:
        return Seating(value)
    except ValueError:
        raise SeasonSettingsError("seating", "seating is mitchell or danish") from None


def _two_left_over(value: Any) -> TwoLeftOver:
    try:
        return TwoLeftOver(value)
    except ValueError:
        raise SeasonSettingsError("two_left_over", "two_left_over is rest or table") from None


def _vp_table(value: Any) -> str:
    try:
        return choose_vp_table(value).name
    except (RulesError, TypeError, ValueError):
        raise SeasonSettingsError("vp_table", "the VP table is VP-2, VP-3 or VP-4") from None


def _cents(field: str) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if not isinstance(value, int) or value < 0:
            raise SeasonSettingsError(field, f"{field} must be a whole number of cents, at least 0")
        return value

    return check


def _prizes(value: Any) -> tuple[int, ...]:
    try:
        prizes = tuple(value)
    except TypeError:
        raise SeasonSettingsError("season_prizes_cents", PRIZES_MESSAGE) from None
    if len(prizes) > PRIZE_PLACES or any(not isinstance(p, int) or p < 0 for p in prizes):
        raise SeasonSettingsError("season_prizes_cents", PRIZES_MESSAGE)
    return prizes


def _weekday(value: Any) -> int:
    if not (isinstance(value, int) and 0 <= value <= 6):
        raise SeasonSettingsError("weekday", "the weekday is 0 (Monday) to 6 (Sunday)")
    return value


def _break(value: Any) -> int:
    if not (isinstance(value, int) and 0 <= value <= MAX_BREAK_MINUTES):
        raise SeasonSettingsError(
            "break_minutes", f"the break lasts 0 to {MAX_BREAK_MINUTES} minutes"
        )
    return value


def _rules_note(value: Any) -> str:
    return str(value or "")[:MAX_RULES_NOTE]


FIELD_CHECKS: Final[dict[str, Callable[[Any], Any]]] = {
    "name": _name,
    "seating": _seating,
    "two_left_over": _two_left_over,
    "vp_table": _vp_table,
    **{key: _cents(key) for key in CENTS},
    "season_prizes_cents": _prizes,
    "weekday": _weekday,
    "break_minutes": _break,
    "rules_note": _rules_note,
}
"""Each setting's own check, giving its stored spelling, in the order the checks were always
made (a request with two bad settings is refused for the same one). The dates and times are
checked together (``_check_dates``)."""


FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)
"""The dates a season may have: a club's calendar counts weeks from them, and a date near the
end of Python's calendar (year 9999) left no room for that (issue 19: a 500)."""


def _check_dates(s: SeasonSettings) -> None:
    for key, day in (("starts_on", s.starts_on), ("ends_on", s.ends_on)):
        if not FIRST_DAY <= day <= LAST_DAY:
            raise SeasonSettingsError(
                key, f"a season's dates lie between {FIRST_DAY} and {LAST_DAY}"
            )
    if s.ends_on < s.starts_on:
        raise SeasonSettingsError("ends_on", "a season ends after it starts")
    if (s.ends_on - s.starts_on).days > MAX_DAYS:
        raise SeasonSettingsError("ends_on", "a season lasts at most a year")
    if s.checkin_closes <= s.checkin_opens:
        raise SeasonSettingsError("checkin_closes", "check-in closes after it opens")
