"""A season's settings (``SeasonSettings``): seed 003's defaults written once, a refusal naming
the field, the audit JSON of a new season and of a change exactly as it was written before the
settings had a type; the lifecycles stored as their strings; and the club parser built without
the store (``burraco --help`` stays fast)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from datetime import date, time

import pytest

from burraco.club.errors import ClubError
from burraco.club.service import Actor, ClubService
from burraco.store import Store
from burraco.store.club import CheckStatus, EveningStatus, PrizeKind
from burraco.tournament import Seating, TwoLeftOver
from burraco.tournament.season import SeasonSettings, SeasonSettingsError

ANNA = Actor.of_console("Anna")
START, END = date(2026, 9, 1), date(2026, 12, 31)


def settings(**values: object) -> SeasonSettings:
    return SeasonSettings(name="Autunno", starts_on=START, ends_on=END, **values)  # type: ignore[arg-type]


def test_the_defaults_are_seed_003s_club() -> None:
    s = settings()
    assert (s.weekday, s.checkin_opens, s.checkin_closes) == (4, time(20, 30), time(20, 45))
    assert (s.break_minutes, s.seating, s.two_left_over, s.vp_table) == (
        15,
        Seating.MITCHELL,
        TwoLeftOver.REST,
        "VP-3",
    )
    assert (s.monthly_fee_cents, s.season_prizes_cents, s.rules_note) == (0, (), "")


def test_values_are_spelled_as_stored() -> None:
    s = SeasonSettings(
        name="  Autunno   2026 ",
        starts_on=START,
        ends_on=END,
        seating="danish",  # type: ignore[arg-type]
        vp_table="vp-4",
        season_prizes_cents=[5],  # type: ignore[arg-type]
    )
    assert (s.name, s.seating, s.vp_table, s.season_prizes_cents) == (
        "Autunno 2026",
        Seating.DANISH,
        "VP-4",
        (5,),
    )
    assert settings(rules_note="x" * 5000).rules_note == "x" * 4000


@pytest.mark.parametrize(
    ("values", "field", "message"),
    [
        ({"weekday": 7}, "weekday", "the weekday is 0 (Monday) to 6 (Sunday)"),
        ({"break_minutes": 61}, "break_minutes", "the break lasts 0 to 60 minutes"),
        ({"seating": "swiss"}, "seating", "seating is mitchell or danish"),
        ({"two_left_over": "bye"}, "two_left_over", "two_left_over is rest or table"),
        ({"vp_table": "VP-9"}, "vp_table", "the VP table is VP-2, VP-3 or VP-4"),
        ({"pool_share_cents": -1}, "pool_share_cents", "pool_share_cents must be a whole"),
        ({"season_prizes_cents": [1, 2, 3, 4]}, "season_prizes_cents", "up to three amounts"),
        ({"ends_on": date(2026, 8, 1)}, "ends_on", "a season ends after it starts"),
        ({"ends_on": date(2027, 9, 10)}, "ends_on", "a season lasts at most a year"),
        ({"checkin_closes": time(20, 30)}, "checkin_closes", "check-in closes after it opens"),
        # Issue 19: a calendar counting weeks from year 9999 was a 500.
        (
            {"starts_on": date(9999, 11, 1), "ends_on": date(9999, 12, 31)},
            "starts_on",
            "a season's dates lie between 2000-01-01 and 2999-12-31",
        ),
        ({"name": " "}, "name", "a season's name has 1 to 80 characters"),
    ],
)
def test_a_bad_setting_is_refused_naming_its_field(
    values: dict[str, object], field: str, message: str
) -> None:
    base: dict[str, object] = {"name": "Autunno", "starts_on": START, "ends_on": END}
    with pytest.raises(SeasonSettingsError, match=re.escape(message)) as refused:
        SeasonSettings(**(base | values))  # type: ignore[arg-type]
    assert refused.value.field == field


def test_the_json_round_trip_is_the_stored_json() -> None:
    s = settings(seating="danish", season_prizes_cents=(5000, 3000), rules_note="Nota")
    stored = {
        "weekday": 4,
        "break_minutes": 15,
        "seating": "danish",
        "two_left_over": "rest",
        "vp_table": "VP-3",
        "monthly_fee_cents": 0,
        "pool_share_cents": 0,
        "weekly_prize_cents": 0,
        "season_prizes_cents": [5000, 3000],
        "rules_note": "Nota",
        "name": "Autunno",
        "starts_on": "2026-09-01",
        "ends_on": "2026-12-31",
        "checkin_opens": "20:30:00",
        "checkin_closes": "20:45:00",
    }
    assert s.to_json() == stored and list(s.to_json()) == list(stored)
    assert SeasonSettings.from_json(stored) == s
    with pytest.raises(SeasonSettingsError, match="unknown season setting"):
        SeasonSettings.from_json({**stored, "colour": "red"})


def test_the_audit_of_a_season_and_of_a_change(sqlite_url: str) -> None:
    async def run() -> None:
        store = await Store.open(sqlite_url)
        try:
            svc = ClubService(store)
            club = await svc.create_club(ANNA, "Circolo")
            season = await svc.create_season(
                ANNA, club.id, "Autunno", starts_on=START, ends_on=END, seating="danish"
            )
            await svc.update_season(
                ANNA, season.id, weekday=2, checkin_opens=time(20, 0), vp_table="vp-4"
            )
            with pytest.raises(ClubError, match="unknown season setting") as refused:
                await svc.update_season(ANNA, season.id, colour="red")
            assert refused.value.code == "bad_input"
            with pytest.raises(ClubError, match="a season ends after it starts"):
                await svc.update_season(ANNA, season.id, ends_on=date(2026, 8, 1))
            trail = await svc.audit_trail(ANNA, club.id, action_prefix="season.")
        finally:
            await store.close()
        create, update = trail
        assert create.after == settings(seating="danish").to_json()
        assert list(create.after) == list(settings().to_json())
        assert (update.before, update.after) == (
            {"weekday": 4, "checkin_opens": "20:30:00", "vp_table": "VP-3"},
            {"weekday": 2, "checkin_opens": "20:00:00", "vp_table": "VP-4"},
        )

    asyncio.run(run())


def test_the_lifecycles_are_their_stored_strings() -> None:
    assert [s.value for s in EveningStatus] == ["scheduled", "playing", "finished", "cancelled"]
    assert [s.value for s in CheckStatus] == ["open", "confirmed", "corrected"]
    assert [k.value for k in PrizeKind] == ["weekly", "season"]
    assert EveningStatus.PLAYING.drawn and EveningStatus.FINISHED.drawn
    assert not EveningStatus.SCHEDULED.drawn and not EveningStatus.CANCELLED.drawn
    assert f"{EveningStatus.CANCELLED}" == "cancelled"


def test_the_club_parser_is_built_without_the_store() -> None:
    """A real process: a clean ``sys.modules``."""
    code = (
        "import argparse, sys\n"
        "import burraco.cli.club as club\n"
        "club.add_parser(argparse.ArgumentParser().add_subparsers())\n"
        "heavy = ('sqlalchemy', 'burraco.store', 'burraco.club.service')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
