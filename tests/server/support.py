"""What the server's play tests use: HTTP helpers and a WebSocket client that follows a table
and can play it (random legal actions, seeded), against any ``harness.Server``.

Nothing here is a mock: the server is the real app, in process (``inprocess.AppServer``, the
default) or in a real process (``_live.LiveServer``); the clients speak HTTP (httpx) and
WebSocket to it like any other program would.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

import httpx

from .harness import AsyncSocket, Server

Message = dict[str, Any]
"""One JSON message received from (or sent to) the server."""

# ---------------------------------------------------------------------------------------- HTTP


@dataclass(frozen=True)
class User:
    id: int
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Api:
    """The HTTP API as a program uses it (bearer tokens, JSON)."""

    def __init__(self, server: Server) -> None:
        self.http: httpx.AsyncClient = server.async_client()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.http.aclose()

    def _user(self, response: httpx.Response, status: int) -> User:
        assert response.status_code == status, response.text
        self.http.cookies.clear()  # programs use the token, not the browser's cookie
        body = response.json()
        return User(body["user"]["id"], body["user"]["name"], body["token"])

    async def guest(self) -> User:
        return self._user(await self.http.post("/api/guest"), 200)

    async def register(self, name: str, password: str = "a good password") -> User:
        response = await self.http.post("/api/register", json={"name": name, "password": password})
        return self._user(response, 201)

    async def create_table(self, user: User, **body: Any) -> dict[str, Any]:
        response = await self.http.post("/api/tables", json=body, headers=user.headers)
        assert response.status_code == 201, response.text
        info: dict[str, Any] = response.json()
        return info

    async def sit(self, user: User, table: str, seat: int) -> dict[str, Any]:
        response = await self.http.post(
            f"/api/tables/{table}/sit", json={"seat": seat}, headers=user.headers
        )
        assert response.status_code == 200, response.text
        info: dict[str, Any] = response.json()
        return info

    async def seat_bot(self, user: User, table: str, seat: int, level: str) -> dict[str, Any]:
        response = await self.http.post(
            f"/api/tables/{table}/bots", json={"seat": seat, "level": level}, headers=user.headers
        )
        assert response.status_code == 200, response.text
        info: dict[str, Any] = response.json()
        return info

    async def record(self, table: str, match: int = 1) -> str:
        response = await self.http.get(f"/api/tables/{table}/record", params={"match": match})
        assert response.status_code == 200, response.text
        return response.text


# ------------------------------------------------------------------------------------ WebSocket


def is_kind(kind: str) -> Callable[[Message], bool]:
    """A predicate: the message is an event of this kind."""
    return lambda message: message.get("type") == "event" and message.get("kind") == kind


is_match_end = is_kind("match_end")


class ServerRefused(AssertionError):
    """The server refused something a test client sent (an ``error`` message)."""


@dataclass
class Session:
    """One WebSocket connection of a client: how it joined and what it received."""

    last_seq: int | None
    received: list[tuple[int | None, Message]] = field(default_factory=list)
    """Each message with the seat the connection had once it arrived (None: spectator)."""


class TableClient:
    """Follows one table over a WebSocket, keeps the latest snapshot/view/legal/seq and,
    when asked to play, answers every turn of its seat with a random legal action (seeded).

    A player sends one action per ``legal`` list it receives (the list is used up when the
    action goes out; the next ``view``/``legal`` comes with the event of that action), so
    unrelated events in between (chat, seats) never make it act twice on an old list.
    """

    def __init__(
        self, server: Server, user: User, table: str, *, seed: int = 0, think: float = 0
    ) -> None:
        self.server = server
        self.user = user
        self.table = table
        self.rng = random.Random(seed)
        self.think = think
        """Seconds to wait before each action (a human-like pause)."""
        self.hold = False
        """While true the client reads messages but does not play."""
        self.reads_sheets = True
        """A seated client closes each score sheet at once (sends ``ready``), as a person
        clicking "Continua" does; false: it never does (the deal waits ``sheet_seconds``)."""
        self.ws: AsyncSocket | None = None
        self.sessions: list[Session] = []
        self.you: int | None = None
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[str] | None = None
        self.clock: dict[str, Any] | None = None
        self.snapshot: Message | None = None
        self.match_end: Message | None = None
        self.sent: list[str] = []
        self.arrivals: dict[int, float] = {}
        """When (local ``time.time()``) each event arrived, by number."""
        self._refs = 0

    # -- the connection --

    async def connect(self, *, last_seq: int | None = None) -> None:
        """Open a connection and join the table (with ``last_seq``: ask for what was missed)."""
        assert self.ws is None, "already connected"
        self.ws = await self.server.aconnect(f"/ws?token={self.user.token}")
        self.sessions.append(Session(last_seq))
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        assert welcome["user"]["name"] == self.user.name
        join: Message = {"type": "join", "table": self.table}
        if last_seq is not None:
            join["last_seq"] = last_seq
        await self.send(join)

    async def close(self) -> None:
        """Leave by closing the socket (as a closed browser tab or a lost network would)."""
        if self.ws is not None:
            ws, self.ws = self.ws, None
            await ws.close()
        self.legal = None

    async def send(self, message: Message) -> None:
        assert self.ws is not None, "not connected"
        await self.ws.send(json.dumps(message))

    async def chat(self, text: str) -> None:
        await self.send({"type": "chat", "table": self.table, "text": text})

    async def recv(self, timeout: float = 30) -> Message:
        assert self.ws is not None, "not connected"
        raw = await self.ws.recv(timeout)
        message: Message = json.loads(raw)
        self._note(message)
        self.sessions[-1].received.append((self.you, message))
        if (
            self.reads_sheets
            and message.get("kind") == "smazzata_end"
            and "next_deal_at" in message
            and self.you is not None
        ):
            await self.send({"type": "ready", "table": self.table})
        return message

    def _note(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            self.snapshot = message
            self.you = message["you"]
            self.seq = message["seq"]
            self.view = message["view"]
            self.legal = message["legal"]
            self.clock = message["clock"]
        elif kind == "synced":
            self.seq = message["seq"]
            for key in ("view", "legal", "clock"):
                if key in message:
                    setattr(self, key, message[key])
        elif kind == "event":
            self.seq = message["seq"]
            self.arrivals[self.seq] = time.time()
            if "seats" in message:
                mine = [s["seat"] for s in message["seats"] if s["name"] == self.user.name]
                self.you = mine[0] if mine else None
            if "view" in message:
                self.view = message["view"]
            if "legal" in message:
                self.legal = message["legal"]
            if "clock" in message:
                self.clock = message["clock"]
            if message["kind"] == "match_end":
                self.match_end = message

    # -- following and playing --

    async def until(
        self,
        predicate: Callable[[Message], bool],
        *,
        play: bool = False,
        timeout: float = 60,
        errors: bool = False,
    ) -> Message:
        """Read messages (playing our turns if ``play``) until one satisfies ``predicate``.
        An ``error`` from the server fails the test unless ``errors`` (then it is returned to
        the predicate like any message)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if play:
                await self._maybe_act()
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(
                    f"{self.user.name}: nothing satisfied the wait at seq {self.seq}"
                )
            try:
                message = await self.recv(timeout=min(left, 0.05 if self.hold else left))
            except TimeoutError:
                continue
            if message["type"] == "error" and not errors:
                raise ServerRefused(f"{self.user.name}: the server refused: {message}")
            if predicate(message):
                return message

    async def play(self, *, timeout: float = 90) -> Message:
        """Play to the end of the match; returns ``match_end``."""
        return await self.until(is_match_end, play=True, timeout=timeout)

    async def follow(self, *, timeout: float = 90) -> Message:
        """Watch to the end of the match (a spectator, or a player who stopped playing)."""
        return await self.until(is_match_end, timeout=timeout)

    async def _maybe_act(self) -> None:
        if self.hold or not self.legal or self.ws is None:
            return
        legal, self.legal = self.legal, None
        if self.think:
            await asyncio.sleep(self.think)
        action = self.rng.choice(legal)
        self._refs += 1
        self.sent.append(action)
        await self.send(
            {"type": "act", "table": self.table, "action": action, "ref": str(self._refs)}
        )

    # -- what was received --

    def events(self) -> list[Message]:
        """Every event received, over all connections, in order of arrival."""
        return [m for s in self.sessions for _, m in s.received if m["type"] == "event"]


async def wait_for(condition: Callable[[], bool], *, timeout: float = 30) -> None:
    """Poll ``condition`` (e.g. on what another client has received) until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("the condition did not come true in time")
        await asyncio.sleep(0.01)


# ----------------------------------------------------------------------------------- a table


@dataclass
class Played:
    """A table and everyone following it: the spectator, and one client per human seat."""

    table: str
    creator: User
    spectator: TableClient
    seats: dict[int, TableClient]
    match_end: Message | None = None

    @property
    def end(self) -> Message:
        assert self.match_end is not None, "the match has not ended"
        return self.match_end

    @property
    def clients(self) -> list[TableClient]:
        return list(self.seats.values())

    async def close(self) -> None:
        for client in [self.spectator, *self.clients]:
            await client.close()


def unique_name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:12]}"


async def joined(client: TableClient) -> TableClient:
    """Connect and wait for the table's snapshot."""
    await client.connect()
    await client.until(lambda m: m["type"] == "snapshot")
    return client


async def open_table(
    server: Server,
    *,
    players: int,
    bots: dict[int, str],
    late_sitter: bool = False,
    think: float = 0,
    registered: bool = False,
    **table: Any,
) -> Played:
    """A table whose seat 0 is a registered user who creates it, whose other seats are guests
    or server bots (``bots``: seat -> level); a spectator follows it from the start. With
    ``late_sitter`` the last guest follows the table before sitting down (its connection turns
    from spectator to player). Returns when the match has started (everyone connected)."""
    async with Api(server) as api:
        creator = await api.register(unique_name("p"))
        info = await api.create_table(
            creator, players=players, seat=0, **({"between_smazzate": 0.2} | table)
        )
        table_id = info["id"]
        assert info["status"] == "open"
        spectator = await joined(TableClient(server, await api.guest(), table_id))
        humans = [seat for seat in range(1, players) if seat not in bots]
        users: dict[int, User] = {0: creator}
        for seat in humans:  # guests, or registered people (a rated table takes no guest)
            users[seat] = await api.register(unique_name("p")) if registered else await api.guest()
        clients = {
            seat: TableClient(server, user, table_id, seed=1000 * seat + 7, think=think)
            for seat, user in users.items()
        }
        await joined(clients[0])
        last = humans[-1] if late_sitter and humans else None
        for seat in humans:
            if seat != last:
                await api.sit(users[seat], table_id, seat)
                await joined(clients[seat])
        if last is not None:
            await joined(clients[last])
            assert clients[last].you is None
        for seat, level in sorted(bots.items()):
            await api.seat_bot(creator, table_id, seat, level)
        if last is not None:
            started = await api.sit(users[last], table_id, last)
            assert started["status"] == "playing"
        return Played(table_id, creator, spectator, clients)
