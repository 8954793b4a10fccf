"""A same-cards round's finished table on the players' public pages (issue 27, H2).

docs/tournaments.md, "Same cards": until every table of the round has ended, nothing of a
finished table is shown, "no totals, no deals, no MP or VP", and "a player's public profile
(``/api/players/{name}``, its matches and rating history) ... leave[s] the round's matches out".
A black-box test read table A's result while table B still played: the profile's ``stats``
(wins, MP per smazzata, burrachi) and the head-to-head count of ``?versus=`` were summed over
every stored match, the round's included, where ``recent`` and ``history`` left them out; and
the match was rated at once, so that the profile's ``ratings`` and the leaderboards moved.

Four people play a same-cards round on two tables. The app's clock is a fake one that never
moves: nobody's absence ever gives a seat to a bot, so table B waits for its players for as
long as the test wants, and the test plays table A to its end with legal moves drawn at random.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from burraco.ratings import Mode, outcome_of
from burraco.server.clock import FakeClock
from burraco.server.connection import Connection
from burraco.server.table import TableStatus, commands
from burraco.store import TournamentStore, UserInfo

from ..store.same_cards import round_in_play
from .inprocess import InProcess, running_app, sent_to

PASSWORD = "a good password"
NAMES = ("anna", "bruno", "carla", "dario")
SETTINGS: dict[str, Any] = {
    "start": "sitgo",
    "size": 4,
    "system": "danish",
    "rounds": 1,
    "smazzate": 1,
    "between_smazzate": 0,
    "same_cards": True,
    "absent": "bot",
    "absent_seconds": 5,
}


async def register(app: InProcess, name: str) -> tuple[dict[str, str], UserInfo]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    user = await app.hub.store.user_by_name(name)
    assert user is not None
    return {"Authorization": f"Bearer {answer.json()['token']}"}, user


async def view(app: InProcess, tid: str) -> dict[str, Any]:
    answer = await app.http.get(f"/api/tournaments/{tid}")
    assert answer.status_code == 200, answer.text
    shown: dict[str, Any] = answer.json()
    return shown


async def play_table(app: InProcess, table: str, users: list[UserInfo], seed: int) -> list[Ends]:
    """Every seat of ``table`` opened by its player, who plays legal moves drawn at random
    (seeded) until the match is over: what each player's page is sent, read as it comes."""
    actor = await app.hub.table(table)
    pages: dict[int, Ends] = {}
    for user in users:
        seat = actor.seat_of(user)
        assert seat is not None, f"{user.name} has no seat at {table}"
        conn = app.hub.connect(user)
        assert conn is not None
        await actor.call(commands.Join(conn))
        pages[seat] = Ends(conn)
    choose = random.Random(seed).choice
    async with asyncio.timeout(120):
        while actor.status != TableStatus.FINISHED:
            for page in pages.values():
                page.read()
            state = actor.state
            if state is not None and not state.is_over and state.current in pages:
                action = choose(list(state.legal_actions()))
                await actor.call(commands.Act(pages[state.current].conn, action.text()))
            else:
                await asyncio.sleep(0.005)
    return list(pages.values())


class Ends:
    """A player's page at a table: the ``match_end`` messages it was sent (the others read
    and dropped, so that its outbox never fills)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.ends: list[dict[str, Any]] = []

    def read(self) -> None:
        self.ends += [m for m in sent_to(self.conn) if m.get("kind") == "match_end"]


class Round:
    """The tournament, its two tables and who sits at each."""

    def __init__(self, app: InProcess, tid: str, tables: list[tuple[str, list[UserInfo]]]):
        self.app, self.tid, self.tables = app, tid, tables

    async def finish(self, index: int, seed: int) -> list[dict[str, Any]]:
        """Play table ``index`` to its end, and wait until the tournament has its result (the
        match stored, its rating kept and its players' rows written first): the ``match_end``
        each of its players was sent."""
        table, users = self.tables[index]
        pages = await play_table(self.app, table, users, seed)

        async def stored() -> bool:
            shown = await view(self.app, self.tid)
            return any(
                t["table_id"] == table and t["finished"] for t in shown["rounds"][0]["tables"]
            )

        await self.app.until(stored, timeout=30)
        for page in pages:
            page.read()
            assert not page.conn.closed and len(page.ends) == 1, page.ends
        return [page.ends[0] for page in pages]

    async def over(self) -> None:
        """Wait until the tournament (of one round) has ended."""

        async def finished() -> bool:
            return bool((await view(self.app, self.tid))["status"] == "finished")

        await self.app.until(finished, timeout=30)


async def started(app: InProcess) -> tuple[Round, dict[str, dict[str, str]]]:
    """Four registered people enter a same-cards Sit&Go of one round: it starts on two tables."""
    people = {name: await register(app, name) for name in NAMES}
    organiser = await app.guest()
    made = await app.http.post("/api/tournaments", json=SETTINGS, headers=organiser)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for headers, _ in people.values():
        joined = await app.http.post(f"/api/tournaments/{tid}/register", headers=headers)
        assert joined.status_code == 200, joined.text

    async def seated() -> bool:
        shown = await view(app, tid)
        return bool(shown["rounds"]) and all(t["table_id"] for t in shown["rounds"][0]["tables"])

    await app.until(seated, timeout=30)
    shown = await view(app, tid)
    tables = []
    for t in shown["rounds"][0]["tables"]:
        actor = await app.hub.table(t["table_id"])
        users = [user for _, user in people.values() if actor.seat_of(user) is not None]
        assert len(users) == 2, t
        tables.append((t["table_id"], users))
    return Round(app, tid, tables), {name: h for name, (h, _) in people.items()}


def test_a_finished_table_stays_out_of_the_profiles_stats_and_head_to_head(
    tmp_path: Path,
) -> None:
    """Issue 27, H2: table A has ended, table B still plays the same cards. Neither a player of
    B nor an outsider reads A's result in A's players' profile statistics (``stats``: matches,
    wins, MP and burrachi per smazzata) or head-to-head (``/matches?versus=``): docs/tournaments.md
    promises no totals, deals, MP or VP until the round is over, and that the profile leaves the
    round's matches out. Once B has ended, both count A's match."""

    async def scenario() -> None:
        async with running_app(tmp_path, clock=FakeClock(), bot_delay=0.0) as app:
            played, headers = await started(app)
            await played.finish(0, seed=1)
            assert (await view(app, played.tid))["rounds"][0]["status"] == "playing"
            (_, (one, other)), (_, b_players) = played.tables
            for asking in (headers[b_players[0].name], {}):  # table B's player, an outsider
                profile = await app.http.get(f"/api/players/{one.name}", headers=asking)
                assert profile.status_code == 200, profile.text
                assert profile.json()["stats"] == [], profile.json()
                assert profile.json()["recent"] == []
                versus = await app.http.get(
                    f"/api/players/{one.name}/matches?versus={other.name}", headers=asking
                )
                assert versus.status_code == 200, versus.text
                assert versus.json()["matches"] == []
                assert versus.json()["versus"] == {
                    "name": other.name,
                    "played": 0,
                    "won": 0,
                    "lost": 0,
                    "drawn": 0,
                }

            await played.finish(1, seed=2)
            await played.over()
            profile = (await app.http.get(f"/api/players/{one.name}")).json()
            (stats,) = profile["stats"]
            assert stats["mode"] == "2p" and stats["matches"] == 1 and stats["smazzate"] == 1
            assert len(profile["recent"]) == 1
            versus = await app.http.get(f"/api/players/{one.name}/matches?versus={other.name}")
            counted = versus.json()["versus"]
            assert counted["played"] == 1
            assert counted["won"] + counted["lost"] + counted["drawn"] == 1

    asyncio.run(scenario())


def test_a_finished_table_is_rated_once_its_round_is_over(tmp_path: Path) -> None:
    """Issue 27, H2, the ratings: table A's match moved its players' ratings at once, so that
    while table B still played the same cards anyone read A's result in the profile's
    ``ratings`` (its matches, wins and draws, the rating's change) and in the leaderboards
    (overall and the month's, with its change). docs/tournaments.md: no totals, deals, MP or VP
    until the round is over; the profile leaves the round's matches out. A same-cards match is
    rated when its round is over: A's players are told so at its end (``match_end``'s
    ``rating: {pending: "same_cards_round"}``), and then it counts as any rated match."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, bot_delay=0.0) as app:
            played, headers = await started(app)
            ends = await played.finish(0, seed=1)
            assert [end["rating"] for end in ends] == [{"pending": "same_cards_round"}] * 2
            (_, a_players), (_, b_players) = played.tables
            month = clock.utcnow().strftime("%Y-%m")
            boards = [
                f"/api/ratings/2p?provisional={p}{m}"
                for p in ("true", "false")
                for m in ("", f"&month={month}")
            ]
            for asking in (headers[b_players[0].name], {}):  # table B's player, an outsider
                for user in a_players:
                    profile = await app.http.get(f"/api/players/{user.name}", headers=asking)
                    assert profile.json()["ratings"] == [], profile.json()
                    assert profile.json()["history"] == {}
                for board in boards:
                    listed = await app.http.get(board, headers=asking)
                    assert listed.status_code == 200, listed.text
                    assert listed.json()["players"] == [], listed.json()

            ends = await played.finish(1, seed=2)  # the round's last table: the same
            assert [end["rating"] for end in ends] == [{"pending": "same_cards_round"}] * 2
            await played.over()
            listed = (await app.http.get(boards[1])).json()["players"]
            assert sorted(p["name"] for p in listed) == sorted(NAMES)
            for user in a_players:
                profile = (await app.http.get(f"/api/players/{user.name}")).json()
                (rating,) = profile["ratings"]
                assert rating["mode"] == "2p" and rating["matches"] == 1
                assert [p["table"] for p in profile["history"]["2p"]] == [played.tables[0][0]]

    asyncio.run(scenario())


def test_a_round_over_before_a_crash_has_its_matches_rated_at_the_next_start(
    tmp_path: Path,
) -> None:
    """The server stopped after a same-cards round's end was stored and before its kept
    matches were rated (docs/ratings.md): the tournaments' resume (at start, and at each sweep
    of a cluster's tournament process) rates them, once."""

    async def scenario() -> None:
        async with running_app(tmp_path, clock=FakeClock()) as app:
            _, anna = await register(app, "anna")
            _, bruno = await register(app, "bruno")
            table = await round_in_play(app.hub.store, "sc", ((f"u{anna.id}",), (f"u{bruno.id}",)))
            ratings = app.hub.ratings
            kept = await ratings.defer_match(
                table_id=table,
                match_no=1,
                mode=Mode.TWO,
                seats=[f"user:{anna.id}", f"user:{bruno.id}"],
                outcome=outcome_of(Mode.TWO, totals=[1185, 390], winner=0),
                now=app.hub.clock.utcnow(),
            )
            assert kept
            await TournamentStore(app.hub.store).finish_round("sc", 1, app.hub.clock.utcnow())
            assert await ratings.ratings_of(anna.id) == []  # the crash: nothing rated yet
            manager = app.hub.tournaments
            assert manager is not None
            await manager.resume_all()
            await manager.resume_all()
            for user, won in ((anna, 1), (bruno, 0)):
                (rating,) = await ratings.ratings_of(user.id)
                assert (rating.matches, rating.wins) == (1, won)

    asyncio.run(scenario())
