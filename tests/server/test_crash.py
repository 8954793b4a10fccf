"""Crash test: the real server is killed with SIGKILL in the middle of several matches, started
again on the same database, and the matches finish; nothing that was accepted is lost.

``python -m burraco.cli.main serve`` runs in a subprocess on SQLite (its data folder) and, in
the same test, on the real PostgreSQL (a fresh database, ``--database-url``). WebSocket clients
play random legal actions (from the ``legal`` field, at most 17 messages a second each, under the
server's limit of 20), at these tables:

- ``duo``: two clients, two players;
- ``quad``: four players, two clients and two server-side bots;
- ``timed``: two clients with a chess clock; it is paused mid-turn just before the kill;
- ``bots``: two server-side bots and three smazzate, followed by a spectator.

After the restart the clients reconnect (``join`` with their last event number) and play on.
Then every match's record is downloaded and replayed (exit 0, the totals of ``match_end``), and:

- every action a client saw before the kill, acknowledged ones included, is in the record, in
  order (the actions seen before the kill are a prefix of the record's);
- every deal's commitment announced before the kill is the one in ``[meta] fairness``, and every
  revealed deck and salt hash to their commitment: the deals after the restart are the same;
- the timed table's banks right after the restart are those at its last accepted action plus the
  20 s grace (the bank on turn running only from the restart on);
- the clients got back in with their old session tokens, got a snapshot (event numbers jump
  ahead after a restart), saw no gap in the numbering within a connection and had nothing
  refused; the chat said before the kill is still there;
- after one more (clean) restart, a rematch at a table that finished before it numbers its
  events after the old match's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from burraco.cli.main import main as burraco_main
from burraco.engine.fairness import check_fairness
from burraco.engine.record import read_record, replay
from burraco.server.fairness import commitment_of, deck_text
from burraco.store import Store
from tests.server.spawn import Spawned, serve_command
from tests.store import postgres

Message = dict[str, Any]

PACE = 1 / 17
"""Seconds between two messages of one connection (the server allows 20 a second)."""
GRACE = 20.0
"""The clocks' grace after a restart (ServerConfig.restart_grace)."""
ACTIONS_BEFORE_KILL = 30
"""Actions each client table plays before the kill."""
CHAT = "ciao <b>a tutti</b> & buona partita"
"""Said at the duo table before the kill."""
STARTUP_SECONDS = 30.0
TEST_SECONDS = 300.0
"""The whole scenario, at most (it takes 10 to 30 seconds)."""
FINISH_SECONDS = 90.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``burraco serve`` in its own process group, so that SIGKILL takes all of it at once
    (``spawn.Spawned``)."""

    def __init__(self, folder: Path, database_url: str | None) -> None:
        self.folder = folder
        self.database_url = database_url
        self.port = free_port()
        self.log_path = folder / "server.log"
        self.spawned = Spawned(self.log_path)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def log(self) -> str:
        return self.spawned.log()

    async def start(self) -> None:
        options = ["--port", str(self.port), "--data-dir", str(self.folder / "data")]
        options += ["--bot-delay", "0", "--log-level", "warning"]
        if self.database_url is not None:
            options += ["--database-url", self.database_url]
        self.spawned.spawn(serve_command(*options))
        await self.spawned.aready(f"{self.http}/api/info", STARTUP_SECONDS)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing (the whole process group)."""
        self.spawned.kill()

    def stop(self) -> None:
        self.spawned.stop(15)


@dataclass
class Client:
    """One WebSocket client following a table: a seated player (random legal actions) or a
    spectator. It reconnects when the connection drops and goes on until the match ends.

    Everything it learns is labelled with the connection it came on: connection 1 is the one
    before the kill."""

    name: str
    server: Server
    token: str
    table: str
    seed: int
    seat: int | None = None
    """The seat it plays (None: a spectator)."""
    hold: bool = False
    """Start no turn: finish the turn in progress, then wait at the next draw."""
    stopped: bool = False
    """Play nothing (but a forced action)."""
    forced: str | None = None
    """An action to play next whatever ``hold`` and ``stopped`` say."""
    connection: int = 0
    last_seq: int = 0
    synced: bool = False
    legal: list[str] | None = None
    pending: tuple[str, str] | None = None
    """(ref, action) sent and not yet answered."""
    next_send: float = 0.0
    refs: int = 0
    actions: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Action events: seq -> (action, connection)."""
    acks: list[tuple[int, int, str]] = field(default_factory=list)
    """(connection, seq, action) of each acknowledged action (``seq``: the ack's)."""
    commitments: list[tuple[int, int, str]] = field(default_factory=list)
    """(connection, smazzata number, commitment) as announced."""
    clocks: list[tuple[int, str, Message]] = field(default_factory=list)
    """(connection, what carried it, clock) for every clock received."""
    gaps: list[tuple[int, int, int]] = field(default_factory=list)
    errors: list[tuple[int, Message]] = field(default_factory=list)
    chats: list[tuple[int, list[Message]]] = field(default_factory=list)
    """(connection, the chat of a snapshot)."""
    said: list[tuple[int, str]] = field(default_factory=list)
    """(connection, text) of each chat event."""
    say: str | None = None
    """A chat message to send."""
    firsts: list[str] = field(default_factory=list)
    """Per connection, the type of the first message about the table (snapshot, event...)."""
    match_end: Message | None = None
    number: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    quit: bool = False
    """Stop (close the connection, do not reconnect)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- the connection --

    async def run(self) -> None:
        while self.match_end is None and not self.quit:
            with contextlib.suppress(OSError, WebSocketException, TimeoutError):
                await self._session()  # a dropped connection: try again
            if self.match_end is None and not self.quit:
                await asyncio.sleep(0.1)

    async def _session(self) -> None:
        async with connect(f"{self.server.ws}?token={self.token}", open_timeout=5) as ws:
            self.connection += 1
            self.synced = False
            self.pending = None
            await self._send(ws, {"type": "join", "table": self.table, "last_seq": self.last_seq})
            reader = asyncio.get_running_loop().create_task(self._read(ws))
            try:
                while self.match_end is None and not self.quit and not reader.done():
                    if self.say is not None and self.synced:
                        text, self.say = self.say, None
                        await self._send(ws, {"type": "chat", "table": self.table, "text": text})
                    choice = self._choose()
                    if choice is not None:
                        await self.act(ws, choice)
                    self.wake.clear()
                    # (asyncio.timeout, not wait_for: on Python 3.11 wait_for can lose a cancel.)
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(0.05):
                            await self.wake.wait()
                if reader.done():
                    reader.result()
            finally:
                reader.cancel()
                # (Not `suppress(CancelledError)`: that would swallow this task's own cancel.)
                await asyncio.gather(reader, return_exceptions=True)

    async def _read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            self._handle(json.loads(raw))
            self.wake.set()

    async def _send(self, ws: ClientConnection, message: Message) -> None:
        now = time.monotonic()
        if now < self.next_send:
            await asyncio.sleep(self.next_send - now)
        self.next_send = time.monotonic() + PACE
        await ws.send(json.dumps(message))

    async def act(self, ws: ClientConnection, action: str) -> None:
        self.refs += 1
        ref = f"{self.name}-{self.refs}"
        self.pending = (ref, action)
        await self._send(ws, {"type": "act", "table": self.table, "action": action, "ref": ref})

    def _choose(self) -> str | None:
        legal = self.legal
        if not self.synced or self.pending is not None or not legal or self.match_end:
            return None
        if self.forced is not None:
            forced, self.forced = self.forced, None
            return forced
        if self.stopped:
            return None
        draws = [a for a in legal if a.split()[1] == "draw"]
        if self.hold and draws:
            return None
        # Random legal play, drawing from the stock most of the time so smazzate stay short.
        if draws and self.rng.random() < 0.8:
            return draws[0]
        return self.rng.choice(legal)

    # -- what the server says --

    def _handle(self, message: Message) -> None:
        kind = message["type"]
        if len(self.firsts) < self.connection and kind in ("snapshot", "event", "synced"):
            self.firsts.append(kind)
        if kind == "snapshot":
            self.last_seq = message["seq"]
            self.synced = True
            self.legal = message["legal"]
            match = message["match"]
            if match is not None:
                self.number = match["number"]
                if message["commitment"] is not None:
                    self.commitments.append(
                        (self.connection, match["number"], message["commitment"])
                    )
                if message["info"]["status"] == "finished" and match["ended"]:
                    self.match_end = {"totals": match["totals"], "ended": match["ended"]}
            if message["clock"] is not None:
                self.clocks.append((self.connection, "snapshot", message["clock"]))
            self.chats.append((self.connection, message["chat"]))
        elif kind == "event":
            seq = message["seq"]
            if seq != self.last_seq + 1:
                self.gaps.append((self.connection, self.last_seq, seq))
            self.last_seq = seq
            event = message["kind"]
            if "legal" in message:
                self.legal = message["legal"]
            if message.get("clock") is not None:
                self.clocks.append((self.connection, event, message["clock"]))
            if event == "action":
                self.actions[seq] = (message["action"], self.connection)
            elif event == "dealt":
                self.number = message["number"]
                self.commitments.append((self.connection, message["number"], message["commitment"]))
            elif event == "match_end":
                self.match_end = message
            elif event == "chat":
                self.said.append((self.connection, message["text"]))
        elif kind == "synced":
            self.last_seq = message["seq"]
            self.synced = True
            if "legal" in message:
                self.legal = message["legal"]
            if message.get("clock") is not None:
                self.clocks.append((self.connection, "synced", message["clock"]))
        elif kind == "ack":
            if self.pending is not None and message.get("ref") == self.pending[0]:
                self.acks.append((self.connection, message["seq"], self.pending[1]))
                self.pending = None
        elif kind == "error":
            self.errors.append((self.connection, message))
            if self.pending is not None and message.get("ref") == self.pending[0]:
                self.pending = None

    # -- for the test --

    @property
    def idle(self) -> bool:
        return self.synced and self.pending is None

    def seen_before_kill(self) -> dict[int, str]:
        return {seq: a for seq, (a, conn) in self.actions.items() if conn == 1}


@dataclass
class Table:
    id: str
    name: str
    clients: list[Client]
    record: str = ""


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def make_users(database_url: str, names: list[str]) -> dict[str, str]:
    """Accounts and session tokens, written straight to the server's database (the HTTP login
    is rate limited per address, and the sessions must survive the restart anyway)."""

    async def create() -> dict[str, str]:
        store = await Store.open(database_url)
        try:
            tokens = {}
            for name in names:
                user = await store.create_user(name, None, guest=True)
                tokens[name] = await store.create_session(user.id)
            return tokens
        finally:
            await store.close()

    return asyncio.run(create())


async def create_tables(server: Server, tokens: dict[str, str]) -> dict[str, Table]:
    def auth(name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[name]}"}

    tables: dict[str, Table] = {}
    async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:

        async def table(name: str, creator: str, body: Message, sitters: dict[str, int]) -> None:
            answer = await http.post("/api/tables", json=body, headers=auth(creator))
            assert answer.status_code == 201, answer.text
            table_id = answer.json()["id"]
            for user, seat in sitters.items():
                sat = await http.post(
                    f"/api/tables/{table_id}/sit", json={"seat": seat}, headers=auth(user)
                )
                assert sat.status_code == 200, sat.text
            seats: dict[str, int | None] = {"watcher": None}  # a spectator at a bots' table
            if body.get("seat", 0) is not None:
                seats = {creator: 0, **sitters}
            clients = [
                Client(
                    f"{name}:{user}",
                    server,
                    tokens[user],
                    table_id,
                    seed=zlib.crc32(user.encode()),
                    seat=seat,
                )
                for user, seat in seats.items()
            ]
            tables[name] = Table(table_id, name, clients)

        await table("duo", "ada", {"players": 2, "smazzate": 1}, {"bea": 1})
        await table(
            "quad",
            "cai",
            {
                "players": 4,
                "smazzate": 2,
                "between_smazzate": 0.5,
                "bots": {"1": "random", "3": "greedy"},
            },
            {"dan": 2},
        )
        await table(
            "timed",
            "eva",
            {"players": 2, "smazzate": 1, "round_seconds": 600, "hand_seconds": 120},
            {"fil": 1},
        )
        await table(
            "bots",
            "ada",
            {
                "players": 2,
                "smazzate": 3,
                "between_smazzate": 2.0,
                "seat": None,
                "bots": {"0": "random", "1": "greedy"},
            },
            {},
        )
    return tables


def check_record(table: Table, folder: Path) -> str:
    """Replay the record and compare it with what the clients saw; returns a summary line."""
    path = folder / f"{table.name}.toml"
    path.write_text(table.record, encoding="utf-8")
    assert burraco_main(["replay", str(path)]) == 0, table.name
    record = read_record(table.record)
    result = replay(record)
    assert result.error is None, (table.name, result.error)
    ends = [c.match_end for c in table.clients]
    assert all(end is not None and end["totals"] == list(result.totals) for end in ends), (
        table.name,
        ends,
        result.totals,
    )
    played = [str(action) for hand in record.hands for action in hand.actions]
    # Every action seen before the kill (and so every acknowledged one) is in the record, in
    # order: together they are the beginning of the record's actions.
    seen: dict[int, str] = {}
    for client in table.clients:
        for seq, action in client.seen_before_kill().items():
            assert seen.setdefault(seq, action) == action, (table.name, seq)
    before = [seen[seq] for seq in sorted(seen)]
    assert len(before) > 0, table.name
    if all(client.firsts[:1] != ["snapshot"] for client in table.clients):
        assert played[: len(before)] == before, table.name
    else:  # a spectator that joined late saw one stretch of the record (without gaps)
        starts = range(len(played) - len(before) + 1)
        assert any(played[i : i + len(before)] == before for i in starts), table.name
    # What each client played before the kill: its seat's actions seen before the kill (no
    # bot played for it), all acknowledged but perhaps the last (killed between the two).
    acked = 0
    for client in table.clients:
        mine = [a for _, a in sorted(seen.items()) if int(a.split()[0]) == client.seat]
        acks = [(seq, a) for connection, seq, a in client.acks if connection == 1]
        assert [a for _, a in acks] == mine[: len(acks)], (client.name, acks, mine)
        assert len(mine) - len(acks) <= 1, (client.name, acks, mine)
        # (An ack's seq is the action's event number, or later when the action ended the
        # smazzata and more events came with it.)
        event_seqs = [s for s, a in sorted(seen.items()) if int(a.split()[0]) == client.seat]
        assert all(ack >= event for (ack, _), event in zip(acks, event_seqs, strict=False))
        acked += len(acks)
    # Fair deals: the commitments announced (before the kill and after) are the record's, and
    # each revealed deck and salt hash to their commitment.
    fairness = record.meta["fairness"]
    assert len(fairness) == len(record.hands), table.name
    for entry, hand in zip(fairness, record.hands, strict=True):
        assert hand.deck is not None
        assert commitment_of(deck_text(hand.deck), entry["salt"]) == entry["commitment"]
    announced = {(n, c) for client in table.clients for _, n, c in client.commitments}
    before_kill = {
        (n, c) for client in table.clients for conn, n, c in client.commitments if conn == 1
    }
    assert before_kill, table.name
    for number, commitment in announced:
        assert fairness[number - 1]["commitment"] == commitment, (table.name, number)
    # The deals made from the server's secret and the seeds (none here) kept all of it across
    # the restart: each deck is still the one they give, as ``burraco verify`` checks.
    rules = record.ruleset()
    checks = check_fairness(
        fairness, [h.deck for h in record.hands], players=rules.players, jokers=rules.jokers
    )
    assert all(c.ok and c.seeded and c.derived for c in checks), (table.name, checks)
    return (
        f"{table.name}: {len(played)} actions in {len(record.hands)} smazzate, {len(before)}"
        f" seen and {acked} acknowledged before the kill, totals {list(result.totals)}"
    )


@contextlib.contextmanager
def database(backend: str, folder: Path) -> Iterator[tuple[str, str | None]]:
    """(URL to prepare the database with, --database-url for the server or None)."""
    if backend == "sqlite":
        (folder / "data").mkdir()
        yield f"sqlite:///{folder / 'data' / 'burraco.db'}", None
        return
    with postgres.temporary_database("burraco_crash") as url:
        yield url, url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_match_loses_nothing(backend: str, tmp_path: Path) -> None:
    with database(backend, tmp_path) as (prepare_url, server_url):
        tokens = make_users(prepare_url, ["ada", "bea", "cai", "dan", "eva", "fil", "watcher"])
        server = Server(tmp_path, server_url)
        try:
            summary = asyncio.run(crash_and_finish(server, tokens, tmp_path))
        except BaseException:
            print(server.log()[-20_000:])
            raise
        finally:
            server.stop()
    log = server.log()
    assert "Traceback" not in log and "ERROR" not in log, log[-20_000:]
    print("\n".join(summary))


async def crash_and_finish(server: Server, tokens: dict[str, str], folder: Path) -> list[str]:
    async with asyncio.timeout(TEST_SECONDS):
        return await _crash_and_finish(server, tokens, folder)


async def _crash_and_finish(server: Server, tokens: dict[str, str], folder: Path) -> list[str]:
    started = time.monotonic()
    await server.start()
    tables = await create_tables(server, tokens)
    clients = [c for t in tables.values() for c in t.clients]
    tasks = [asyncio.get_running_loop().create_task(c.run()) for c in clients]
    try:
        return await _scenario(
            server, tables, tasks=tasks, tokens=tokens, folder=folder, started=started
        )
    finally:
        await stop_clients(clients, tasks)


async def stop_clients(clients: list[Client], tasks: list[asyncio.Task[None]]) -> None:
    for client in clients:
        client.quit = True
        client.wake.set()
    await asyncio.wait(tasks, timeout=5)
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=5)


async def _scenario(
    server: Server,
    tables: dict[str, Table],
    *,
    tasks: list[asyncio.Task[None]],
    tokens: dict[str, str],
    folder: Path,
    started: float,
) -> list[str]:
    played = ("duo", "quad", "timed")
    duo, timed = tables["duo"].clients, tables["timed"].clients

    def actions(name: str) -> int:
        return max(len(c.actions) for c in tables[name].clients)

    duo[0].say = CHAT
    await until(lambda: actions("timed") >= ACTIONS_BEFORE_KILL, 60, "play at the timed table")

    # The timed table stops with the turn at its draw; the player on turn waits a second and
    # draws, and the server is killed with that seat's clock running since the turn began.
    for client in timed:
        client.hold = True

    def on_turn() -> Client | None:
        for client in timed:
            if client.idle and client.legal and any(a.split()[1] == "draw" for a in client.legal):
                return client
        return None

    await until(lambda: all(c.idle for c in timed) and on_turn() is not None, 30, "timed hold")
    drawer = on_turn()
    assert drawer is not None and drawer.legal is not None
    for client in timed:
        client.stopped = True
    await asyncio.sleep(1.0)
    acks = len(drawer.acks)
    drawer.forced = next(a for a in drawer.legal if a.split()[1] == "draw")
    drawer.wake.set()
    await until(lambda: len(drawer.acks) > acks, 10, "the timed draw")
    await asyncio.sleep(0.2)  # the draw's event has reached both clients
    assert all(c.idle for c in timed)
    banks_before = [c.clocks[-1][2]["banks"] for c in timed]
    assert banks_before[0] == banks_before[1]
    turn = timed.index(drawer)

    await until(
        lambda: (
            all(actions(n) >= ACTIONS_BEFORE_KILL for n in played)
            and all((1, CHAT) in c.said for c in duo)
        ),
        60,
        "play before the kill",
    )
    in_flight = [c.pending for c in tables["duo"].clients + tables["quad"].clients]
    for name in played:
        assert all(c.match_end is None for c in tables[name].clients), f"{name} ended too soon"
    server.kill()
    killed = time.monotonic()
    for client in [c for t in tables.values() for c in t.clients]:
        assert client.connection == 1, client.name  # all of it so far on one connection

    await asyncio.sleep(0.3)  # the clients notice and keep trying to reconnect
    restarting = time.time()
    await server.start()
    restarted = time.monotonic()

    # The timed table: right after the restart, its banks are those at the last accepted
    # action (the draw, a second into the turn) plus the grace; only the bank on turn has run
    # since, and only from the restart on; the turn timer starts again.
    await until(lambda: all(c.connection > 1 and c.synced for c in timed), 30, "timed rejoin")
    for client, before in zip(timed, banks_before, strict=True):
        _, carrier, clock = next(c for c in client.clocks if c[0] > 1)
        assert carrier == "snapshot" and clock["running"] == turn, (carrier, clock)
        ran = clock["server_time"] - restarting
        for seat, (old, new) in enumerate(zip(before, clock["banks"], strict=True)):
            expected = old + GRACE
            if seat == turn:
                assert expected - ran - 0.01 <= new <= expected + 0.01, (seat, old, new, ran)
            else:
                assert abs(new - expected) <= 0.01, (seat, old, new)
        assert 120 - ran - 0.01 <= clock["turn_left"] <= 120 + 0.01, (clock, ran)
    for client in timed:
        client.hold = client.stopped = False

    await asyncio.wait_for(asyncio.gather(*tasks), FINISH_SECONDS)
    finished = time.monotonic()

    summary = [
        f"killed after {killed - started:.1f}s, back in {restarted - killed:.1f}s, finished"
        f" {finished - restarted:.1f}s later; {sum(p is not None for p in in_flight)} actions"
        " in flight at the kill"
    ]
    async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
        for table in tables.values():
            answer = await http.get(f"/api/tables/{table.id}/record", params={"match": 1})
            assert answer.status_code == 200, (table.name, answer.text)
            table.record = answer.text
    for table in tables.values():
        summary.append(check_record(table, folder))
        for client in table.clients:
            # Within a connection the events are numbered without gaps, and nothing a client
            # sent was refused (a stale last_seq is answered with a snapshot, as documented).
            assert client.gaps == [], (client.name, client.gaps)
            refused = [m for _, m in client.errors if m.get("code") != "stale"]
            assert refused == [], (client.name, refused)
            # A client that reconnects after the restart gets a snapshot (docs/protocol.md).
            assert all(first == "snapshot" for first in client.firsts[1:]), client.firsts
    # The sessions survived: every player got back in with the token it had before the kill;
    # the chat said before the kill is in the tables's chat after it.
    assert all(c.connection >= 2 for name in played for c in tables[name].clients)
    for client in duo:
        after = [chat for connection, chat in client.chats if connection > 1]
        assert after and any(line["text"] == CHAT for line in after[0]), after

    # Another restart (a clean one), then a rematch at a table that finished before it: the
    # new match's events are numbered after the old one's (they share the table's log).
    server.stop()
    await server.start()
    last_seen = max(c.last_seq for c in duo)
    async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
        answer = await http.post(
            f"/api/tables/{tables['duo'].id}/rematch",
            headers={"Authorization": f"Bearer {tokens['ada']}"},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["match_no"] == 2 and answer.json()["status"] == "playing"
    watcher = Client("rematch", server, tokens["watcher"], tables["duo"].id, seed=0)
    watching = asyncio.get_running_loop().create_task(watcher.run())
    try:
        await until(lambda: watcher.synced, 30, "the rematch snapshot")
    finally:
        await stop_clients([watcher], [watching])
    # (Numbered from 1 again, its actions would collide with match 1's in the log.)
    assert watcher.last_seq > last_seen and watcher.firsts == ["snapshot"]
    assert [n for _, n, _ in watcher.commitments] == [1]
    return summary
