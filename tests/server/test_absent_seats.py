"""Seats whose players are not at the table (issue 19, found by a black-box test): a seated
player who never opens a started table is away from the start, so the one who came is not kept
waiting for ever; at a casual table nobody else sits at, a player who leaves gets no bot playing
for him (bots played whole matches for nobody, past the account's bound of bot-only tables): the
table waits for him, gives his seat a bot as soon as another person is there to play with, and
ends with no winner once nobody has been at it for ``deserted_match_seconds``.

The app's clock is a fake one (server/clock.py): each test moves it past the grace or the
deserted time and waits for what the table did then, instead of sleeping through them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from burraco.server.clock import FakeClock
from burraco.server.connection import Connection
from burraco.server.table import TableActor, commands
from burraco.store import UserInfo

from .inprocess import InProcess, caught_up, running_app, settle

GRACE = 0.3
FAST = {"disconnect_grace": GRACE, "bot_delay": 0.0, "substitute_bot": "greedy", "test_seed": 3}


async def person(app: InProcess, name: str | None = None) -> tuple[dict[str, str], UserInfo]:
    """A guest (or a registered player when named): his bearer header and account."""
    if name is None:
        headers = await app.guest()
    else:
        answer = await app.http.post(
            "/api/register", json={"name": name, "password": "a good password"}
        )
        assert answer.status_code == 201, answer.text
        app.http.cookies.clear()
        headers = {"Authorization": f"Bearer {answer.json()['token']}"}
    me = (await app.http.get("/api/me", headers=headers)).json()
    user = await app.hub.store.user(me["id"])
    assert user is not None
    return headers, user


async def opened(app: InProcess, actor: TableActor, user: UserInfo) -> Connection:
    """``user``'s page opens the table (a WebSocket joined to it)."""
    conn = app.hub.connect(user)
    assert conn is not None
    await actor.call(commands.Join(conn))
    return conn


async def closed(app: InProcess, actor: TableActor, conn: Connection) -> None:
    await actor.call(commands.Disconnect(conn))
    app.hub.disconnect(conn)


async def table_of(app: InProcess, headers: dict[str, str], **body: Any) -> TableActor:
    created = await app.http.post("/api/tables", json={"players": 2} | body, headers=headers)
    assert created.status_code == 201, created.text
    return await app.hub.table(created.json()["id"])


async def stored_match(app: InProcess, table: str) -> dict[str, Any]:
    """The match of ``table`` once it is in the match list. (The table is ``finished`` in
    memory a moment before its match is stored: polling its status and then reading the list
    raced under load.)"""
    found: list[dict[str, Any]] = []

    async def listed() -> bool:
        found[:] = [m for m in (await app.http.get("/api/matches")).json() if m["table"] == table]
        return bool(found)

    await app.until(listed, timeout=10)
    (match,) = found
    return match


def test_a_player_who_never_opens_the_table_is_away_from_the_start(tmp_path: Path) -> None:
    """Anna creates a table, Bruno sits and opens it, Anna never does: her seat is away from
    the start and gets a bot after the grace (a casual table) so that Bruno plays on; at a
    rated table her line forfeits (T14) and Bruno wins. Before, her seat was never away: the
    match waited at her turn for ever (the 5-minute rule covers only nobody coming)."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST) as app:
            anna, _ = await person(app, "Anna")
            bruno, bruno_user = await person(app, "Bruno")
            casual = await table_of(app, anna, smazzate=1, seat=0)
            sat = await app.http.post(
                f"/api/tables/{casual.id}/sit", json={"seat": 1}, headers=bruno
            )
            assert sat.json()["status"] == "playing", sat.text
            await opened(app, casual, bruno_user)
            assert casual.seats[0].away_since is not None
            clock.advance(GRACE - 0.01)
            await caught_up(casual)
            assert casual.seats[0].substitute is None  # not before her deadline
            clock.advance(0.01)
            await settle(lambda: casual.seats[0].substitute == "greedy", "Anna's bot")
            assert casual.seats[0].away_since is not None

            rated = await table_of(app, anna, smazzate=3, seat=0, rated=True)
            await app.http.post(f"/api/tables/{rated.id}/sit", json={"seat": 1}, headers=bruno)
            await opened(app, rated, bruno_user)
            assert rated.status == "playing"
            clock.advance(GRACE)

            match = await stored_match(app, rated.id)
            assert match["table"] == rated.id and match["ended"] == "forfeit"
            assert match["winner"] == 1  # Bruno's line

    asyncio.run(scenario())


async def left_a_bot(app: InProcess, clock: FakeClock) -> tuple[TableActor, UserInfo]:
    """Carla starts a casual match against a bot, opens it and closes her page; twice the
    grace later (her away deadline passed, and the table did what it does then): the table
    and Carla."""
    carla, user = await person(app)
    actor = await table_of(app, carla, smazzate=1, seat=0, bots={"1": "greedy"})
    conn = await opened(app, actor, user)
    await closed(app, actor, conn)
    assert "away0" in actor._timers
    clock.advance(2 * GRACE)
    await caught_up(actor)
    assert "away0" not in actor._timers  # it ran out
    return actor, user


def test_nobody_plays_for_a_player_who_left_a_casual_table_of_bots(tmp_path: Path) -> None:
    """Carla plays a bot, closes her page: past the grace no bot takes her seat (the bots
    would play the match out for nobody); the table waits at her turn, and ends with no
    winner once nobody has been at it for the deserted time."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST, deserted_match_seconds=1.5) as app:
            actor, _ = await left_a_bot(app, clock)
            assert actor.seats[0].away_since is not None
            assert actor.seats[0].substitute is None
            played = actor.seq
            # Bots play at once (no bot delay): a short real wait shows none plays on.
            clock.advance(GRACE)
            await asyncio.sleep(0.3)
            await caught_up(actor)
            assert actor.seq == played, "the bots played on for nobody"
            assert actor.status == "playing"  # 0.9 s after she left: not deserted yet

            clock.advance(1.5 - 3 * GRACE)  # the deserted time since she left
            match = await stored_match(app, actor.id)
            assert await app.table_status(actor.id) == "finished"
            assert match["ended"] == "forfeit" and match["winner"] is None

    asyncio.run(scenario())


def test_a_player_back_before_the_deserted_time_finds_the_table_waiting(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST, deserted_match_seconds=1.5) as app:
            actor, user = await left_a_bot(app, clock)
            await opened(app, actor, user)
            assert actor.seats[0].away_since is None and actor.seats[0].substitute is None
            clock.advance(2.0)  # past the deserted time: she is here
            await caught_up(actor)
            assert await app.table_status(actor.id) == "playing"

    asyncio.run(scenario())


def test_a_player_who_comes_back_brings_a_bot_for_the_one_still_away(tmp_path: Path) -> None:
    """Two people at a casual table both leave: nobody is waiting, so no bot comes for either;
    when Dino comes back, Elsa (still away past her grace) gets a bot at once so that he can
    play on."""

    async def scenario() -> None:
        clock = FakeClock()
        async with running_app(tmp_path, clock=clock, **FAST, deserted_match_seconds=30) as app:
            dino, dino_user = await person(app)
            elsa, elsa_user = await person(app)
            actor = await table_of(app, dino, smazzate=1, seat=0)
            await app.http.post(f"/api/tables/{actor.id}/sit", json={"seat": 1}, headers=elsa)
            mine, hers = await opened(app, actor, dino_user), await opened(app, actor, elsa_user)
            await closed(app, actor, hers)
            await closed(app, actor, mine)
            clock.advance(2 * GRACE)  # past both deadlines
            await caught_up(actor)
            assert not {"away0", "away1"} & set(actor._timers)  # they ran out
            assert [s.substitute for s in actor.seats] == [None, None]
            await opened(app, actor, dino_user)
            assert [s.substitute for s in actor.seats] == [None, "greedy"]
            assert actor.seats[0].away_since is None

    asyncio.run(scenario())
