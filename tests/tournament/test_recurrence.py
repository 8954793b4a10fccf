"""Recurring events (issue 16): the starts of a schedule between two moments, on the
organiser's wall clock across summer time; bad schedules refused with a reason."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from burraco.tournament.recurrence import Recurrence
from burraco.tournament.settings import TournamentSettingsError


def test_every_day_at_21_on_the_organisers_clock() -> None:
    every_day = Recurrence(at=time(21, 0), zone="Europe/Rome")
    after = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    starts = every_day.starts_between(after, after + timedelta(days=3))
    # 21:00 in Rome is 19:00 UTC in summer and 20:00 UTC after 25 October (CET).
    assert starts == [
        datetime(2026, 10, 23, 19, 0, tzinfo=UTC),
        datetime(2026, 10, 24, 19, 0, tzinfo=UTC),
        datetime(2026, 10, 25, 20, 0, tzinfo=UTC),
    ]
    # Half open: a start equal to ``after`` is not repeated.
    assert every_day.starts_between(starts[0], starts[0]) == []


def test_chosen_weekdays_only() -> None:
    fridays = Recurrence(weekdays=(4,), at=time(20, 30), zone="Europe/Rome")
    monday = datetime(2026, 12, 7, 0, 0, tzinfo=UTC)
    starts = fridays.starts_between(monday, monday + timedelta(days=14))
    assert [s.weekday() for s in starts] == [4, 4]
    assert starts[0] == datetime(2026, 12, 11, 19, 30, tzinfo=UTC)


def test_bad_schedules_say_what_is_wrong() -> None:
    with pytest.raises(TournamentSettingsError, match="weekdays"):
        Recurrence(weekdays=(7,))
    with pytest.raises(TournamentSettingsError, match="time zone"):
        Recurrence(zone="Mars/Olympus")
    with pytest.raises(TournamentSettingsError, match="ahead"):
        Recurrence(lead=timedelta(days=30))
