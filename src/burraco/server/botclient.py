"""The client side of a bot account (``burraco bot-connect``, docs/bot-protocol.md "Playing
online: bot-connect"): it connects to a server with the bot's token, over the same WebSocket
protocol and HTTP API as the browser, takes the tables it is invited or challenged to (and,
if asked, queues for quick play), and for each of its seat's decisions asks an outside program
that speaks the line protocol (``burraco.bots.external.ExternalBot``), sending the answer as
an ``act`` message.

Faults are the arena's: a late, illegal or nonsense answer, or a crashed program, loses the
move to RULES.md T13's default (``auto_play_choice``), which the connector sends itself, so the
table goes on whatever the program does and whatever clock the table has (an untimed table has
no turn timer to play for it). A crashed program is not restarted within the match (as in the
arena: every later decision is the default, counted as ``crashed``); a fresh one starts for the
next match. A dropped socket is opened again and every table joined with its last event
number, as the browser does.

The HTTP calls use the standard library (``urllib`` in a thread) and the socket the
``websockets`` package, which the server extra already has (uvicorn's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Final, cast
from urllib.parse import urlsplit, urlunsplit

from burraco.bots.external import ExternalBot
from burraco.engine import Action, NotationError, Rules
from burraco.engine.cards import NUM_TYPES, Card
from burraco.engine.views import SeatView

from .clock import Clock, SystemClock
from .tableconfig import TableConfig

log = logging.getLogger("burraco.botconnect")

ACCEPT_KINDS: Final = ("challenges", "quickplay")
"""What ``--accept`` may name: invitations and challenges, quick play."""
RECONNECT_DELAYS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds between attempts to open a dropped socket again (the last one repeats)."""


Opener = Callable[[str, dict[str, str]], AbstractAsyncContextManager[Any]]
"""Opens the WebSocket at a URL with these headers: a socket with ``recv``, ``send``,
``close`` and async iteration over its frames (the ``websockets`` client's, or a test's)."""


def open_websocket(url: str, headers: dict[str, str]) -> AbstractAsyncContextManager[Any]:
    """The real socket: the ``websockets`` package's client (the server extra has it)."""
    from websockets.asyncio.client import connect

    return connect(url, additional_headers=headers, max_size=1 << 22, open_timeout=20)


class ConnectError(Exception):
    """The server refused the bot for good (a bad or revoked token, not a bot account)."""


@dataclass(frozen=True, slots=True)
class WireView:
    """A seat's view as the server sends it (``SeatView.to_json``), with the few attributes an
    ``ExternalBot`` and T13's ``auto_play_choice`` read from a ``SeatView``: the program is
    given the very JSON the server sent, and the default move needs only the hand, the card
    drawn and the rules."""

    rules: Rules
    data: dict[str, Any]
    hand: tuple[int, ...]
    hidden_own: int
    drawn: int

    @property
    def seat(self) -> int:
        return int(self.data["seat"])

    @property
    def players(self) -> int:
        return int(self.data["players"])

    def to_json(self) -> dict[str, Any]:
        return self.data

    @classmethod
    def of(cls, rules: Rules, data: dict[str, Any]) -> WireView:
        counts = [0] * NUM_TYPES
        for text in data.get("hand") or []:
            counts[Card.parse(str(text))] += 1
        drawn = data.get("drawn")
        return cls(
            rules,
            data,
            tuple(counts),
            int(data.get("hidden_pozzetto") or 0),
            Card.parse(drawn) if isinstance(drawn, str) else -1,
        )

    def as_seat_view(self) -> SeatView:
        """For the bot interfaces, typed on ``SeatView``: only the attributes above are read."""
        return cast(SeatView, self)


@dataclass
class TablePlay:
    """One table the bot plays at."""

    id: str
    last_seq: int | None = None
    seat: int | None = None
    rules: Rules | None = None
    program: ExternalBot | None = None
    pending: tuple[int, str] | None = None
    """(event number, action) of the move sent and not yet acknowledged."""
    legal: list[Action] = field(default_factory=list)
    view: WireView | None = None
    over: bool = False


@dataclass
class Settings:
    server: str
    token: str
    command: str
    accept: tuple[str, ...] = ("challenges",)
    games: int | None = None
    """Matches to play before stopping (None: until stopped)."""
    tables: tuple[str, ...] = ()
    """Tables to sit at (or rejoin) at start."""
    time_limit: float = 1.0
    players: int = 2
    rules: str = "italian"
    clock: str = "none"
    rated: bool = False
    bots_after: float | None = None
    stderr_path: str | None = None


class BotClient:
    """``clock``: what the connector waits on (reconnection delays); ``connect``: how it
    opens its socket. Both are the real ones unless a test gives its own (a ``FakeClock``, the
    app's WebSocket in process)."""

    def __init__(
        self,
        settings: Settings,
        *,
        say: Callable[[str], None] | None = None,
        clock: Clock | None = None,
        connect: Opener = open_websocket,
    ) -> None:
        self.settings = settings
        self.say = say or (lambda text: log.info("%s", text))
        self.clock: Clock = clock or SystemClock()
        self._connect = connect
        parts = urlsplit(settings.server.rstrip("/"))
        scheme = {"https": "wss", "http": "ws"}.get(parts.scheme, parts.scheme)
        self.http_base = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        self.ws_url = urlunsplit((scheme, parts.netloc, f"{parts.path}/ws", "", ""))
        self.tables: dict[str, TablePlay] = {}
        self.finished = 0
        self.reports: list[dict[str, Any]] = []
        """One ``ExternalBot.report()`` per match played (faults, crashes, times)."""
        self.name: str | None = None
        self._socket: Any = None
        self._queued = False
        self._done = asyncio.Event()
        self._refs = 0
        self._closing: asyncio.Future[None] | None = None
        self._looked_at: set[str] = set()
        """Tables of invitations already looked at (``_missed_invitations``)."""

    # ------------------------------------------------------------------------------- HTTP

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """An HTTP call with the bot's token: the JSON answer, or ``ServerRefusal``."""

        def call() -> Any:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(
                self.http_base + path,
                data=data,
                method=method,
                headers={
                    "Authorization": f"Bearer {self.settings.token}",
                    "Content-Type": "application/json",
                },
            )
            try:
                with urllib.request.urlopen(request, timeout=20) as answer:
                    raw = answer.read()
            except urllib.error.HTTPError as error:
                text = error.read().decode(errors="replace")
                try:
                    found = json.loads(text)
                except ValueError:
                    found = {"error": str(error.code), "message": text[:200]}
                raise ServerRefusal(error.code, found) from None
            return json.loads(raw) if raw else None

        return await asyncio.to_thread(call)

    # ------------------------------------------------------------------------------ running

    async def run(self) -> int:
        """Play until ``games`` matches are over (or for ever): 0, or 2 when the server
        refuses the token."""
        me = await self._whoami()
        if me is None:
            return 2
        if not me.get("bot"):
            self.say(f"{me.get('name')} is not a bot account: create one on the account page")
            return 2
        self.name = str(me["name"])
        self.say(f"connected as bot {self.name}")
        for table in self.settings.tables:
            await self._take(table)
        attempt = 0
        try:
            while not self._done.is_set():
                try:
                    await self._session()
                    attempt = 0
                except ConnectError as error:
                    self.say(str(error))
                    return 2
                except (OSError, ConnectionError, TimeoutError) as error:
                    self.say(f"connection lost ({type(error).__name__}); connecting again")
                except Exception as error:
                    if type(error).__module__.startswith("websockets"):
                        self.say(f"connection lost ({error}); connecting again")
                    else:
                        raise
                if self._done.is_set():
                    break
                await self.clock.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1
        finally:
            for play in self.tables.values():
                self._close_program(play)
            if self._queued:
                with contextlib.suppress(Exception):
                    await self.http("DELETE", "/api/quickplay")
        return 0

    async def _whoami(self) -> dict[str, Any] | None:
        """``/api/me`` with the token: the bot's account, or None when the server refuses the
        token. A server that cannot answer yet (not up, restarting, overloaded: a network
        error, a timeout, 429 or 5xx) is asked again after 0.5 s, 1 s, ... 8 s, as a dropped
        socket is: the connector started with its server must not die of being first."""
        attempt = 0
        while True:
            try:
                me: dict[str, Any] = await self.http("GET", "/api/me")
                return me
            except ServerRefusal as refusal:
                if refusal.status != 429 and refusal.status < 500:
                    self.say(f"the server refused the token: {refusal}")
                    return None
                problem = str(refusal)
            except (OSError, TimeoutError) as error:  # URLError is an OSError
                problem = f"{type(error).__name__}: {error}"
            delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
            self.say(f"the server does not answer yet ({problem}); trying again in {delay:g} s")
            await self.clock.sleep(delay)
            attempt += 1

    def stop(self) -> None:
        self._done.set()
        socket = self._socket
        if socket is not None:
            self._closing = asyncio.ensure_future(socket.close())

    async def _session(self) -> None:
        from websockets.exceptions import ConnectionClosed

        headers = {"Authorization": f"Bearer {self.settings.token}"}
        async with self._connect(self.ws_url, headers) as socket:
            self._socket = socket
            try:
                welcome = json.loads(await socket.recv())
                if welcome.get("type") != "welcome":
                    raise ConnectError(f"the server did not welcome the bot: {welcome}")
                for play in self.tables.values():
                    # A move sent on the socket that dropped either reached the table (its
                    # event comes in the resend) or was lost with it: decide again from the
                    # view that ``synced`` brings.
                    play.pending = None
                    if not play.over:
                        await self._send(
                            {"type": "join", "table": play.id}
                            | ({} if play.last_seq is None else {"last_seq": play.last_seq})
                        )
                await self._missed_invitations()
                await self._maybe_queue()
                async for frame in socket:
                    await self._handle(json.loads(frame))
                    if self._done.is_set():
                        break
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code == 4401:
                    raise ConnectError(
                        "the server closed the socket: the token is not valid"
                    ) from None
                if self._done.is_set():
                    return
                raise ConnectionError(f"socket closed ({code})") from None
            finally:
                self._socket = None
        if not self._done.is_set():
            raise ConnectionError("socket closed")

    async def _send(self, message: dict[str, Any]) -> None:
        socket = self._socket
        if socket is not None:
            await socket.send(json.dumps(message))

    # --------------------------------------------------------------------- finding tables

    def _room(self) -> bool:
        """Whether the bot may start another table (``games`` not all begun)."""
        live = sum(1 for p in self.tables.values() if not p.over)
        if self.settings.games is None:
            return True
        return self.finished + live < self.settings.games

    async def _take(self, table_id: str) -> bool:
        """Sit at a free seat of the table (or keep the one it holds) and follow it."""
        if table_id in self.tables and not self.tables[table_id].over:
            return True
        try:
            info = await self.http("GET", f"/api/tables/{table_id}")
            mine = [s for s in info["seats"] if s.get("name") == self.name]
            if not mine:
                if info["status"] != "open":
                    self.say(f"table {table_id} has started without the bot")
                    return False
                free = [
                    s["seat"] for s in info["seats"] if s.get("name") is None and not s.get("bot")
                ]
                if not free:
                    self.say(f"table {table_id} has no free seat")
                    return False
                await self.http("POST", f"/api/tables/{table_id}/sit", {"seat": free[0]})
        except ServerRefusal as refusal:
            self.say(f"cannot sit at table {table_id}: {refusal}")
            return False
        self.tables[table_id] = TablePlay(table_id)
        self.say(f"playing at table {table_id}")
        await self._send({"type": "join", "table": table_id})
        return True

    async def _missed_invitations(self) -> None:
        """The invitations that came while the socket was not open (at start, or while it was
        dropped): the server keeps each player's last ten (``GET /api/friends``), and a table
        still waiting for players is taken as if the invitation had just arrived."""
        if "challenges" not in self.settings.accept:
            return
        try:
            found = await self.http("GET", "/api/friends")
        except ServerRefusal as refusal:
            self.say(f"cannot read the invitations: {refusal}")
            return
        for invitation in found.get("invitations") or []:
            table = invitation.get("table")
            if not isinstance(table, str) or table in self.tables or table in self._looked_at:
                continue
            self._looked_at.add(table)
            if not self._room():
                return
            try:
                info = await self.http("GET", f"/api/tables/{table}")
            except ServerRefusal:
                continue
            if info.get("status") == "open":
                self.say(f"{invitation.get('kind')} from {invitation.get('by')}: accepted")
                await self._take(table)

    async def _maybe_queue(self) -> None:
        if "quickplay" not in self.settings.accept or self._queued or not self._room():
            return
        if any(not p.over for p in self.tables.values()):
            return  # one quick-play table at a time
        settings = self.settings
        try:
            answer = await self.http(
                "POST",
                "/api/quickplay",
                {
                    "players": settings.players,
                    "rules": settings.rules,
                    "clock": settings.clock,
                    "rated": settings.rated,
                    "bots_after": settings.bots_after,
                },
            )
        except ServerRefusal as refusal:
            if refusal.code != "conflict":  # already waiting (after a reconnect): fine
                self.say(f"quick play refused: {refusal}")
                return
            answer = await self.http("GET", "/api/quickplay")
        self._queued = True
        if answer.get("status") == "seated" and answer.get("table"):
            self._queued = False
            await self._seated(str(answer["table"]))
        else:
            self.say("waiting in quick play")

    async def _seated(self, table_id: str) -> None:
        if table_id not in self.tables:
            self.tables[table_id] = TablePlay(table_id)
            self.say(f"quick play: playing at table {table_id}")
            await self._send({"type": "join", "table": table_id})

    # ------------------------------------------------------------------------------ messages

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "invitation":
            if "challenges" in self.settings.accept and self._room():
                by, table = message.get("by"), str(message.get("table"))
                self._looked_at.add(table)
                self.say(f"{message.get('kind')} from {by}: accepted")
                await self._take(table)
            return
        if kind == "quickplay":
            self._queued = False
            await self._seated(str(message["table"]))
            return
        where = message.get("table")
        play = self.tables.get(where) if isinstance(where, str) else None
        if play is None:
            return
        if kind == "snapshot":
            play.last_seq = int(message["seq"])
            play.seat = message.get("you")
            config = (message.get("info") or {}).get("config") or {}
            play.rules = TableConfig.from_json(dict(config)).ruleset()
            await self._offer(play, message.get("view"), message.get("legal"))
        elif kind == "synced":
            play.last_seq = int(message["seq"])
            await self._offer(play, message.get("view"), message.get("legal"))
        elif kind == "event":
            await self._event(play, message)
        elif kind == "error":
            await self._refused(play, message)

    async def _event(self, play: TablePlay, message: dict[str, Any]) -> None:
        seq = int(message["seq"])
        if play.last_seq is not None and seq <= play.last_seq:
            return
        play.last_seq = seq
        event = message.get("kind")
        if event in ("dealt", "action", "resumed"):
            if "view" in message:  # a live event; a resent one is compact (synced follows)
                await self._offer(play, message.get("view"), message.get("legal"))
        elif event == "smazzata_end":
            score = message.get("score")
            if play.program is not None and isinstance(score, dict):
                payload = dict(score) | {"totals": message.get("totals")}
                await asyncio.to_thread(play.program.notify_result, payload)
            if "next_deal_at" in message:  # the score sheet is read: the next deal may come
                await self._send({"type": "ready", "table": play.id})
        elif event in ("match_end", "cancelled"):
            await self._finish(play, message)

    async def _finish(self, play: TablePlay, message: dict[str, Any]) -> None:
        if play.over:
            return
        play.over = True
        program = play.program
        self._close_program(play)
        if message.get("kind") == "match_end":
            self.finished += 1
            report = program.report() if program is not None else {}
            self.reports.append(report)
            faults = report.get("faults") or {}
            lost = ", ".join(f"{k} {v}" for k, v in faults.items() if v) or "none"
            self.say(
                f"match over at table {play.id}: totals {message.get('totals')}, winner"
                f" {message.get('winner')}; moves lost: {lost}"
                + (f"; crashed: {report.get('crash_reason')}" if report.get("crashes") else "")
            )
        else:
            self.say(f"table {play.id} was cancelled")
        await self._send({"type": "leave", "table": play.id})
        games = self.settings.games
        if (
            games is not None
            and self.finished >= games
            and all(p.over for p in self.tables.values())
        ):
            self._done.set()
            return
        await self._maybe_queue()

    async def _refused(self, play: TablePlay, message: dict[str, Any]) -> None:
        """A refused message. A refused move was in the server's legal list, so the table has
        moved on (its turn timer played first): the event that says so brings the next
        decision. Nothing is sent again here (a refusal must never start a loop)."""
        self.say(f"table {play.id}: {message.get('code')}: {message.get('message')}")
        if message.get("ref") is not None:
            play.pending = None

    # ------------------------------------------------------------------------------ deciding

    async def _offer(self, play: TablePlay, view: Any, legal: Any) -> None:
        """Decide when the server says the seat has legal actions."""
        if not isinstance(view, dict) or not legal or play.rules is None or play.seat is None:
            return
        if view.get("current") != play.seat or view.get("phase") == "over":
            return
        if play.pending is not None and play.pending[0] == play.last_seq:
            return  # already answered at this event (a snapshot after a resend, ...)
        try:
            actions = [Action.parse(str(text)) for text in legal]
        except NotationError:
            return
        wire = WireView.of(play.rules, view)
        play.view, play.legal = wire, actions
        program = play.program
        if program is None:
            program = play.program = ExternalBot(
                self.settings.command,
                time_limit=self.settings.time_limit,
                stderr_path=self.settings.stderr_path,
                name=self.name,
            )
        action = await asyncio.to_thread(_choose, program, wire, actions)
        await self._act(play, action)

    async def _act(self, play: TablePlay, action: Action) -> None:
        self._refs += 1
        ref = f"b{self._refs}"
        play.pending = (play.last_seq or 0, str(action))
        await self._send({"type": "act", "table": play.id, "action": str(action), "ref": ref})

    def _close_program(self, play: TablePlay) -> None:
        if play.program is not None:
            play.program.close()
            play.program = None


def _choose(program: ExternalBot, view: WireView, legal: Sequence[Action]) -> Action:
    start = time.monotonic()
    action = program.choose(view.as_seat_view(), legal)
    log.debug("decided %s in %.3f s", action, time.monotonic() - start)
    return action


class ServerRefusal(Exception):
    """An HTTP error answer: ``code`` (the body's ``error``), ``status`` and the message."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.code = str(body.get("error"))
        self.body = body
        super().__init__(f"{status} {self.code}: {body.get('message')}")
