"""The club's store on SQLite and PostgreSQL: a transaction that raises leaves nothing behind,
times keep their instant whatever the zone they were given in, and two officers entering
results of one evening at the same moment are served one after the other (one result per
table, the next game drawn once)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from burraco.club.errors import ClubError
from burraco.club.service import Actor, ClubService, ResultInput
from burraco.store import ClubStore, Store

ROME = ZoneInfo("Europe/Rome")
ANNA = Actor.of_console("Anna")
DAY = date(2026, 9, 4)
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]


@asynccontextmanager
async def service(url: str) -> AsyncIterator[ClubService]:
    store = await Store.open(url)
    try:
        yield ClubService(store)
    finally:
        await store.close()


async def drawn_evening(svc: ClubService) -> int:
    club = await svc.create_club(ANNA, "Circolo")
    for name in PLAYERS:
        await svc.add_member(ANNA, club.id, name, officer=name == "Anna")
    season = await svc.create_season(
        ANNA, club.id, "Autunno", starts_on=date(2026, 9, 1), ends_on=date(2026, 12, 31)
    )
    evening = (await svc.create_calendar(ANNA, season.id, count=2))[0]
    await svc.checkins(ANNA, evening.id, PLAYERS, at=datetime.combine(DAY, time(20, 31), ROME))
    await svc.draw(ANNA, evening.id, seed=9, at=datetime.combine(DAY, time(20, 45), ROME))
    return evening.id


def test_a_transaction_that_raises_changes_nothing(db_url: str) -> None:
    async def run() -> None:
        async with service(db_url) as svc:
            with pytest.raises(RuntimeError):
                async with ClubStore(svc.db.store).write() as tx:
                    await tx.create_club("Circolo", timezone="Europe/Rome")
                    raise RuntimeError("half way")
            assert await svc.clubs() == []
            # a refused change after writes in its own transaction: a calendar with a clash
            evening_id = await drawn_evening(svc)
            season_id = (await svc.evening(None, evening_id)).season.id
            before = await svc.evenings(None, season_id)
            with pytest.raises(ClubError, match="already an evening on 2026-09-11"):
                await svc.create_calendar(ANNA, season_id, first=date(2026, 9, 11), count=3)
            assert await svc.evenings(None, season_id) == before

    asyncio.run(run())


def test_times_keep_their_instant(db_url: str) -> None:
    async def run() -> None:
        async with service(db_url) as svc:
            evening_id = await drawn_evening(svc)
            view = await svc.evening(None, evening_id)
            assert {c.at for c in view.checkins} == {datetime(2026, 9, 4, 18, 31, tzinfo=UTC)}
            assert all(f"{c.at:%H:%M}" == "20:31" for c in view.checkins)  # the club's zone
            assert view.evening.drawn_at == datetime(2026, 9, 4, 18, 45, tzinfo=UTC)
            state = await svc.start_game(
                ANNA, evening_id, 1, at=datetime.combine(DAY, time(20, 50), ROME)
            )
            assert state.ends_at == datetime(2026, 9, 4, 19, 40, tzinfo=UTC)
            later = await svc.timer(evening_id, now=datetime(2026, 9, 4, 19, 0, tzinfo=UTC))
            assert (later.phase.value, later.seconds_left) == ("playing", 40 * 60)

    asyncio.run(run())


def test_two_officers_at_once_are_served_one_after_the_other(db_url: str) -> None:
    async def run() -> None:
        async with service(db_url) as svc:
            evening_id = await drawn_evening(svc)
            # the same table twice at once: one result stored, the other refused
            outcomes = await asyncio.gather(
                svc.enter_result(ANNA, evening_id, 1, 1, ns=500, ew=100),
                svc.enter_result(ANNA, evening_id, 1, 1, ns=100, ew=500),
                return_exceptions=True,
            )
            errors = [o for o in outcomes if isinstance(o, ClubError)]
            assert len(errors) == 1 and errors[0].code == "conflict"
            # the last table of game 1 and a repeat of it at once: game 2 is drawn once
            outcomes = await asyncio.gather(
                svc.enter_results(ANNA, evening_id, 1, [ResultInput(2, 300, 300)]),
                svc.enter_results(ANNA, evening_id, 1, [ResultInput(2, 300, 305)]),
                return_exceptions=True,
            )
            assert sum(isinstance(o, ClubError) for o in outcomes) == 1
            view = await svc.evening(None, evening_id)
            assert [g.number for g in view.games] == [1, 2]
            assert view.complete_games == 1

    asyncio.run(run())


@pytest.mark.parametrize(
    "case",
    [
        (9, "danish", "rest", [4, 4], 1),  # Italiano: 4 games, 4 different names rest
        (10, "mitchell", "table", [4, 4, 2], 0),  # two play a 2-player table, nobody rests
        (10, "danish", "rest", [4, 4], 2),
    ],
)
def test_danish_seating_and_two_left_over(
    sqlite_url: str, case: tuple[int, str, str, list[int], int]
) -> None:
    players, seating, two_left_over, tables, rests = case
    names = [f"Player {i:02d}" for i in range(1, players + 1)]

    async def run() -> None:
        async with service(sqlite_url) as svc:
            club = await svc.create_club(ANNA, "Circolo")
            await svc.add_member(ANNA, club.id, "Anna", officer=True)
            for name in names:
                await svc.add_member(ANNA, club.id, name)
            season = await svc.create_season(
                ANNA,
                club.id,
                "Autunno",
                starts_on=date(2026, 9, 1),
                ends_on=date(2026, 12, 31),
                seating=seating,
                two_left_over=two_left_over,
            )
            evening = (await svc.create_calendar(ANNA, season.id, italiano=[1], count=2))[0]
            await svc.checkins(
                ANNA, evening.id, names, at=datetime.combine(DAY, time(20, 40), ROME)
            )
            await svc.draw(ANNA, evening.id, seed=4, at=datetime.combine(DAY, time(20, 45), ROME))
            view = await svc.evening(None, evening.id)
            for g in range(1, 5):
                game = view.game(g)
                assert sorted(len(t.lines[0]) * 2 for t in game.tables) == sorted(tables)
                assert len(game.rests) == rests
                view = await svc.enter_results(
                    ANNA,
                    evening.id,
                    g,
                    [ResultInput(t.number, 100 * t.number, 50 * g) for t in game.tables],
                )
            assert view.finished and len(view.ranking.rows) == players
            resting = [r for g in view.games for r in g.rests]
            assert len(resting) == len(set(resting)) == 4 * rests  # nobody rests twice
            twos = [
                p
                for g in view.games
                for t in g.tables
                if len(t.lines[0]) == 1
                for p in t.lines[0] + t.lines[1]
            ]
            assert len(twos) == len(set(twos)) == (8 if two_left_over == "table" else 0)

    asyncio.run(run())


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("С1", "club_name_scripts"),  # a Cyrillic С: reads as the Latin C1 (issue 19, M9)
        ("Ｃ1", "club_exists"),  # full width: NFKC makes it C1
        ("C\u200b1", "club_name_marks"),  # a zero-width space
        ("Circolo Сentrale", "club_name_scripts"),  # a Cyrillic С among Latin letters
        ("Сара", "club_name_scripts"),  # all Cyrillic, reads as the Latin Capa
        ("CI", "club_exists"),  # a capital i for the 1
        ("c1", "club_exists"),  # another case
    ],
)
def test_a_club_name_that_reads_like_another_is_refused(
    sqlite_url: str, name: str, detail: str
) -> None:
    async def run() -> None:
        async with service(sqlite_url) as svc:
            await svc.create_club(ANNA, "C1")
            with pytest.raises(ClubError) as refused:
                await svc.create_club(ANNA, name)
            assert refused.value.detail == detail, refused.value
            assert [c.name for c in await svc.clubs()] == ["C1"]
            assert (await svc.create_club(ANNA, "Ć1")).name == "Ć1"  # an accent shows

    asyncio.run(run())


def test_a_platform_account_founds_clubs_only_while_it_runs_few(sqlite_url: str) -> None:
    """One account founded 25 clubs (issue 19, the black-box re-test): past MAX_CLUBS_RUN
    clubs it is an officer of, founding another is refused; the console is not limited."""
    from burraco.club.clubs import MAX_CLUBS_RUN

    async def run() -> None:
        store = await Store.open(sqlite_url)
        try:
            svc = ClubService(store)
            user = await store.create_user("founder", None)
            founder = Actor("founder", user.id)
            for number in range(MAX_CLUBS_RUN):
                await svc.create_club(founder, f"Circolo {number}")
            with pytest.raises(ClubError) as refused:
                await svc.create_club(founder, "Circolo in più")
            assert refused.value.detail == "too_many_clubs", refused.value
            assert len(await svc.clubs()) == MAX_CLUBS_RUN
            await svc.create_club(ANNA, "Circolo della console")
        finally:
            await store.close()

    asyncio.run(run())


def test_a_calendar_from_a_first_evening_past_any_date_is_refused(sqlite_url: str) -> None:
    """Weeks were counted from ``first`` before it was checked against the season: from a
    date near year 9999 that overflowed (a 500, issue 19). It is refused first, as any date
    outside the season."""

    async def run() -> None:
        async with service(sqlite_url) as svc:
            club = await svc.create_club(ANNA, "Circolo")
            season = await svc.create_season(
                ANNA, club.id, "Autunno", starts_on=date(2026, 9, 1), ends_on=date(2026, 12, 31)
            )
            with pytest.raises(ClubError) as refused:
                await svc.create_calendar(ANNA, season.id, first=date(9999, 12, 30), count=60)
            assert refused.value.detail == "date_outside_season", refused.value

    asyncio.run(run())
