"""A bot account at its message limit (issue 27, H1): matches played through ``burraco
bot-connect`` froze for ever. The account's 41st quick message got ``rate_limited`` with no
``table`` and no ``ref`` (the socket answers before decoding the frame), the connector dropped an
error naming no table it knew, never sent the move again, and held the decision as answered.

Here the refusal names the message it refuses (its ``table`` and ``ref``, and when to send
again), the connector paces itself under the limit (a token bucket on its clock) and sends a
refused move again after the wait, and a match played by the connector against a person who
plays at once ends, at the server's default limits and at a limit lower than the connector's
pace.

Everything runs in this process: the app (``running_app``), the connector
(``server/botclient.py``) on the app's WebSocket through an ASGI transport, the example bot
(``examples/bots/random_bot.py``) as the program it asks, and one ``FakeClock`` for the app and
the connector. That time moves only while the connector waits on it (``drive``): while the bot
and the person play as fast as they can no token comes back to the bot's bucket, as on a fast
machine, and a wait of the connector's (its pace, a refusal's ``retry_ms``) passes at once.
Before the fix both matches froze (at event 87, and at event 19 under the lower limit) and the
refusal named nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx_ws import AsyncWebSocketSession, WebSocketDisconnect, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from burraco.server.botclient import PACE_SHARE, BotClient, Pacer, ServerRefusal, Settings
from burraco.server.clock import FakeClock, TimerHandle
from burraco.server.config import BOT_BURST_SECONDS, BOT_MESSAGES_PER_SECOND
from burraco.server.ratelimit import Bucket
from burraco.server.table import TableActor, TableStatus, commands
from burraco.store import UserInfo

from .inprocess import InProcess, running_app, sent_to

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
PASSWORD = "una password lunga"
FROZEN_SECONDS = 5.0
"""Real seconds without an event at the table while the connector waits for nothing: frozen."""
SETTINGS: dict[str, Any] = {"bot_delay": 0.0, "test_seed": 11}
BOT_SEED = 7
"""The example bot's seed (``bot-connect --seed``): with the deals (``test_seed``) and the
person's choices seeded too, every run plays the same match, of the same length (an unseeded
bot once ended the match after 39 messages, one short of what the first test asks for)."""


class ConnectorClock:
    """The app's fake clock as the connector reads it, knowing when the connector waits on it
    (its pace, a refusal's wait): only then does ``drive`` move time."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.waiting = 0

    def now(self) -> float:
        return self.clock.now()

    def utcnow(self) -> datetime:
        return self.clock.utcnow()

    def monotonic(self) -> float:
        return self.clock.monotonic()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> TimerHandle:
        return self.clock.call_later(delay, callback, *args)

    async def sleep(self, seconds: float) -> None:
        self.waiting += 1
        try:
            await self.clock.sleep(seconds)
        finally:
            self.waiting -= 1


async def drive(clock: ConnectorClock) -> None:
    """While the connector waits on the clock, move it to its soonest timer (the app's, as
    it may be, or the connector's own). While the bot and the person play, time stands still:
    no token comes back to the bot's bucket however many messages it sends."""
    while True:
        await asyncio.sleep(0.002)
        due = clock.clock.pending()
        if clock.waiting and due:
            clock.clock.advance(due[0])


async def register(app: InProcess, name: str) -> tuple[str, UserInfo]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    token: str = answer.json()["token"]
    user = await app.hub.store.user(answer.json()["user"]["id"])
    assert user is not None
    return token, user


async def bot_account(app: InProcess, owner: str, name: str) -> str:
    answer = await app.http.post(
        "/api/account/bots", json={"name": name}, headers={"Authorization": f"Bearer {owner}"}
    )
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


class _Socket:
    """The app's WebSocket (httpx_ws, in process) as the connector uses one."""

    def __init__(self, session: AsyncWebSocketSession) -> None:
        self.session = session

    async def recv(self) -> str:
        return await self.session.receive_text()

    async def send(self, text: str) -> None:
        await self.session.send_text(text)

    async def close(self) -> None:
        await self.session.close()

    def __aiter__(self) -> _Socket:
        return self

    async def __anext__(self) -> str:
        try:
            return await self.session.receive_text()
        except WebSocketDisconnect:
            raise StopAsyncIteration from None


class InProcessConnector(BotClient):
    """The connector, its HTTP calls made to the app in process."""

    def __init__(self, app: InProcess, settings: Settings, **options: Any) -> None:
        super().__init__(settings, **options)
        self.app = app

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = await self.app.http.request(
            method, path, json=body, headers={"Authorization": f"Bearer {self.settings.token}"}
        )
        self.app.http.cookies.clear()
        if answer.status_code >= 400:
            raise ServerRefusal(answer.status_code, answer.json())
        return answer.json() if answer.content else None


@contextlib.asynccontextmanager
async def app_sockets(app: InProcess) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client that opens WebSockets on the app (in this loop)."""
    async with (
        ASGIWebSocketTransport(app=app.app, client=("127.0.0.1", 50_000)) as transport,
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client,
    ):
        yield client


def app_socket(
    client: httpx.AsyncClient, headers: dict[str, str]
) -> contextlib.AbstractAsyncContextManager[AsyncWebSocketSession]:
    return aconnect_ws("/ws", client, headers=headers, max_message_size_bytes=1 << 22)


def opener(client: httpx.AsyncClient) -> Any:
    @contextlib.asynccontextmanager
    async def connect(url: str, headers: dict[str, str]) -> AsyncIterator[_Socket]:
        assert url.endswith("/ws"), url
        async with app_socket(client, headers) as session:
            yield _Socket(session)

    return connect


async def person_plays(actor: TableActor, user: UserInfo, seed: int) -> None:
    """``user`` opens the table and plays his seat at once, every turn (legal actions drawn at
    random, seeded), until the match is over."""
    conn = actor.hub.connect(user)
    assert conn is not None
    await actor.call(commands.Join(conn))
    seat = actor.seat_of(user)
    choose = random.Random(seed).choice
    while actor.status in (TableStatus.OPEN, TableStatus.PLAYING):
        state = actor.state
        playing = actor.status == TableStatus.PLAYING and state is not None and not state.is_over
        if playing and state is not None and state.current == seat:
            await actor.call(commands.Act(conn, choose(list(state.legal_actions())).text()))
            sent_to(conn)
            continue
        sent_to(conn)
        await asyncio.sleep(0.002)


async def bot_plays_a_person(
    tmp_path: Path, **settings: Any
) -> tuple[TableActor, BotClient, list[str]]:
    """A person creates a one-smazzata untimed table, the connector takes its other seat for
    the bot account (``--table``, ``--games 1``) and they play it out, the person at once. The
    table, the connector and what it said. A frozen match fails, with where it stopped."""
    fake = FakeClock()
    clock = ConnectorClock(fake)
    said: list[str] = []
    async with running_app(tmp_path, clock=fake, **SETTINGS | settings) as app:
        owner, person = await register(app, "Paola")
        token = await bot_account(app, owner, "PaolaBot")
        created = await app.http.post(
            "/api/tables",
            json={"players": 2, "smazzate": 1, "seat": 0},
            headers={"Authorization": f"Bearer {owner}"},
        )
        assert created.status_code == 201, created.text
        actor = await app.hub.table(created.json()["id"])
        async with app_sockets(app) as sockets:
            connector = InProcessConnector(
                app,
                Settings(
                    server="http://127.0.0.1",
                    token=token,
                    command=f"{sys.executable} {EXAMPLE}",
                    games=1,
                    tables=(actor.id,),
                    seed=BOT_SEED,
                ),
                say=said.append,
                clock=clock,
                connect=opener(sockets),
            )
            loop = asyncio.get_running_loop()
            tasks = [
                loop.create_task(drive(clock)),
                loop.create_task(person_plays(actor, person, seed=5)),
            ]
            running = loop.create_task(connector.run())
            try:
                await watch(actor, clock, running, said)
                assert running.result() == 0
            finally:
                connector.stop()
                for task in [*tasks, running]:
                    task.cancel()
                await asyncio.gather(*tasks, running, return_exceptions=True)
        return actor, connector, said


async def watch(
    actor: TableActor, clock: ConnectorClock, running: asyncio.Task[int], said: list[str]
) -> None:
    """Wait until the connector is done; fail if the table stops moving while the connector
    waits for nothing (the freeze of H1), or after two minutes."""
    loop = asyncio.get_running_loop()
    seq, since = actor.seq, loop.time()
    async with asyncio.timeout(120):
        while not running.done():
            await asyncio.sleep(0.05)
            if actor.seq != seq or clock.waiting:
                seq, since = actor.seq, loop.time()
                continue
            if loop.time() - since > FROZEN_SECONDS:
                state = actor.state
                where = None if state is None else (state.current, state.phase)
                raise AssertionError(
                    f"the match froze at event {seq} (status {actor.status}, seat and phase"
                    f" {where}); the connector said:\n" + "\n".join(said[-20:])
                )


def test_a_bot_at_its_limit_plays_a_fast_person_to_the_end(tmp_path: Path) -> None:
    """The server's default limits (10 messages a second, bursts of 40): the connector keeps
    under them, so none of its messages is refused and the match ends."""

    async def scenario() -> None:
        actor, connector, said = await bot_plays_a_person(tmp_path)
        assert actor.status == TableStatus.FINISHED and actor.ended == "complete", said
        over = [line for line in said if line.startswith("match over")]
        assert over and "moves lost: none" in over[0], said
        assert connector.refusals == 0, said
        # At its limit: more messages than one burst, in a time that stood still as they went.
        assert connector.sent > BOT_MESSAGES_PER_SECOND * BOT_BURST_SECONDS, connector.sent
        assert all(seat.substitute is None for seat in actor.seats)

    asyncio.run(scenario())


def test_a_refused_move_is_sent_again_and_the_match_ends(tmp_path: Path) -> None:
    """A server whose bot limit is below the connector's pace (2 messages a second, bursts of
    8): moves are refused, each refusal names the move, the connector sends it again after the
    wait and slows to the limit the refusal states; the match ends with no move lost."""

    async def scenario() -> None:
        actor, connector, said = await bot_plays_a_person(tmp_path, bot_messages_per_second=2.0)
        assert actor.status == TableStatus.FINISHED and actor.ended == "complete", said
        over = [line for line in said if line.startswith("match over")]
        assert over and "moves lost: none" in over[0], said
        refused = [line for line in said if "rate_limited" in line]
        assert refused and len(refused) == connector.refusals, said
        assert all(" sent again after " in line for line in refused), refused
        # It took the limit the refusal stated: one refusal or two, not one in four messages.
        assert connector.refusals <= 2 < connector.sent / 4, (connector.refusals, connector.sent)

    asyncio.run(scenario())


def test_a_refusal_names_the_message_it_refuses(tmp_path: Path) -> None:
    """Over the bot's limit (the fake clock does not move, so nothing refills), each frame is
    refused with its ``table`` and ``ref`` when it has them, the limit and when to send again;
    a frame that is not JSON, or too big to look into, is refused naming nothing."""

    async def scenario() -> None:
        async with running_app(tmp_path, clock=FakeClock(), **SETTINGS) as app:
            owner, _ = await register(app, "Rita")
            token = await bot_account(app, owner, "RitaBot")
            async with (
                app_sockets(app) as sockets,
                app_socket(sockets, {"Authorization": f"Bearer {token}"}) as socket,
            ):
                assert json.loads(await socket.receive_text())["type"] == "welcome"
                burst = int(BOT_MESSAGES_PER_SECOND * BOT_BURST_SECONDS)
                for t in range(burst):
                    await socket.send_text(json.dumps({"type": "ping", "t": t}))
                for _ in range(burst):
                    assert json.loads(await socket.receive_text())["type"] == "pong"
                move = {"type": "act", "table": "T1", "action": "1 draw", "ref": "b41"}
                await socket.send_text(json.dumps(move))
                refused = json.loads(await socket.receive_text())
                assert refused["code"] == "rate_limited", refused
                assert refused["table"] == "T1" and refused["ref"] == "b41", refused
                detail = refused["detail"]
                assert detail["code"] == "messages", detail
                assert detail["params"]["limit"] == BOT_MESSAGES_PER_SECOND
                assert 0 < detail["params"]["retry_ms"] <= 1000 / BOT_MESSAGES_PER_SECOND + 1
                await socket.send_text(json.dumps({"type": "ready", "table": "T2"}))
                refused = json.loads(await socket.receive_text())
                assert refused["table"] == "T2" and "ref" not in refused, refused
                for frame in ("not json", json.dumps({"type": "act", "table": "x" * 5000})):
                    await socket.send_text(frame)
                    refused = json.loads(await socket.receive_text())
                    assert refused["code"] == "rate_limited", refused
                    assert "table" not in refused and "ref" not in refused, refused

    asyncio.run(scenario())


def test_the_pace_never_empties_the_servers_bucket() -> None:
    """Messages given to the connector as fast as can be go at its pace: the server's bucket
    for the account (its default numbers, the same clock) always has a token for them, and
    200 messages take the time the pace says (a burst of 20, then 8 a second)."""

    async def scenario() -> None:
        clock = FakeClock()
        pacer = Pacer(clock)
        burst = BOT_MESSAGES_PER_SECOND * BOT_BURST_SECONDS
        server = Bucket(BOT_MESSAGES_PER_SECOND, burst, burst, 0.0, clock.monotonic)

        async def move_time() -> None:
            while True:
                await asyncio.sleep(0)
                due = clock.pending()
                if due:
                    clock.advance(due[0])

        mover = asyncio.get_running_loop().create_task(move_time())
        try:
            for sent in range(200):
                await pacer.wait()
                assert server.take(), f"message {sent + 1} would be refused"
        finally:
            mover.cancel()
        pace = BOT_MESSAGES_PER_SECOND * PACE_SHARE
        assert clock.monotonic() == pytest.approx((200 - burst / 2) / pace, abs=0.2)

    asyncio.run(scenario())
