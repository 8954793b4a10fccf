"""The tournament rows on both backends: a tournament, its entrants in registration order, a
round with its tables, the server table each is played on, results, and the changes of status
(with the entrants' in the same transaction)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from burraco.ratings import Mode, outcome_of
from burraco.store import (
    EntrantTaken,
    PlayerMatchRow,
    ProfileStore,
    RatingStore,
    Store,
    TournamentStore,
)

from .same_cards import round_in_play

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def test_a_tournament_from_registration_to_results(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            tournaments = TournamentStore(store)
            organiser = await store.create_user("Organiser", None, guest=True)
            anna = await store.create_user("Anna", None, guest=True)
            await tournaments.create(
                "t1",
                name="Venerdì",
                created_by=organiser.id,
                start="scheduled",
                starts_at=NOW + timedelta(hours=1),
                size=None,
                settings={"system": "danish", "rounds": 3},
                seed=2**61 + 7,
                now=NOW,
            )
            await tournaments.create(
                "t2",
                name="Sit&Go",
                created_by=None,
                start="sitgo",
                starts_at=None,
                size=4,
                settings={},
                seed=1,
                now=NOW + timedelta(seconds=1),
            )
            await tournaments.add_entrant(
                "t1", f"u{anna.id}", user_id=anna.id, bot=None, name="Anna", now=NOW
            )
            with pytest.raises(EntrantTaken):
                await tournaments.add_entrant(
                    "t1", f"u{anna.id}", user_id=anna.id, bot=None, name="Anna", now=NOW
                )
            for n in (1, 2, 3):
                await tournaments.add_entrant(
                    "t1", f"b{n}", user_id=None, bot="greedy", name=f"greedy {n}", now=NOW
                )
            # A pair: its second player cannot register again, alone or in another pair.
            bruno = await store.create_user("Bruno", None, guest=True)
            carla = await store.create_user("Carla", None, guest=True)
            await tournaments.add_entrant(
                "t2",
                f"u{bruno.id}",
                user_id=bruno.id,
                partner_id=carla.id,
                bot=None,
                name="Bruno & Carla",
                now=NOW,
            )
            with pytest.raises(EntrantTaken):
                await tournaments.add_entrant(
                    "t2", f"u{carla.id}", user_id=carla.id, bot=None, name="Carla", now=NOW
                )
            # (Carla plays in Bruno's pair in t2, and in nothing in t1.)
            in_t1 = (await tournaments.load("t1")).entrants  # type: ignore[union-attr]
            in_t2 = (await tournaments.load("t2")).entrants  # type: ignore[union-attr]
            assert [e.entrant for e in in_t2 if carla.id in e.users] == [f"u{bruno.id}"]
            assert [e.entrant for e in in_t1 if carla.id in e.users] == []
            pair = in_t2[0]
            assert pair.users == (bruno.id, carla.id) and pair.name == "Bruno & Carla"
            assert await tournaments.remove_entrant("t1", "b3")
            assert not await tournaments.remove_entrant("t1", "b3")
            await tournaments.add_entrant(
                "t1", "b4", user_id=None, bot="greedy", name="greedy 4", now=NOW
            )
            assert await tournaments.entrant_counts(["t1", "t2"]) == {"t1": 4, "t2": 1}
            listed = await tournaments.tournaments(["registering"])
            assert [t.id for t in listed] == ["t1", "t2"]
            assert listed[0].starts_at == NOW + timedelta(hours=1) and listed[0].seed == 2**61 + 7

            ids = [f"u{anna.id}", "b1", "b2", "b4"]
            await tournaments.set_status(
                "t1", "running", started_at=NOW, entrants=dict.fromkeys(ids, "playing")
            )
            await tournaments.add_round(
                "t1",
                1,
                byes=[],
                relaxed=False,
                slots=None,
                tables=[(1, ((ids[0],), (ids[1],))), (2, ((ids[2],), (ids[3],)))],
                now=NOW,
            )
            await store.create_table(
                "table-1",
                created_by=None,
                config={"tournament": "t1"},
                public=False,
                invite_code=None,
                players=2,
            )
            await tournaments.set_table("t1", 1, 1, table_id="table-1")
            assert await tournaments.table_owner("table-1") == ("t1", 1, 1)
            assert await tournaments.table_owner("table-2") is None
            assert await tournaments.finished_match("table-1") is None
            await store.log_match(
                "table-1",
                1,
                players=["Anna", "greedy 1"],
                totals=[1185, 390],
                winner=0,
                ended="complete",
                record="[meta]",
            )
            finished = await tournaments.finished_match("table-1")
            assert finished is not None and finished.totals == (1185, 390)
            result = {"totals": [1185, 390], "mp": [795, -795], "vp": [16, 4], "timed_out": None}
            await tournaments.set_result("t1", 1, 1, result)
            await tournaments.finish_round("t1", 1, NOW + timedelta(minutes=30))

            data = await tournaments.load("t1")
            assert data is not None
            assert data.info.status == "running" and data.info.started_at == NOW
            assert [(e.entrant, e.position, e.status) for e in data.entrants] == [
                (ids[0], 1, "playing"),
                ("b1", 2, "playing"),
                ("b2", 3, "playing"),
                ("b4", 4, "playing"),  # after the latest registrant
            ]
            (round1,) = data.rounds
            assert round1.status == "finished" and round1.byes == ()
            one, two = data.tables
            assert one.lines == ((ids[0],), ("b1",)) and one.table_id == "table-1"
            assert one.result == result and two.result is None and two.table_id is None
            assert await tournaments.load("nope") is None

            await tournaments.set_status(
                "t2", "cancelled", finished_at=NOW, note="fewer than 4 players registered"
            )
            (cancelled,) = await tournaments.tournaments(["cancelled"])
            assert cancelled.id == "t2" and cancelled.note == "fewer than 4 players registered"
        finally:
            await store.close()

    asyncio.run(scenario())


def test_an_invited_pair_is_listed_for_its_partner_and_queued_at_its_confirmation(
    db_url: str,
) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            tournaments = TournamentStore(store)
            dora = await store.create_user("Dora", None, guest=True)
            ezio = await store.create_user("Ezio", None, guest=True)
            for tid, start in (("p1", "sitgo"), ("p2", "sitgo")):
                await tournaments.create(
                    tid,
                    name=f"Coppie {tid}",
                    created_by=None,
                    start=start,
                    starts_at=None,
                    size=8,
                    settings={"kind": "pairs"},
                    seed=1,
                    now=NOW,
                )

            async def invite(tid: str) -> None:
                await tournaments.add_entrant(
                    tid,
                    f"u{dora.id}",
                    user_id=dora.id,
                    partner_id=ezio.id,
                    bot=None,
                    name="Dora & Ezio",
                    now=NOW,
                    status="invited",
                )

            await invite("p1")
            await tournaments.add_entrant(
                "p1", "b1", user_id=None, bot="greedy", name="greedy 1", now=NOW
            )
            assert await tournaments.invitations(ezio.id) == [
                ("p1", "Coppie p1", "Dora & Ezio", "Dora")
            ]
            assert await tournaments.invitations(dora.id) == []  # only the partner is asked
            assert await tournaments.entrant_counts(["p1"]) == {"p1": 1}  # the bot only
            later = NOW + timedelta(minutes=5)
            assert await tournaments.confirm_entrant("p1", f"u{dora.id}", now=later)
            assert not await tournaments.confirm_entrant("p1", f"u{dora.id}", now=later)
            assert not await tournaments.confirm_entrant("p1", "b1", now=later)  # not invited
            data = await tournaments.load("p1")
            assert data is not None
            pair = next(e for e in data.entrants if e.entrant == f"u{dora.id}")
            assert (pair.status, pair.position, pair.registered_at) == ("registered", 3, later)
            assert await tournaments.invitations(ezio.id) == []
            assert await tournaments.entrant_counts(["p1"]) == {"p1": 2}
            # A tournament no longer registering lists no invitation.
            await invite("p2")
            assert [i[0] for i in await tournaments.invitations(ezio.id)] == ["p2"]
            await tournaments.set_status("p2", "cancelled", finished_at=NOW, note="test")
            assert await tournaments.invitations(ezio.id) == []
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_matches_of_a_same_cards_round_in_play_are_read_by_nobody(db_url: str) -> None:
    """Issue 27, H2 (docs/tournaments.md, "Same cards": no totals, deals, MP or VP until the
    round is over; the profile leaves the round's matches out): every read of finished matches
    for others (a player's statistics, his list and head-to-head, his rating history, the list
    of matches) leaves out a table of a same-cards round still being played, with the one SQL
    condition of ``burraco.store.hidden`` (a JSON field of the settings: both backends); a
    tournament without same cards, and the same round once over, are read as ever."""

    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            tournaments, profiles = TournamentStore(store), ProfileStore(store)
            ratings = RatingStore(store)
            anna = await store.create_user("Anna", "x")
            bruno = await store.create_user("Bruno", "x")
            lines = ((f"u{anna.id}",), (f"u{bruno.id}",))
            for tid, same_cards in (("sc", True), ("plain", False)):
                table = await round_in_play(store, tid, lines, same_cards=same_cards)
                await store.log_match(
                    table,
                    1,
                    players=["Anna", "Bruno"],
                    totals=[1185, 390],
                    winner=0,
                    ended="complete",
                    record="[meta]",
                )
                await profiles.record(
                    [
                        PlayerMatchRow(
                            user_id=anna.id,
                            table_id=table,
                            match_no=1,
                            seat=0,
                            finished_at=NOW,
                            mode="2p",
                            rules="italian",
                            rated=True,
                            result="win",
                            ended="complete",
                            smazzate=1,
                            mp=795,
                            burrachi_clean=2,
                            burrachi_dirty=1,
                            pozzetti=1,
                            closings=1,
                            players=["Anna", "Bruno"],
                            opponent_ids=[bruno.id],
                        )
                    ]
                )
                await ratings.rate_match(
                    table_id=table,
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[f"user:{anna.id}", f"user:{bruno.id}"],
                    outcome=outcome_of(Mode.TWO, totals=[1185, 390], winner=0),
                    now=NOW,
                )

            async def read() -> tuple[list[str], ...]:
                (stats,) = await profiles.stats(anna.id)
                return (
                    [str(stats.matches), str(stats.wins), str(stats.mp)],
                    [r.table_id for r in await profiles.matches(anna.id)],
                    [r.table_id for r in await profiles.matches(anna.id, opponent=bruno.id)],
                    [p.table_id for p in await ratings.history(anna.id, Mode.TWO)],
                    [r.table_id for r in await store.matches()],
                    [r.table_id for r in await store.matches(user_name="Anna")],
                    sorted(await tournaments.same_cards_hidden(["sc-1", "plain-1", "nowhere"])),
                )

            assert await read() == (
                ["1", "1", "795"],
                ["plain-1"],
                ["plain-1"],
                ["plain-1"],
                ["plain-1"],
                ["plain-1"],
                ["sc-1"],
            )
            await tournaments.finish_round("sc", 1, NOW + timedelta(minutes=30))
            both = sorted(["plain-1", "sc-1"])
            read_now = await read()
            assert read_now[0] == ["2", "2", "1590"]
            assert [sorted(ids) for ids in read_now[1:6]] == [both] * 5
            assert read_now[6] == []
        finally:
            await store.close()

    asyncio.run(scenario())
