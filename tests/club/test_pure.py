"""The pure parts of the club manager: the calendar plan and timetable, the .ics text (parsed
back with icalendar), the room's timer, fees arithmetic and amounts."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest

from burraco.club import fees
from burraco.club.calendar import IcsEvent, evening_times, ics, plan
from burraco.club.errors import ClubError
from burraco.club.timer import Phase, timer_state
from burraco.tournament import EveningType

ROME = ZoneInfo("Europe/Rome")


def test_the_plan_skips_holidays_and_keeps_fridays() -> None:
    evenings = plan(date(2026, 12, 1), 4, skip=[date(2026, 12, 25)], italiano=[2])
    assert [e.date for e in evenings] == [
        date(2026, 12, 4),
        date(2026, 12, 11),
        date(2026, 12, 18),
        date(2027, 1, 1),
    ]
    assert [e.type.value for e in evenings] == ["internazionale", "italiano"] + [
        "internazionale"
    ] * 2
    with pytest.raises(ClubError, match="numbered 1 to 4"):
        plan(date(2026, 12, 1), 4, italiano=[5])


def test_the_timetable_of_an_evening() -> None:
    day = date(2026, 9, 4)
    inter = evening_times(
        day, ROME, opens=time(20, 30), closes=time(20, 45), type=EveningType.INTERNAZIONALE
    )
    assert [(f"{a:%H:%M}", f"{b:%H:%M}") for a, b in inter.games] == [
        ("20:45", "21:35"),
        ("21:35", "22:25"),
        ("22:40", "23:30"),  # after the 15-minute break
    ]
    shorter = evening_times(
        day,
        ROME,
        opens=time(20, 30),
        closes=time(20, 45),
        type=EveningType.ITALIANO,
        one_game_fewer=True,
    )
    assert len(shorter.games) == 3 and f"{shorter.end:%H:%M}" == "22:45"
    two = evening_times(
        day,
        ROME,
        opens=time(20, 30),
        closes=time(20, 45),
        type=EveningType.INTERNAZIONALE,
        one_game_fewer=True,
    )
    assert two.break_ is None and f"{two.end:%H:%M}" == "22:25"  # no break without a third game


def test_ics_text_is_escaped_folded_and_parses_back() -> None:
    start = datetime(2026, 9, 4, 20, 30, tzinfo=ROME)
    summary = "Circolo; del Venerdì, serata 1 \\ Burraco " + "è" * 60
    text = ics(
        "Circolo, Autunno",
        [
            IcsEvent("a@x", start, start + timedelta(hours=3), summary, "riga 1\nriga 2", "Sala"),
            IcsEvent("b@x", start, start + timedelta(hours=1), "annullata", cancelled=True),
        ],
        stamp=datetime(2026, 8, 1, tzinfo=UTC),
    )
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert text.endswith("END:VCALENDAR\r\n")
    events = list(icalendar.Calendar.from_ical(text).walk("VEVENT"))
    assert str(events[0]["SUMMARY"]) == summary
    assert str(events[0]["DESCRIPTION"]) == "riga 1\nriga 2"
    assert events[0].decoded("DTSTART") == datetime(2026, 9, 4, 18, 30, tzinfo=UTC)
    assert str(events[1]["STATUS"]) == "CANCELLED"


def test_the_room_timer() -> None:
    start = datetime(2026, 9, 4, 20, 45, tzinfo=UTC)
    args = {"games": 3, "minutes": 50, "break_minutes": 15}
    assert timer_state(**args, started={}, now=start).phase is Phase.WAITING
    playing = timer_state(**args, started={1: start}, now=start + timedelta(minutes=10))
    assert (playing.phase, playing.game, playing.seconds_left) == (Phase.PLAYING, 1, 40 * 60)
    over = timer_state(**args, started={1: start}, now=start + timedelta(minutes=51))
    assert over.phase is Phase.OVER
    second = start + timedelta(minutes=50)
    pause = timer_state(**args, started={1: start, 2: second}, now=second + timedelta(minutes=55))
    assert (pause.phase, pause.game, pause.seconds_left) == (Phase.BREAK, 2, 10 * 60)
    third = second + timedelta(minutes=65)
    done = timer_state(
        **args, started={1: start, 2: second, 3: third}, now=third + timedelta(minutes=50)
    )
    assert done.phase is Phase.FINISHED


def test_fees_follow_the_months_played() -> None:
    days = [date(2026, 9, 11), date(2026, 9, 25), date(2026, 10, 30)]
    assert [(f.period, f.due_on) for f in fees.monthly_fees(days, 2000)] == [
        ("2026-09", date(2026, 9, 11)),
        ("2026-10", date(2026, 10, 30)),
    ]
    account = fees.accounts(
        {"Bruno": days},
        {"Bruno": [fees.Adjustment(date(2026, 10, 30), -500, "waiver")]},
        {"Bruno": [fees.Payment(date(2026, 9, 11), 2000, "")]},
        2000,
    )[0]
    assert (account.owed_cents, account.paid_cents, account.balance_cents) == (3500, 2000, 1500)
    assert account.due_by(date(2026, 10, 1)) == 0 and account.due_by(date(2026, 10, 30)) == 1500


@pytest.mark.parametrize(
    ("text", "cents"), [("20", 2000), ("12,5", 1250), ("€ 3.05", 305), ("-10", -1000)]
)
def test_amounts_in_euros(text: str, cents: int) -> None:
    assert fees.parse_euros(text) == cents
    assert fees.parse_euros(fees.euros(cents)) == cents


@pytest.mark.parametrize("text", ["", "12.345", "dodici", "1.2.3"])
def test_bad_amounts(text: str) -> None:
    with pytest.raises(ClubError, match="not an amount of euros"):
        fees.parse_euros(text)


def test_csv_cells_that_look_like_formulas_are_quoted() -> None:
    from burraco.club.export import _csv

    text = _csv(["name", "mp"], [["=HYPERLINK(1)", -120], ["@cmd", "-35"], ["Anna", 10]])
    assert text.splitlines() == ["name,mp", "'=HYPERLINK(1),-120", "'@cmd,-35", "Anna,10"]
