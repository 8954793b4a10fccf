"""Recurring online events (issue 16): "every day at 21:00, a Danish tournament with these
settings". Pure: the time is passed in; the server creates each event ``lead`` before it starts.
Times are the organiser's wall clock in his time zone (``zone``), so an event stays at 21:00
across the change to and from summer time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .settings import TournamentSettingsError


@dataclass(frozen=True, kw_only=True)
class Recurrence:
    weekdays: tuple[int, ...] = ()
    """0 Monday ... 6 Sunday; empty: every day."""
    at: time = time(21, 0)
    """The start, on the organiser's clock (no time zone of its own)."""
    zone: str = "Europe/Rome"
    lead: timedelta = timedelta(hours=24)
    """How long before its start each event is created (and open for registration)."""

    def __post_init__(self) -> None:
        if any(not 0 <= d <= 6 for d in self.weekdays) or len(set(self.weekdays)) != len(
            self.weekdays
        ):
            raise TournamentSettingsError(
                "weekdays", "weekdays are distinct numbers from 0 (Monday) to 6"
            )
        if self.at.tzinfo is not None:
            raise TournamentSettingsError("at", "the time is the organiser's clock: no time zone")
        try:
            ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise TournamentSettingsError("zone", f"unknown time zone {self.zone!r}") from None
        if not timedelta(minutes=10) <= self.lead <= timedelta(days=7):
            raise TournamentSettingsError("lead", "an event is created 10 minutes to 7 days ahead")

    def starts_between(self, after: datetime, until: datetime) -> list[datetime]:
        """The starts (UTC) with ``after < start <= until``."""
        zone = ZoneInfo(self.zone)
        day = after.astimezone(zone).date()
        last = until.astimezone(zone).date()
        out: list[datetime] = []
        while day <= last:
            if not self.weekdays or day.weekday() in self.weekdays:
                start = datetime.combine(day, self.at, zone).astimezone(UTC)
                if after < start <= until:
                    out.append(start)
            day += timedelta(days=1)
        return out
