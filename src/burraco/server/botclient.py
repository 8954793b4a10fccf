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

The server takes a bot account's messages at ``BOT_MESSAGES_PER_SECOND`` (server/config.py),
over all its sockets: the connector paces itself under that (``Pacer``, a token bucket on its
clock), and a message refused all the same (``rate_limited``: the account's other connectors,
a server with a lower limit) is sent again after the wait the refusal names; a move counts as
answered only once the server has taken it (issue 27, H1: matches froze for ever).

The HTTP calls use the standard library (``urllib`` in a thread) and the socket the
``websockets`` package, which the server extra already has (uvicorn's).

Why one module of about 700 lines: ``BotClient`` is one socket's loop, and its parts (taking
tables, deciding, pacing, reconnecting) read and change the same per-table state
(``TablePlay``); the pieces that stand alone (``WireView``, ``Pacer``) are small. It stays whole
until the connector is split by concern with the service layer (issue 29).
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
from .config import BOT_BURST_SECONDS, BOT_MESSAGES_PER_SECOND
from .ratelimit import Bucket
from .tableconfig import TableConfig

log = logging.getLogger("burraco.botconnect")

ACCEPT_KINDS: Final = ("challenges", "quickplay")
"""What ``--accept`` may name: invitations and challenges, quick play."""
RECONNECT_DELAYS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds between attempts to open a dropped socket again (the last one repeats)."""
PACE_SHARE: Final = 0.8
"""The share of the server's message rate the connector sends at, in bursts of half the
server's: a margin for a network that bunches messages up on their way."""


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


class Pacer:
    """The connector's own message limit: a token bucket on its clock, under the server's
    (``PACE_SHARE`` of its rate, bursts of half its burst). ``wait`` holds a message until it
    may go; ``refused`` empties the bucket for the wait the server names and takes the lower
    limit the server states (a server may be set below the default)."""

    def __init__(
        self,
        clock: Clock,
        rate: float = BOT_MESSAGES_PER_SECOND,
        burst: float = BOT_MESSAGES_PER_SECOND * BOT_BURST_SECONDS,
    ) -> None:
        self.clock = clock
        pace, most = rate * PACE_SHARE, max(1.0, burst / 2)
        self.bucket = Bucket(pace, most, most, clock.monotonic(), clock.monotonic)
        self._turn = asyncio.Lock()
        """Messages go in the order they were given (a resent move after its wait too)."""

    async def wait(self) -> None:
        async with self._turn:
            while not self.bucket.take():
                await self.clock.sleep(self.bucket.wait())

    def refused(self, seconds: float, limit: float | None, burst: float | None) -> None:
        bucket = self.bucket
        if limit is not None and limit > 0 and limit * PACE_SHARE < bucket.rate:
            bucket.rate = limit * PACE_SHARE
        if burst is not None and burst >= 1 and max(1.0, burst / 2) < bucket.burst:
            bucket.burst = max(1.0, burst / 2)
        bucket.take()  # (brings the bucket to now; a token it finds is not spent)
        bucket.tokens = min(bucket.tokens, 1.0 - max(0.0, seconds) * bucket.rate)


@dataclass
class Move:
    """A move sent to a table and not yet taken by it (its ``ack``)."""

    seq: int
    """The table's event number the move was decided at."""
    action: str
    ref: str
    taken: bool = False


@dataclass
class TablePlay:
    """One table the bot plays at."""

    id: str
    last_seq: int | None = None
    seat: int | None = None
    rules: Rules | None = None
    program: ExternalBot | None = None
    pending: Move | None = None
    """The move decided at the last decision: sent (again after a ``rate_limited``), then
    ``taken`` when the server acknowledges it; cleared by any other refusal of it."""
    unanswered: dict[str, Any] | None = None
    """The last ``join`` or ``ready`` sent to the table, until its answer (a snapshot or the
    missed events for a join, the next deal for a ready): sent again if refused."""
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
    seed: int | None = None
    """Handed to the program in ``hello`` (docs/bot-protocol.md): a program that seeds its
    random choices with it plays the same moves in the same positions (None: no seed)."""


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
        self.pacer = Pacer(self.clock)
        self.sent = 0
        """Messages sent on the socket."""
        self.refusals = 0
        """Messages the server refused as over the account's limit (and sent again)."""
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
                        await self._join(play)
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
        """Send one message when the pace allows (``Pacer``), on the socket open then."""
        if self._socket is None:
            return
        await self.pacer.wait()
        socket = self._socket
        if socket is not None:
            await socket.send(json.dumps(message))
            self.sent += 1

    async def _join(self, play: TablePlay) -> None:
        message = {"type": "join", "table": play.id} | (
            {} if play.last_seq is None else {"last_seq": play.last_seq}
        )
        play.unanswered = message
        await self._send(message)

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
        play = self.tables[table_id] = TablePlay(table_id)
        self.say(f"playing at table {table_id}")
        await self._join(play)
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
            play = self.tables[table_id] = TablePlay(table_id)
            self.say(f"quick play: playing at table {table_id}")
            await self._join(play)

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
        if play is None and kind == "error":
            play = self._sent_with(message.get("ref"))
            if play is None and message.get("code") == "rate_limited":
                # Nothing to send again: the server names the table and the move of every
                # message of the connector's it refuses (an older server did not).
                self.say(f"refused: {message.get('code')}: {message.get('message')}")
        if play is None:
            return
        if kind in ("snapshot", "synced"):
            _answered(play, "join")
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
        elif kind == "ack":
            if play.pending is not None and play.pending.ref == message.get("ref"):
                play.pending.taken = True
        elif kind == "error":
            await self._refused(play, message)

    def _sent_with(self, ref: Any) -> TablePlay | None:
        """The table whose move in flight has this ``ref``."""
        for play in self.tables.values():
            if ref is not None and play.pending is not None and play.pending.ref == ref:
                return play
        return None

    async def _event(self, play: TablePlay, message: dict[str, Any]) -> None:
        seq = int(message["seq"])
        if play.last_seq is not None and seq <= play.last_seq:
            return
        play.last_seq = seq
        event = message.get("kind")
        if event in ("shuffle", "dealt", "match_end", "cancelled"):
            _answered(play, "ready")  # the next deal has come (or none will)
        if event in ("dealt", "action", "resumed"):
            if "view" in message:  # a live event; a resent one is compact (synced follows)
                await self._offer(play, message.get("view"), message.get("legal"))
        elif event == "smazzata_end":
            score = message.get("score")
            if play.program is not None and isinstance(score, dict):
                payload = dict(score) | {"totals": message.get("totals")}
                await asyncio.to_thread(play.program.notify_result, payload)
            if "next_deal_at" in message:  # the score sheet is read: the next deal may come
                play.unanswered = {"type": "ready", "table": play.id}
                await self._send(play.unanswered)
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
        """A refused message. Over the account's message limit (``rate_limited``) it never
        reached the table: the move it names (``ref``), or the join or ready it names by its
        table alone, is sent again once the wait the server names is over, and the pace slows
        to the limit the server states. Any other refusal of a move: the move was in the
        server's legal list, so the table has moved on (its turn timer played first) and the
        event that says so brings the next decision; nothing is sent again (such a refusal
        must never start a loop)."""
        ref = message.get("ref")
        if message.get("code") == "rate_limited":
            await self._send_again(play, message, ref)
            return
        self.say(f"table {play.id}: {message.get('code')}: {message.get('message')}")
        if ref is not None and play.pending is not None and play.pending.ref == ref:
            play.pending = None

    async def _send_again(self, play: TablePlay, message: dict[str, Any], ref: Any) -> None:
        detail = message.get("detail")
        params = detail.get("params") if isinstance(detail, dict) else None
        params = params if isinstance(params, dict) else {}
        wait = _number(params.get("retry_ms"))
        self.pacer.refused(
            (wait or 0.0) / 1000, _number(params.get("limit")), _number(params.get("burst"))
        )
        self.refusals += 1
        pending, again = play.pending, None if ref is not None else play.unanswered
        if pending is not None and ref is not None and pending.ref == ref and not pending.taken:
            again = {"type": "act", "table": play.id, "action": pending.action, "ref": ref}
        if play.over:
            again = None  # (a refused ``leave``: nothing to do)
        what = "nothing to send again" if again is None else f"{again['type']} sent again"
        self.say(
            f"table {play.id}: rate_limited: {message.get('message')};"
            f" {what} after {wait or 0:g} ms"
        )
        if again is not None:
            await self._send(again)

    # ------------------------------------------------------------------------------ deciding

    async def _offer(self, play: TablePlay, view: Any, legal: Any) -> None:
        """Decide when the server says the seat has legal actions."""
        if not isinstance(view, dict) or not legal or play.rules is None or play.seat is None:
            return
        if view.get("current") != play.seat or view.get("phase") == "over":
            return
        if play.pending is not None and play.pending.seq == play.last_seq:
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
                seed=self.settings.seed,
                time_limit=self.settings.time_limit,
                stderr_path=self.settings.stderr_path,
                name=self.name,
            )
        action = await asyncio.to_thread(_choose, program, wire, actions)
        await self._act(play, action)

    async def _act(self, play: TablePlay, action: Action) -> None:
        self._refs += 1
        ref = f"b{self._refs}"
        play.pending = Move(play.last_seq or 0, str(action), ref)
        await self._send({"type": "act", "table": play.id, "action": str(action), "ref": ref})

    def _close_program(self, play: TablePlay) -> None:
        if play.program is not None:
            play.program.close()
            play.program = None


def _answered(play: TablePlay, kind: str) -> None:
    """The table answered the ``join`` (or took the ``ready``) sent to it: not sent again."""
    if play.unanswered is not None and play.unanswered["type"] == kind:
        play.unanswered = None


def _number(value: Any) -> float | None:
    """A number of a refusal's ``detail`` (None when it is not one)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


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
