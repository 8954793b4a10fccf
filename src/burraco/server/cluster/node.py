"""One server process of a cluster (docs/cluster.md): its leases, its heartbeat, what it
forwards and what it takes over.

- **Ownership.** A table runs in the process holding its lease (``store/lease_store.py``); the
  log's writes carry the lease's fencing token. Tables are claimed when created or loaded, and
  the orphans of a dead process (heartbeat older than the lease's time to live) are taken over
  by the live ones, each its share per heartbeat, resumed from the log as after a restart.
- **Forwarding.** A client's socket stays with the process it reached (its *front*). A table
  message for a table another process owns is forwarded to that owner over the bus, which
  answers through a ``RemoteConnection``; an HTTP request about such a table is forwarded whole
  (``forward.py``) and answered as if local.
- **Sharing.** Each process publishes, every heartbeat, who is connected to it, its lobby tables
  and its figures (a Redis key that expires); the others read them, so the lobby, presence and
  account limits see the whole cluster, at most one heartbeat late.
- **Draining.** SIGTERM: the process stops taking tables, hands each of its tables to a live
  process at once (a new token, no lease wait), closes its sockets with 4503 (reconnect), and
  leaves.

It stays one module of about 950 lines: the four parts share the heartbeat's loop and one view
of which tables this process owns, and splitting them would pass that state around; the
transport pieces are already apart (``bus.py``, ``forward.py``, ``remote.py``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import math
import random
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from burraco.errors import ErrorCode
from burraco.store import UserInfo
from burraco.store.lease_store import LeaseStore, NodeInfo

from .. import messages, protocol
from ..connection import Connection
from ..ratelimit import RateLimiter
from ..table import TableError, commands
from ..table.status import LIVE_STATUSES
from .bus import Bus
from .limits import SharedLimiter
from .notowner import RECONNECT, NotOwner
from .remote import RemoteConnection

if TYPE_CHECKING:
    from starlette.types import ASGIApp

    from ..hub import Hub
    from ..table import TableActor

log = logging.getLogger("burraco.cluster")

_TABLE_PATH = re.compile(r"^/api/(?:admin/)?tables/([A-Za-z0-9_-]{1,16})(?:/[a-z]+)?$")
_CREATE_PATHS = frozenset({"/api/tables", "/api/challenges"})
_LEADER_PATHS = ("/api/tournaments", "/api/quickplay")
"""Run by the process holding the ``tournaments`` role (their state and clocks are there)."""
ROLE: str = "tournaments"
JOIN_ANSWER_SECONDS = 2.5
"""A forwarded join unanswered this long was lost (Redis restarting, a table being handed over):
the client reconnects and joins again."""
SWEEP_BEATS = 5
"""The tournaments' process sweeps them for pending work every this many heartbeats."""
SHARE_CHUNK = 1000
"""Tables gone through in one go when a heartbeat gathers what it publishes (``_share_state``):
the event loop serves play between two such slices (under 10 ms each). Not fewer: each slice
is a turn of the loop the beat waits for, and a saturated loop's turns are long."""


@dataclass
class Elsewhere:
    """What the other live processes published at their last heartbeat."""

    users: set[int] = field(default_factory=set)
    lobby: list[dict[str, Any]] = field(default_factory=list)
    playing: int = 0
    waiting: int = 0
    playing_at: dict[int, str] = field(default_factory=dict)
    created: list[tuple[int, str, bool]] = field(default_factory=list)
    """(creator, status, only bots) of their live lobby tables (account limits)."""


@dataclass(frozen=True)
class Shared:
    """What one other process published at its last heartbeat (its lobby apart)."""

    users: list[int]
    lobby_version: int
    playing: int
    waiting: int
    playing_at: dict[int, str]
    created: list[tuple[int, str, bool]]


def message_json(
    message: protocol.Join
    | protocol.Leave
    | protocol.Act
    | protocol.Chat
    | protocol.Ready
    | protocol.SeedCommit
    | protocol.SeedReveal,
) -> dict[str, Any]:
    """A decoded client table message as it travels between processes."""
    kind = type(message).__name__.lower()
    fields = {name: getattr(message, name) for name in message.__dataclass_fields__}
    return {"type": kind, **fields}


_MESSAGES: dict[str, Callable[..., Any]] = {
    "join": protocol.Join,
    "leave": protocol.Leave,
    "act": protocol.Act,
    "chat": protocol.Chat,
    "ready": protocol.Ready,
    "seedcommit": protocol.SeedCommit,
    "seedreveal": protocol.SeedReveal,
}


def transient(error: BaseException) -> bool:
    """A lost connection to PostgreSQL or Redis (a restart, a network cut): what the cluster
    retries at its next heartbeat, not a bug."""
    if isinstance(error, DBAPIError):
        return bool(error.connection_invalidated) or isinstance(
            error, OperationalError | InterfaceError
        )
    return isinstance(error, RedisError | OSError | TimeoutError)


class Cluster:
    def __init__(
        self,
        hub: Hub,
        *,
        redis_url: str,
        name: str,
        cluster_name: str = "burraco",
        address: str | None = None,
        ttl: float = 4.0,
        beat: float = 1.0,
        rpc_timeout: float = 8.0,
        drain_grace: float = 2.5,
    ) -> None:
        self.hub = hub
        self.name = name
        self.node = f"{name}:{secrets.token_hex(4)}"
        """This process's id: its name and a suffix of its own, so a process restarted under
        the same name is a new node and inherits no lease."""
        self.address = address
        self.leases = LeaseStore(hub.store, ttl=ttl)
        self.bus = Bus(redis_url, cluster=cluster_name, node=self.node)
        self.beat_seconds = beat
        self.rpc_timeout = rpc_timeout
        self.draining = False
        self.drain_grace = drain_grace
        """Seconds a draining process goes on serving as a front after handing its tables
        over: HAProxy's checks (1 s apart, out after 2 failures) need this to take it out."""
        self.ready = False
        """True once started and until it drains (the health check's answer)."""
        self.app: ASGIApp | None = None
        """The ASGI application forwarded HTTP requests run through (``forward.py``)."""
        self.live: dict[str, NodeInfo] = {}
        self.elsewhere = Elsewhere()
        self._lobby_sent: bytes | None = None
        """The lobby last published (``_share_state``); None: to be written at the next beat."""
        self._lobby_version = 0
        self._lobbies: dict[str, tuple[int, list[dict[str, Any]]]] = {}
        """The other processes' lobbies as last read, with their versions."""
        self._states: dict[str, tuple[bytes, Shared]] = {}
        """The other processes' figures as last read, and parsed."""
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        """Clients of other processes at this process's tables, by (front, connection id)."""
        self.conns: dict[int, Connection] = {}
        """This process's own client connections by id (the bus delivers to them)."""
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._awaiting: dict[int, float] = {}
        """Connections whose forwarded join has had no answer yet, since when."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._beater: asyncio.Task[None] | None = None
        self.last_beat = 0.0
        self.leader = False
        """Whether this process runs the tournaments, quick play and recurring events."""
        self.leader_node: str | None = None
        self._beats = 0
        self.taken_over = 0
        self._adopting: asyncio.Task[None] | None = None
        """The orphans being resumed (``_take_orphans``)."""
        """Tables this process took from dead ones (for the logs and the tests)."""

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        if self.hub.store.dialect != "postgresql":
            raise RuntimeError("several server processes need PostgreSQL (--database-url)")
        self.hub.store.fences = {}
        handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "ws": self._on_ws,
            "out": self._on_out,
            "close": self._on_close,
            "http": self._on_http,
            "reply": self._on_reply,
            "adopt": self._on_adopt,
            "user": self._on_user,
            "end_user": self._on_end_user,
            "end_sessions": self._on_end_sessions,
            "gone": self._on_account_gone,
            "announce": self._on_announce,
            "tdone": self._on_table_done,
            "hello": self._on_hello,
            "tpush": self._on_tournament_push,
        }
        for kind, handler in handlers.items():
            self.bus.handle(kind, handler)
        self.bus.on_reconnect.append(self._resync)
        self.bus.on_loss.append(self._lost_messages)
        await self.bus.start()
        self._share_limits()
        await self._beat()
        self.ready = True
        self._beater = asyncio.get_running_loop().create_task(self._beat_forever(), name="beat")
        log.info("cluster node %s started", self.node)

    def _share_limits(self) -> None:
        """The hub's and the app's limits, counted for the whole cluster in Redis."""
        hub = self.hub
        chats = hub.chat_limits
        if isinstance(chats, RateLimiter):
            prefix = self.bus.key("limit", "chat")
            hub.chat_limits = SharedLimiter(
                self.bus.redis, prefix, rate=chats.rate, burst=chats.burst
            )
        joins = hub.join_limits
        if isinstance(joins, RateLimiter):
            prefix = self.bus.key("limit", "join")
            hub.join_limits = SharedLimiter(
                self.bus.redis, prefix, rate=joins.rate, burst=joins.burst
            )
        invitations = hub.invitation_limits
        if isinstance(invitations, RateLimiter):
            prefix = self.bus.key("limit", "invitation")
            hub.invitation_limits = SharedLimiter(
                self.bus.redis, prefix, rate=invitations.rate, burst=invitations.burst
            )
        state = None if self.app is None else getattr(self.app, "state", None)
        logins = None if state is None else getattr(state, "login_limiter", None)
        if state is not None and isinstance(logins, RateLimiter):
            state.login_limiter = SharedLimiter(
                self.bus.redis, self.bus.key("limit", "login"), rate=logins.rate, burst=logins.burst
            )

    async def close(self) -> None:
        """Stop (after ``drain``, or at once in tests): leave the cluster, free what is held."""
        self.ready = False
        if self._beater is not None:
            self._beater.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beater
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.leases.forget_node(self.node)
        with contextlib.suppress(Exception):
            await self.bus.redis.delete(self._state_key(self.node), self._lobby_key(self.node))
        await self.bus.close()

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            return
        if transient(error):  # the next beat or sweep does it again
            log.warning("cluster task: PostgreSQL or Redis away (%s)", error)
        else:
            log.error("cluster task failed", exc_info=error)

    # ------------------------------------------------------------------- heartbeat

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.beat_seconds)
            try:
                await self._beat()
            except Exception as error:
                if not transient(error):
                    log.exception("cluster node %s: heartbeat failed", self.node)
                else:  # PostgreSQL or Redis away: the next beat tries again
                    log.warning("cluster node %s: heartbeat failed (%s)", self.node, error)

    async def _beat(self) -> None:
        hub = self.hub
        live_tables = sum(1 for t in hub.tables.values() if t.status.is_live)
        await self.leases.heartbeat(
            self.node,
            name=self.name,
            address=self.address,
            tables=live_tables,
            draining=self.draining,
        )
        silent = time.monotonic() - self.last_beat if self.last_beat else 0.0
        self.last_beat = time.monotonic()
        if silent > self.leases.ttl:
            # Silent past its lease (paused, cut off): the others took it for dead and let go
            # of its clients at their tables, so those clients reconnect.
            log.warning("cluster node %s was silent for %.1f s; resynchronising", self.node, silent)
            await self._resync()
        nodes = await self.leases.nodes()
        self.live = {n.id: n for n in nodes if n.heartbeat_age < self.leases.ttl}
        await self._check_leases()
        self._drop_dead_remotes()
        if not self.draining:
            await self._take_orphans()
        await self._check_role()
        await self._share_state()

    async def _check_role(self) -> None:
        """Hold the tournaments' role if it is free; start or stop running them."""
        token = None if self.draining else await self.leases.claim_role(ROLE, self.node)
        self._beats += 1
        if token is not None and not self.leader:
            self.leader = True
            log.info("cluster node %s runs the tournaments and quick play", self.node)
            tournaments = self.hub.tournaments
            if tournaments is not None:
                await tournaments.start()
            self.hub.quickplay.start()
        elif token is None and self.leader:
            await self._step_down()
        elif self.leader and self._beats % SWEEP_BEATS == 0:
            if self.hub.tournaments is not None:
                self.spawn(self.hub.tournaments.resume_all())
            # The rows of processes dead for an hour that hold nothing (each start adds one).
            await self.leases.prune_nodes(older_than=3600)
        self.leader_node = self.node if self.leader else await self.leases.role_holder(ROLE)

    async def _step_down(self) -> None:
        self.leader = False
        if self.hub.tournaments is not None:
            await self.hub.tournaments.close()
        await self.hub.quickplay.close()

    def table_done(
        self, table_id: str, result: dict[str, Any], closings: tuple[int, int] | None
    ) -> None:
        """A tournament table ended here: tell the process that runs the tournaments (if the
        message is lost, its next sweep finds the result in the store)."""
        if self.leader_node is not None:
            message = {"k": "tdone", "table": table_id, "result": result, "closings": closings}
            self.bus.send(self.leader_node, message)

    def _on_table_done(self, message: dict[str, Any]) -> None:
        tournaments = self.hub.tournaments
        if self.leader and tournaments is not None:
            closings = message["closings"]
            tournaments.table_done(
                str(message["table"]),
                message["result"],
                None if closings is None else (int(closings[0]), int(closings[1])),
            )

    def push_tournament(self, tournament_id: str, reason: str) -> None:
        self.bus.send(None, {"k": "tpush", "f": self.node, "id": tournament_id, "r": reason})

    def _on_tournament_push(self, message: dict[str, Any]) -> None:
        tournaments = self.hub.tournaments
        if message["f"] != self.node and tournaments is not None:
            self.spawn(tournaments.push_local(str(message["id"]), str(message["r"])))

    async def _check_leases(self) -> None:
        """Tables whose lease went to another process (this one was too slow to beat): let go."""
        fences = self.hub.store.fences
        assert fences is not None
        # Only the leases held before the query: one claimed meanwhile is not in its answer.
        before = dict(fences)
        held = await self.leases.held_by(self.node)
        for table_id, token in before.items():
            if held.get(table_id) != token and fences.get(table_id) == token:
                log.warning("cluster node %s: lost table %s", self.node, table_id)
                self.lost(table_id)

    def lost(self, table_id: str) -> None:
        """The lease of ``table_id`` is gone: the table leaves this process, its watchers are
        told to reconnect (they will reach its new owner)."""
        fences = self.hub.store.fences
        if fences is not None:
            fences.pop(table_id, None)
        actor = self.hub.tables.get(table_id)
        if actor is not None:
            self.spawn(self._let_go(actor, hand_to=None))

    def _drop_dead_remotes(self) -> None:
        """Remote clients whose front died, and local clients at a dead owner's tables."""
        for key, conn in list(self.remote.items()):
            if conn.front not in self.live:
                self._forget_remote(key)
        for local in list(self.hub.connections):
            if any(node not in self.live for node in local.remote.values()):
                local.close(RECONNECT)
        # A join forwarded and never answered (lost on the way): the client tries again.
        late = time.monotonic() - JOIN_ANSWER_SECONDS
        for conn_id, since in list(self._awaiting.items()):
            if since < late:
                del self._awaiting[conn_id]
                waiting = self.conns.get(conn_id)
                if waiting is not None:
                    waiting.close(RECONNECT)

    async def _take_orphans(self) -> None:
        """Claim this process's share of the orphans. They are resumed (each a log read and
        replayed) by a task of their own, not by the heartbeat: hundreds of them resumed
        inside a beat kept it from beating again within the lease's time, so the others took
        this process for dead in turn (measured at 1,000 tables a process). A beat that finds
        the previous share still being resumed claims nothing more."""
        if self._adopting is not None and not self._adopting.done():
            return
        orphans = await self.leases.orphans(list(LIVE_STATUSES), limit=500)
        if not orphans:
            return
        takers = max(1, sum(1 for n in self.live.values() if not n.draining))
        share = math.ceil(len(orphans) / takers)
        random.shuffle(orphans)
        self._adopting = asyncio.get_running_loop().create_task(
            self._adopt_orphans(orphans[:share]), name="orphans"
        )
        self._tasks.add(self._adopting)
        self._adopting.add_done_callback(self._done)

    async def _adopt_orphans(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            if self.draining:
                return
            try:
                if await self.hub.adopt(table_id):
                    self.taken_over += 1
            except NotOwner:
                continue  # another process was quicker
            except Exception:
                log.exception("cluster node %s: could not take over table %s", self.node, table_id)

    # --------------------------------------------------------------------- sharing

    def _state_key(self, node: str) -> str:
        return self.bus.key("state", node)

    def _lobby_key(self, node: str) -> str:
        return self.bus.key("lobby", node)

    async def _share_state(self) -> None:
        """Publish this process's figures, read the others'. Two expiring keys a process: its
        lobby tables (the large part, thousands of entries) and the rest. The lobby is written
        only when it changed (else its expiry is renewed) and carries a version in the other
        key, so a process reads and parses another's lobby only when it changed: in steady
        play neither side serialises, sends or parses it at each beat."""
        hub = self.hub
        entries: list[bytes] = []
        playing_at: dict[str, str] = {}
        created: list[list[Any]] = []
        playing = waiting = 0
        tables = list(hub.tables.values())
        for start in range(0, len(tables), SHARE_CHUNK):
            if start:
                await asyncio.sleep(0)  # thousands of tables: the loop serves play meanwhile
            chunk = tables[start : start + SHARE_CHUNK]
            entries += hub.lobby_entries_json(chunk)
            playing_at.update({str(k): v for k, v in hub.local_playing(chunk).items()})
            created += [
                [t.created_by, t.status.value, all(s.user_id is None for s in t.seats)]
                for t in chunk
                if t.created_by is not None and t.config.tournament is None and t.status.is_live
            ]
            counts = hub.local_presence(chunk)
            playing += counts["playing"]
            waiting += counts["waiting"]
        lobby = b"[" + b",".join(entries) + b"]"
        changed = lobby != self._lobby_sent
        if changed:
            self._lobby_version += 1
        users = sorted(hub.local_online())
        mine = {
            "users": users,
            "lobby_v": self._lobby_version,
            "playing_at": playing_at,
            "created": created,
            "online": len(users),
            "playing": playing,
            "waiting": waiting,
        }
        others = [n for n in self.live if n != self.node]
        ttl = max(2, int(self.leases.ttl * 2))
        redis = self.bus.redis
        try:
            async with redis.pipeline(transaction=False) as pipe:
                # The lobby before the figures naming its version: whoever reads the new
                # version finds that lobby (or a newer one).
                if changed:
                    pipe.set(self._lobby_key(self.node), lobby, ex=ttl)
                else:
                    pipe.expire(self._lobby_key(self.node), ttl)
                pipe.set(self._state_key(self.node), orjson.dumps(mine), ex=ttl)
                if others:
                    pipe.mget([self._state_key(n) for n in others])
                answers = await pipe.execute()
            # An expiry renewed on no key (Redis restarted or flushed): written at the next beat.
            self._lobby_sent = lobby if answers[0] else None
            found = dict(zip(others, answers[2], strict=True)) if others else {}
            states = {node: self._read_state(node, raw) for node, raw in found.items() if raw}
            wanted = [
                (node, state.lobby_version)
                for node, state in states.items()
                if self._lobbies.get(node, (0, []))[0] != state.lobby_version
            ]
            if wanted:
                lobbies = await redis.mget([self._lobby_key(n) for n, _ in wanted])
                for (node, version), raw in zip(wanted, lobbies, strict=True):
                    if raw is not None:
                        self._lobbies[node] = (version, orjson.loads(raw))
        except (RedisError, OSError) as error:
            self._lobby_sent = None
            log.warning("cluster node %s: could not share its state (%s)", self.node, error)
            return
        for gone in [n for n in self._states if n not in states]:
            del self._states[gone]  # dead, or its figures expired
            self._lobbies.pop(gone, None)
        elsewhere = Elsewhere()
        for node, state in states.items():
            elsewhere.users.update(state.users)
            elsewhere.lobby.extend(self._lobbies.get(node, (0, []))[1])
            elsewhere.playing += state.playing
            elsewhere.waiting += state.waiting
            elsewhere.playing_at.update(state.playing_at)
            elsewhere.created.extend(state.created)
        self.elsewhere = elsewhere

    def _read_state(self, node: str, raw: bytes) -> Shared:
        """Another process's figures, parsed again only when they changed."""
        known = self._states.get(node)
        if known is not None and known[0] == raw:
            return known[1]
        data = orjson.loads(raw)
        state = Shared(
            users=[int(u) for u in data["users"]],
            lobby_version=int(data["lobby_v"]),
            playing=int(data["playing"]),
            waiting=int(data["waiting"]),
            playing_at={int(k): str(v) for k, v in data["playing_at"].items()},
            created=[(int(c[0]), str(c[1]), bool(c[2])) for c in data["created"]],
        )
        self._states[node] = (raw, state)
        return state

    # -------------------------------------------------------------------- ownership

    async def acquire(self, table_id: str) -> None:
        """Hold the table's lease (claiming it if free) or raise ``NotOwner``."""
        fences = self.hub.store.fences
        assert fences is not None
        if self.draining:
            owner = await self.leases.owner(table_id)
            raise NotOwner(table_id, None if owner is None else owner.node)
        token = await self.leases.claim(table_id, self.node)
        if token is None:
            owner = await self.leases.owner(table_id)
            raise NotOwner(table_id, None if owner is None else owner.node)
        fences[table_id] = token

    async def release(self, table_id: str) -> None:
        fences = self.hub.store.fences
        if fences is not None and fences.pop(table_id, None) is not None:
            await self.leases.release(table_id, self.node)

    async def owner_elsewhere(self, table_id: str) -> str | None:
        """The live process other than this one that runs ``table_id``, if any."""
        if table_id in self.hub.tables:
            return None
        owner = await self.leases.owner(table_id)
        if owner is None or not owner.alive or owner.node == self.node:
            return None
        return owner.node

    def placement(self) -> str | None:
        """Where a new table goes: the least loaded live process (None: this one)."""
        candidates = [n for n in self.live.values() if not n.draining]
        if not self.draining:
            candidates = [n for n in candidates if n.id != self.node]
            here = sum(1 for t in self.hub.tables.values() if t.status.is_live)
            best = min(candidates, key=lambda n: (n.tables, n.id), default=None)
            if best is None or best.tables >= here:
                return None
            return best.id
        return min(candidates, key=lambda n: (n.tables, n.id)).id if candidates else None

    async def target_of(self, method: str, path: str) -> str | None:
        """The process an HTTP request must run in (None: this one)."""
        if method == "POST" and path in _CREATE_PATHS:
            return self.placement()
        if path.startswith(_LEADER_PATHS):
            leader = self.leader_node
            return (
                None if leader is None or leader == self.node or leader not in self.live else leader
            )
        match = _TABLE_PATH.match(path)
        if match is None:
            return None
        return await self.owner_elsewhere(match.group(1))

    # ------------------------------------------------------------------ the sockets

    def connected(self, conn: Connection) -> None:
        self.conns[conn.id] = conn

    def disconnected(self, conn: Connection) -> None:
        self.conns.pop(conn.id, None)
        self._awaiting.pop(conn.id, None)
        for table_id, node in conn.remote.items():
            self.bus.send(node, self._ws(conn, {"type": "gone", "table": table_id}))

    def _ws(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        user = conn.user
        return {
            "k": "ws",
            "f": self.node,
            "c": conn.id,
            "u": [user.id, user.name, user.is_guest, user.is_bot],
            "m": message,
        }

    def forward(self, conn: Connection, node: str, message: Any) -> None:
        """Send a client's table message to the process that runs the table."""
        table_id: str = message.table
        if isinstance(message, protocol.Join):
            conn.remote[table_id] = node
            self._awaiting[conn.id] = time.monotonic()
        elif isinstance(message, protocol.Leave):
            conn.remote.pop(table_id, None)
        self.bus.send(node, self._ws(conn, message_json(message)))

    async def _on_ws(self, envelope: dict[str, Any]) -> None:
        key = (str(envelope["f"]), int(envelope["c"]))
        message = envelope["m"]
        kind = message["type"]
        conn = self.remote.get(key)
        if kind == "gone":
            if conn is not None:
                self._forget_remote(key)
            return
        if conn is None or conn.closed:
            uid, name, guest, *bot = envelope["u"]  # a process of before bot accounts sends 3
            conn = RemoteConnection(
                self.bus,
                key[0],
                key[1],
                UserInfo(int(uid), str(name), bool(guest), is_bot=bool(bot and bot[0])),
                joins_per_minute=self.hub.config.joins_per_minute,
            )
            self.remote[key] = conn
        table_id = str(message["table"])
        typed = _MESSAGES[kind](**{k: v for k, v in message.items() if k != "type"})
        if isinstance(typed, protocol.Join):
            try:
                actor = await self.hub.table(table_id)
            except NotOwner:
                conn.close(RECONNECT)  # it moved again: the client reconnects and finds it
                self.remote.pop(key, None)
                return
            except TableError as error:
                refusal = protocol.ProtocolError(ErrorCode.NO_SUCH_TABLE, error.message)
                conn.send(protocol.encode(messages.error(refusal)))
                return
            conn.tables.add(table_id)
            actor.post(commands.Join(conn, typed.last_seq))
            return
        running = self.hub.tables.get(table_id)
        if running is None or table_id not in conn.tables:
            conn.close(RECONNECT)  # the table is no longer here
            self.remote.pop(key, None)
            return
        if isinstance(typed, protocol.Leave):
            conn.tables.discard(table_id)
            running.post(commands.Leave(conn))
        elif isinstance(typed, protocol.Act):
            running.post(commands.Act(conn, typed.action, typed.ref, typed.lag_ms))
        elif isinstance(typed, protocol.Ready):
            running.post(commands.Ready(conn))
        elif isinstance(typed, protocol.SeedCommit):
            running.post(commands.SeedCommit(conn, typed.commitment))
        elif isinstance(typed, protocol.SeedReveal):
            running.post(commands.SeedReveal(conn, typed.number, typed.seed))
        else:
            running.post(commands.Chat(conn, typed.text))

    def _forget_remote(self, key: tuple[str, int]) -> None:
        conn = self.remote.pop(key, None)
        if conn is None:
            return
        conn.closed = True
        for table_id in conn.tables:
            actor = self.hub.tables.get(table_id)
            if actor is not None:
                actor.post(commands.Disconnect(conn))

    def _on_out(self, message: dict[str, Any]) -> None:
        conn_id = int(message["c"])
        self._awaiting.pop(conn_id, None)  # the owner answers it
        conn = self.conns.get(conn_id)
        if conn is not None:
            conn.send(str(message["t"]))

    def _on_close(self, message: dict[str, Any]) -> None:
        conn = self.conns.get(int(message["c"]))
        if conn is not None:
            code = message.get("code")
            conn.close(RECONNECT if code is None else int(code))

    async def _resync(self) -> None:
        """Redis came back: messages of the gap are lost, so every client following a table of
        another process reconnects (and gets what it missed or a snapshot); and the others are
        told, for what their clients sent here while this process was not listening."""
        for conn in list(self.hub.connections):
            if conn.remote:
                conn.close(RECONNECT)
        self.bus.send(None, {"k": "hello", "f": self.node})

    def _lost_messages(self, nodes: set[str | None]) -> None:
        """Messages to ``nodes`` could not be sent (Redis away): the clients they were for, or
        from, reconnect and resynchronise, on both sides of the loss."""
        for key, conn in list(self.remote.items()):
            if conn.front in nodes:  # table events for its client may be lost
                conn.close(RECONNECT)
                self._forget_remote(key)
        for local in list(self.hub.connections):
            if any(node in nodes for node in local.remote.values()):  # its messages to them
                local.close(RECONNECT)

    def _on_hello(self, message: dict[str, Any]) -> None:
        """Another process listens again after losing Redis: what this one forwarded to it
        meanwhile may be lost, so the clients following its tables from here reconnect."""
        node = str(message["f"])
        if node == self.node:
            return
        for conn in list(self.hub.connections):
            if node in conn.remote.values():
                conn.close(RECONNECT)

    # ------------------------------------------------------------ broadcast news

    def tell_everywhere(self, user_id: int, text: str) -> None:
        self.bus.send(None, {"k": "user", "f": self.node, "u": user_id, "t": text})

    def _on_user(self, message: dict[str, Any]) -> None:
        if message["f"] != self.node:
            self.hub.tell_local(int(message["u"]), str(message["t"]))

    def end_user_everywhere(self, user_id: int) -> None:
        self.bus.send(None, {"k": "end_user", "f": self.node, "u": user_id})

    def _on_end_user(self, message: dict[str, Any]) -> None:
        if message["f"] != self.node:
            self.hub.end_user_local(int(message["u"]))

    def account_gone_everywhere(self, user_id: int, name: str) -> None:
        self.bus.send(None, {"k": "gone", "f": self.node, "u": user_id, "n": name})

    def _on_account_gone(self, message: dict[str, Any]) -> None:
        if message["f"] != self.node:
            self.spawn(self.hub.account_gone_local(int(message["u"]), str(message["n"])))

    def end_sessions_everywhere(self, hashes: Iterable[str]) -> None:
        self.bus.send(None, {"k": "end_sessions", "f": self.node, "h": list(hashes)})

    def _on_end_sessions(self, message: dict[str, Any]) -> None:
        if message["f"] != self.node:
            self.hub.end_sessions_local([str(h) for h in message["h"]])

    def announce_everywhere(self, text: str, at: float) -> None:
        self.bus.send(None, {"k": "announce", "f": self.node, "t": text, "at": at})

    def _on_announce(self, message: dict[str, Any]) -> None:
        if message["f"] != self.node:
            self.hub.announce_local(str(message["t"]), float(message["at"]))

    # ---------------------------------------------------------------- HTTP forwarding

    async def forward_http(
        self, node: str, scope: dict[str, Any], body: bytes
    ) -> dict[str, Any] | None:
        """Run an HTTP request in process ``node``; its answer, or None if none came."""
        request_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[request_id] = future
        client = scope.get("client")
        self.bus.send(
            node,
            {
                "k": "http",
                "f": self.node,
                "id": request_id,
                "m": scope["method"],
                "p": scope["path"],
                "q": scope.get("query_string", b"").decode("latin-1"),
                "h": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
                "b": base64.b64encode(body).decode(),
                "c": None if client is None else client[0],
            },
        )
        try:
            return await asyncio.wait_for(future, self.rpc_timeout)
        except TimeoutError:
            return None
        finally:
            self._replies.pop(request_id, None)

    def _on_reply(self, message: dict[str, Any]) -> None:
        future = self._replies.get(str(message["id"]))
        if future is not None and not future.done():
            future.set_result(message)

    def _on_http(self, message: dict[str, Any]) -> None:
        self.spawn(self._serve_http(message))

    async def _serve_http(self, message: dict[str, Any]) -> None:
        assert self.app is not None
        body = base64.b64decode(message["b"])
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": message["m"],
            "scheme": "http",
            "path": message["p"],
            "raw_path": message["p"].encode(),
            "query_string": message["q"].encode("latin-1"),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in message["h"]],
            "client": None if message["c"] is None else (message["c"], 0),
            "server": None,
            "burraco.forwarded": True,
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()  # no disconnect: the answer goes back by the bus
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def send(event: dict[str, Any]) -> None:
            nonlocal status, headers
            if event["type"] == "http.response.start":
                status = int(event["status"])
                headers = [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in event.get("headers", [])
                ]
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        await self.app(scope, receive, send)  # type: ignore[arg-type]
        self.bus.send(
            str(message["f"]),
            {
                "k": "reply",
                "id": message["id"],
                "s": status,
                "h": headers,
                "b": base64.b64encode(b"".join(chunks)).decode(),
            },
        )

    # --------------------------------------------------------------------- draining

    async def place(self, table_id: str) -> bool:
        """Give a new table this process holds (its seats filled in the store) to the least
        loaded process: True if it went elsewhere (that process starts it), False to run it
        here."""
        target = self.placement()
        fences = self.hub.store.fences
        if target is None or fences is None:
            return False
        if await self.leases.hand(table_id, self.node, target) is None:
            return False
        fences.pop(table_id, None)
        self.bus.send(target, {"k": "adopt", "table": table_id})
        return True

    def _on_adopt(self, message: dict[str, Any]) -> None:
        self.spawn(self._adopt(str(message["table"])))

    async def _adopt(self, table_id: str) -> None:
        try:
            await self.hub.adopt(table_id)
        except NotOwner:
            log.warning(
                "cluster node %s: table %s was handed here, then taken", self.node, table_id
            )

    async def drain(self) -> int:
        """Hand every table to the other live processes at once and close the sockets with
        4503; returns how many tables were handed over (none when it drained already: SIGTERM
        drains, then the application's shutdown asks again)."""
        if self.draining:
            return 0
        self.draining = True
        self.ready = False
        if self._adopting is not None:  # the table being resumed, then no more
            with contextlib.suppress(Exception):
                await self._adopting
        with contextlib.suppress(Exception):
            await self._beat()  # the others stop placing tables here
        if self.leader:
            await self._step_down()
            await self.leases.release_role(ROLE, self.node)
        handed = 0
        order = sorted(
            (n for n in self.live.values() if n.id != self.node and not n.draining),
            key=lambda n: (n.tables, n.id),
        )
        for index, actor in enumerate(list(self.hub.tables.values())):
            target = order[index % len(order)].id if order and actor.status.is_live else None
            if await self._let_go(actor, hand_to=target):
                handed += 1
        # Go on serving as a front (forwarding to the tables' new processes) until the proxy
        # has seen the failing health check and sends nobody here: a client that reconnects
        # meanwhile is served, not refused or left hanging by a process that is exiting.
        await asyncio.sleep(self.drain_grace)
        for conn in list(self.hub.connections):
            conn.close(RECONNECT)
        log.info("cluster node %s drained: %d tables handed over", self.node, handed)
        return handed

    async def _let_go(self, actor: TableActor, *, hand_to: str | None) -> bool:
        """Stop running ``actor`` here; hand its lease to ``hand_to`` (told to adopt it) or
        release it. Its watchers reconnect. True if it was handed."""
        await actor.halt()
        self.hub.forget(actor)
        for conn in list(actor.watchers):
            conn.close(RECONNECT)
        fences = self.hub.store.fences
        token = None if fences is None else fences.pop(actor.id, None)
        if token is None:
            return False  # lost already: its new owner has it
        if hand_to is not None:
            if await self.leases.hand(actor.id, self.node, hand_to) is not None:
                self.bus.send(hand_to, {"k": "adopt", "table": actor.id})
                return True
            return False
        await self.leases.release(actor.id, self.node)
        return False
