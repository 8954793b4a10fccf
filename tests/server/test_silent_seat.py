"""A bot account connected but silent at an untimed table (issue 27, H1): the table has no turn
timer to play for it, and its socket is open, so it was never away: the match waited at its turn
for ever (status ``playing``, no record, no log line). Decision (docs/protocol.md, "Absent
players"): at a table without a turn timer a bot account's seat that has not played for
``bot_silence_seconds`` (60 s) at its turn is away from then, as if it had left: the table is
told ``away`` with the usual deadline, after which its substitute bot plays (or its line
forfeits at a rated table); a move of its own before or after brings it back. A person is
waited for (he thinks; his page is open), as before.

The app's clock is a fake one: the tests move it past the bound and the deadline."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from burraco.server.clock import FakeClock
from burraco.server.config import ServerConfig
from burraco.server.connection import Connection
from burraco.server.table import TableActor, TableStatus, commands
from burraco.store import UserInfo

from .inprocess import InProcess, caught_up, running_app, sent_to, settle

PASSWORD = "una password lunga"
SILENCE = 60.0
"""The documented bound (``ServerConfig.bot_silence_seconds``)."""
GRACE = 0.5
FAST = {"disconnect_grace": GRACE, "bot_delay": 0.0, "substitute_bot": "greedy", "test_seed": 3}


async def register(app: InProcess, name: str) -> tuple[dict[str, str], UserInfo]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    user = await app.hub.store.user(answer.json()["user"]["id"])
    assert user is not None
    return {"Authorization": f"Bearer {answer.json()['token']}"}, user


async def bot_account(app: InProcess, owner: dict[str, str], name: str) -> dict[str, str]:
    made = await app.http.post("/api/account/bots", json={"name": name}, headers=owner)
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


async def joined(app: InProcess, actor: TableActor, user: UserInfo) -> Connection:
    conn = app.hub.connect(user)
    assert conn is not None
    await actor.call(commands.Join(conn))
    return conn


async def person_and_silent_bot(
    app: InProcess, name: str = "Paola", **table: Any
) -> tuple[TableActor, Connection, Connection, int]:
    """A person's table (untimed unless ``table`` says) with a bot account at its other seat,
    both connected; the person plays until it is the bot's turn. The table, the person's and
    the bot's connections, and the bot's seat."""
    person, person_user = await register(app, name)
    bot = await bot_account(app, person, f"{name}Bot")
    me = (await app.http.get("/api/me", headers=bot)).json()
    bot_user = await app.hub.store.user(me["id"])
    assert bot_user is not None
    created = await app.http.post(
        "/api/tables", json={"players": 2, "seat": 0} | table, headers=person
    )
    assert created.status_code == 201, created.text
    actor = await app.hub.table(created.json()["id"])
    mine = await joined(app, actor, person_user)
    theirs = await joined(app, actor, bot_user)
    sat = await app.http.post(f"/api/tables/{actor.id}/sit", json={"seat": 1}, headers=bot)
    assert sat.status_code == 200 and sat.json()["status"] == "playing", sat.text
    await settle(lambda: actor.state is not None, "the deal")
    await plays_until_seat(actor, mine, 1)
    return actor, mine, theirs, 1


async def plays_until_seat(actor: TableActor, conn: Connection, seat: int) -> None:
    """``conn``'s player plays his seat (at random, seeded) until ``seat`` is to act."""
    choose = random.Random(7).choice
    while True:
        state = actor.state
        assert state is not None and actor.status == TableStatus.PLAYING
        if state.current == seat:
            return
        await actor.call(commands.Act(conn, choose(list(state.legal_actions())).text()))


def kinds(conn: Connection) -> list[str]:
    return [m.get("kind", m["type"]) for m in sent_to(conn)]


def test_a_silent_bot_is_away_after_the_bound_and_back_when_it_plays(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST) as app:
            actor, mine, theirs, seat = await person_and_silent_bot(app, smazzate=1)
            sent_to(mine)
            clock.advance(SILENCE - 0.01)
            await caught_up(actor)
            assert actor.seats[seat].away_since is None  # not before the bound
            clock.advance(0.01)
            await settle(lambda: actor.seats[seat].away_since is not None, "the bot away")
            told = [m for m in sent_to(mine) if m.get("kind") == "away"]
            assert [(m["seat"], m["then"]) for m in told] == [(seat, "bot")], told
            assert told[0]["deadline"] == clock.now() + GRACE
            # It plays before its deadline: it is back, and its substitute never came.
            state = actor.state
            assert state is not None
            await actor.call(commands.Act(theirs, state.legal_actions()[0].text()))
            assert actor.seats[seat].away_since is None and not actor.seats[seat].substitute
            assert "back" in kinds(mine)
            clock.advance(GRACE)
            await caught_up(actor)
            assert actor.seats[seat].substitute is None
            assert ServerConfig().bot_silence_seconds == SILENCE

    asyncio.run(scenario())


def test_past_its_deadline_a_silent_bot_gets_a_substitute_and_the_match_ends(
    tmp_path: Path,
) -> None:
    """Its socket still open, the silent bot's seat is played by its substitute after the away
    deadline, and the person plays the match to its end."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST) as app:
            actor, mine, _theirs, seat = await person_and_silent_bot(app, smazzate=1)
            played = actor.seq
            clock.advance(SILENCE)
            await settle(lambda: actor.seats[seat].away_since is not None, "the bot away")
            clock.advance(GRACE)
            await settle(lambda: actor.seats[seat].substitute == "greedy", "its substitute")
            await settle(lambda: actor.seq > played, "the substitute's move")
            async with asyncio.timeout(60):
                while actor.status == TableStatus.PLAYING:
                    state = actor.state
                    if state is not None and not state.is_over and state.current != seat:
                        action = random.Random(actor.seq).choice(list(state.legal_actions()))
                        await actor.call(commands.Act(mine, action.text()))
                    else:
                        await asyncio.sleep(0.002)
                    sent_to(mine)
            assert actor.status == TableStatus.FINISHED and actor.ended == "complete"

    asyncio.run(scenario())


def test_at_a_rated_table_a_silent_bot_forfeits_past_its_deadline(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST) as app:
            actor, mine, _theirs, seat = await person_and_silent_bot(app, smazzate=3, rated=True)
            clock.advance(SILENCE)
            await settle(lambda: actor.seats[seat].away_since is not None, "the bot away")
            assert [m["then"] for m in sent_to(mine) if m.get("kind") == "away"] == ["forfeit"]
            clock.advance(GRACE)
            await settle(lambda: actor.status == TableStatus.FINISHED, "the forfeit")
            assert actor.ended == "forfeit"

    asyncio.run(scenario())


def test_a_person_and_a_timed_table_are_not_hurried(tmp_path: Path) -> None:
    """A person thinking at an untimed table is waited for; at a timed table the turn timer,
    not this rule, plays for a bot that does not."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST) as app:
            actor, mine, theirs, seat = await person_and_silent_bot(app, smazzate=1)
            state = actor.state
            assert state is not None
            await actor.call(commands.Act(theirs, state.legal_actions()[0].text()))
            await plays_until_seat(actor, theirs, 0)  # the bot plays on to the person's turn
            clock.advance(10 * SILENCE)
            await caught_up(actor)
            assert actor.seats[0].away_since is None and actor.status == TableStatus.PLAYING
            assert actor.state is not None and actor.state.current == 0
            del mine, seat

            timed, mine, _, seat = await person_and_silent_bot(
                app, "Rosa", smazzate=1, round_seconds=1200, hand_seconds=30
            )
            played = timed.seq
            clock.advance(30)  # the turn timer plays the silent bot's turn (T13)
            await settle(lambda: timed.state is not None and timed.state.current != seat, "T13")
            assert timed.seq > played and timed.seats[seat].away_since is None
            assert "away" not in kinds(mine)

    asyncio.run(scenario())
