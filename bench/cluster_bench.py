"""The benchmark of several server processes (issue 17, docs/cluster.md): one command, one run.

``.venv/bin/python bench/cluster_bench.py`` (about 15 minutes; ``--quick`` for a smoke run of
about three). Everything runs on this machine: PostgreSQL (a fresh database per part, dropped
at the end), the machine's Redis (a ``--cluster-name`` of its own per part, its keys deleted at
the end), HAProxy on ``deploy/make-haproxy-cfg``'s output, the ``burraco serve`` processes
started by ``tests/cluster/harness.py`` with their rate limits raised as in
``bench/server_bench.py``, and load-generator processes (one per core) driving real WebSockets.

1. **One process against two.** Three set-ups alive at once, each with its own database and
   the same number of 4-player tables driven by the same client processes: ``plain`` (one
   process, no Redis: the single-process server on PostgreSQL), ``one`` (one process in cluster
   mode: ``--redis-url``, its leases and fencing) and ``two`` (two processes behind HAProxy; the
   tables created through the proxy go to the least loaded process, the sockets are spread by
   the proxy, so about half of them are on the process that does not run their table: the
   share is measured). Full-speed windows, the set-ups taking turns in rotating order for
   ``--rounds`` rounds (the machine's noise falls on all of them): round trips/s, and server CPU
   per action (the set-up's ``burraco serve`` processes' CPU from /proc over the window ÷ the
   actions acknowledged in it); the ratios two ÷ plain and one ÷ plain are taken per round and
   their medians reported. Redis, HAProxy and PostgreSQL CPU are reported beside it.
   Then one human-pace window per set-up (one action per table every 2 s).
2. **A remote watcher against a local one.** In the ``two`` set-up, each table gets two
   spectators: one connected straight to the process that runs the table, one to the other
   process. At human pace, for every action, the time from its ``act`` sent (at the acting
   client) to its event's arrival at each spectator, and per event remote minus local.
3. **Failover.** A set-up of two processes behind HAProxy with a few 4-player tables of client
   bots playing one action per table every 0.5 s, every socket through the proxy, each client
   reconnecting through it (and joining again with its last event number) whenever its socket
   drops. ``--kills`` times: SIGKILL the process running the most of the tables, then time,
   per table of it, from the kill to the first event of the resumed table at one of its
   clients (and to the first action played there); the killed process is started again (same
   name, a new node id) and is back in HAProxy's rotation before the next kill.
4. **Capacity.** ``--tables`` 4-player tables (2,000: 8,000 sockets) created through the proxy on
   two processes, every socket through the proxy. Human pace for all of them; if the p99 round
   trip is over 100 ms, or the tables fall short of the offered actions, or errors, smaller
   numbers of the same tables play (the others stay open and connected, idle) until one holds.
   Server CPU per table playing.

Raw results: ``bench/out/cluster_bench.json``; the figures: the marked section of
``bench/README.md`` ("Several processes (issue 17)").
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import datetime as dt
import gc
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _folder in (ROOT / "src", ROOT):  # burraco, and the cluster tests' harness
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

import server_bench as sb  # noqa: E402

README = ROOT / "bench" / "README.md"
OUT = ROOT / "bench" / "out"
JSON_OUT = OUT / "cluster_bench.json"
HEADING = "# Several processes (issue 17)"
START_MARK = "<!-- cluster-bench:start -->"
END_MARK = "<!-- cluster-bench:end -->"

PLAYERS = sb.PLAYERS
TARGET_CPU_RATIO = 1.30
"""Server CPU per action, two processes (half the sockets remote) over one: at most 30% more."""
TARGET_REMOTE_EXTRA_MS = 50.0
"""A remote watcher's p99 at most this much above a local one's."""
TARGET_FAILOVER_S = 10.0
TARGET_TABLES = 2000
TARGET_P99_MS = 100.0
KEEP_UP = sb.KEEP_UP
RESUME_SKIP = 500
"""A table resumed by another process numbers its events 1,000 after its log
(``TableActor.RESUME_SEQ_SKIP``): an event that far past what the clients had seen before the
kill comes from the resumed table."""
SERVE_ARGS = (
    *("--messages-per-second", "1000000"),
    *("--login-attempts-per-minute", "100000000"),
    *("--joins-per-minute", "100000"),
    *("--disconnect-grace", "600"),
    *("--max-connections", "30000"),
)
"""As server_bench's server: the load generators' limits raised (every client logs in from
127.0.0.1), a seat never handed to a bot, and room for every socket (uvicorn's limit)."""
DRAIN_SECONDS = 10.0
REDIS_COMM = "redis-server"
POSTGRES_COMM = "postgres"
CORES = os.cpu_count() or 1


def log(message: str) -> None:
    sb.log(message)


# ================================================================================ /proc figures


def pids_named(comm: str) -> list[int]:
    """The processes whose command name is ``comm`` (PostgreSQL's backends come and go)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                name = Path(f"/proc/{entry.name}/comm").read_text().strip()
            except OSError:
                continue
            if name == comm:
                found.append(int(entry.name))
    return found


def cpu_of(pids: Sequence[int]) -> dict[int, float]:
    seen = {}
    for pid in pids:
        sample = sb.proc_sample(pid)
        if sample is not None:
            seen[pid] = sample.cpu_s
    return seen


@dataclass
class Reading:
    at: float
    cpu: dict[str, dict[int, float]]
    rss: dict[int, float]
    machine: tuple[int, int]


class Meter:
    """CPU seconds of the groups of processes that matter, read from /proc at chosen moments:
    ``servers`` (the set-up measured), ``burraco`` (every server process of the run),
    ``clients``, ``redis``, ``haproxy`` (the set-up's) and ``postgres`` (all its processes)."""

    def __init__(self) -> None:
        self.clients: list[int] = []
        self.all_servers: list[int] = []
        self.redis = pids_named(REDIS_COMM)

    def read(self, servers: Sequence[int], proxy: Sequence[int] = ()) -> Reading:
        rss = {}
        for pid in servers:
            sample = sb.proc_sample(pid)
            if sample is not None:
                rss[pid] = sample.rss_mb
        return Reading(
            time.monotonic(),
            {
                "servers": cpu_of(servers),
                "burraco": cpu_of(self.all_servers),
                "clients": cpu_of(self.clients),
                "redis": cpu_of(self.redis),
                "haproxy": cpu_of(proxy),
                "postgres": cpu_of(pids_named(POSTGRES_COMM)),
            },
            rss,
            sb.machine_ticks(),
        )


@dataclass
class Usage:
    seconds: float
    cpu_s: dict[str, float]
    cores: dict[str, float]
    machine_busy: float
    others_cores: float
    """Cores busy with processes other than those measured (the shared machine's noise)."""
    rss_mb: dict[str, float]


def usage(before: Reading, after: Reading) -> Usage:
    wall = max(after.at - before.at, 1e-9)
    cpu = {}
    for group, now in after.cpu.items():
        then = before.cpu.get(group, {})
        # A process born during the window counts from zero (PostgreSQL's new backends).
        cpu[group] = sum(seconds - then.get(pid, 0.0) for pid, seconds in now.items())
    busy = (after.machine[0] - before.machine[0]) / max(1, after.machine[1] - before.machine[1])
    known = sum(cpu[g] for g in ("burraco", "clients", "redis", "haproxy", "postgres")) / wall
    return Usage(
        seconds=wall,
        cpu_s=cpu,
        cores={group: seconds / wall for group, seconds in cpu.items()},
        machine_busy=busy,
        others_cores=max(0.0, busy * CORES - known),
        rss_mb={str(pid): mb for pid, mb in after.rss.items()},
    )


# ============================================================================ client processes


@dataclass
class Seat:
    table: Table
    index: int
    """The seat (0-3), or -1 for the local spectator and -2 for the remote one."""
    token: str
    url: str = ""
    ws: Any = None
    joined: asyncio.Future[None] | None = None
    sent: dict[str, float] = field(default_factory=dict)

    @property
    def role(self) -> str:
        return {-1: "local", -2: "remote"}.get(self.index, "player")


@dataclass
class Table:
    id: str
    group: str
    number: int
    rng: random.Random
    seats: list[Seat] = field(default_factory=list)
    watchers: list[Seat] = field(default_factory=list)
    watcher_tokens: list[str] = field(default_factory=list)
    pending: tuple[Seat, list[str], float] | None = None
    last_sent: float = 0.0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    refs: int = 0


@dataclass
class Tally(sb.Tally):
    acts: dict[tuple[str, int], float] = field(default_factory=dict)
    """(table, seq) -> when its act was sent, for the actions of the window (watched tables)."""
    seen: list[tuple[str, int, int, float]] = field(default_factory=list)
    """(table, seq, spectator index, arrival) of the action events the spectators received."""


class Worker(sb.PipeWorker):
    """One load-generator process: its share of every set-up's tables, their sockets, the
    windows. Only the tables of the group named by a window play in it."""

    tally: Tally

    def __init__(self, index: int, pipe: Pipe, options: dict[str, Any]) -> None:
        super().__init__(index, pipe, options)
        self.groups: dict[str, list[Table]] = {}
        self.active: str | None = None
        self.limit: int | None = None
        self.tally = Tally()
        self.closing: set[str] = set()

    # -- set-up over HTTP --

    async def do_setup(
        self,
        *,
        group: str,
        base_url: str,
        numbers: list[int],
        body: dict[str, Any],
        watchers: bool,
        concurrency: int,
    ) -> Any:
        import httpx

        started = time.monotonic()
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        gate = asyncio.Semaphore(concurrency)
        retried: Counter[str] = Counter()
        async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as http:
            post = sb.retrying_post(http, retried)

            async def guest() -> str:
                response = await post("/api/guest")
                if response.status_code not in (200, 201):
                    raise RuntimeError(f"guest: {response.status_code} {response.text}")
                token: str = response.json()["token"]
                return token

            async def one(number: int) -> Table:
                async with gate:
                    tokens = [await guest() for _ in range(PLAYERS)]
                    table_id = await sb.full_table(post, tokens, body)
                    table = Table(table_id, group, number, random.Random(f"bench-{number}"))
                    table.seats = [Seat(table, s, tokens[s]) for s in range(PLAYERS)]
                    if watchers:
                        table.watcher_tokens = [await guest(), await guest()]
                    return table

            tables = list(await asyncio.gather(*(one(n) for n in numbers)))
        self.groups[group] = tables
        return {
            "ids": [t.id for t in tables],
            "seconds": time.monotonic() - started,
            "retried": dict(retried),
        }

    # -- the sockets --

    async def _dial(self, seat: Seat) -> None:
        from websockets.asyncio.client import connect

        seat.ws = await connect(
            f"{seat.url}?token={seat.token}",
            open_timeout=120,
            ping_interval=None,
            max_size=1 << 22,
            compression=self.compression,
        )
        await seat.ws.send(json.dumps({"type": "join", "table": seat.table.id}))

    async def _open(self, seat: Seat, url: str) -> None:
        seat.url = url
        seat.joined = asyncio.get_running_loop().create_future()
        await self._dial(seat)
        self.spawn(self.read(seat))
        await asyncio.wait_for(seat.joined, 120)

    async def do_connect(
        self, group: str, url: str | None, urls: dict[str, list[str]], concurrency: int
    ) -> Any:
        """Every seat of the group's tables: to ``url``, or to ``urls[table][seat]``, at most
        ``concurrency`` handshakes at once; a refused handshake is tried again (counted)."""
        started = time.monotonic()
        gate = asyncio.Semaphore(concurrency)
        refused: Counter[str] = Counter()
        self.tally = Tally()

        async def open_seat(seat: Seat) -> None:
            async with gate:
                for attempt in range(30):
                    try:
                        await self._open(seat, url or urls[seat.table.id][seat.index])
                        return
                    except Exception as error:
                        if attempt == 29:
                            raise
                        refused[f"{type(error).__name__}: {str(error)[-40:]}"] += 1
                        await asyncio.sleep(1.0)

        tables = self.groups[group]
        await asyncio.gather(*(open_seat(s) for t in tables for s in t.seats))
        for table in tables:
            self.spawn(self.play(table))
        sb.settle_gc()
        return {
            "sockets": sum(len(t.seats) for t in tables),
            "seconds": time.monotonic() - started,
            "refused": dict(refused),
            "dropped": dict(self.tally.errors),
        }

    async def do_watch(self, group: str, urls: dict[str, list[str]]) -> Any:
        """Two spectators per table of the group: ``urls[table]`` = [owner's, the other's]."""
        gate = asyncio.Semaphore(self.options["connect_concurrency"])

        async def open_watcher(table: Table, which: int) -> None:
            seat = Seat(table, -1 - which, table.watcher_tokens[which])
            table.watchers.append(seat)
            async with gate:
                await self._open(seat, urls[table.id][which])

        tables = [t for t in self.groups[group] if t.id in urls]
        await asyncio.gather(*(open_watcher(t, w) for t in tables for w in (0, 1)))
        sb.settle_gc()
        return {"watchers": 2 * len(tables)}

    async def read(self, seat: Seat) -> None:
        """Everything the server sends to one socket; when the socket drops (a process told
        its clients to reconnect, or died), it is opened again to the same address and joins
        again, as a browser does: every drop is counted, and the acts it lost."""
        table = seat.table
        while True:
            try:
                async for raw in seat.ws:
                    self._message(seat, raw)
                why = f"closed {seat.ws.close_code}"
            except Exception as error:
                why = f"socket: {type(error).__name__}"
            if table.group in self.closing:
                return
            self.tally.errors[why] += 1
            if seat.sent:
                self.tally.errors["acts lost with their socket"] += len(seat.sent)
                seat.sent.clear()
            for _ in range(600):
                await asyncio.sleep(0.1)
                if table.group in self.closing:
                    return
                try:
                    await self._dial(seat)
                    break
                except Exception:
                    continue

    def _message(self, seat: Seat, raw: str | bytes) -> None:
        table = seat.table
        now = time.monotonic()
        tally = self.tally
        if table.group == self.active:
            tally.messages += 1
            tally.bytes += len(raw)
        message = json.loads(raw)
        kind = message["type"]
        if kind in ("ack", "error"):
            t0 = sb.answered(self, seat, message, now)
            if t0 is not None and table.watchers:
                tally.acts[table.id, int(message["seq"])] = t0
            if kind == "error" and message.get("code") == "table_moved":
                self.spawn(self._rejoin(seat))  # a join while the table moves: join again
            return
        if seat.index < 0:  # a spectator
            if kind == "event" and message.get("kind") == "action" and self.mode != "idle":
                tally.seen.append((table.id, int(message["seq"]), seat.index, now))
            elif kind == "snapshot" and seat.joined is not None and not seat.joined.done():
                seat.joined.set_result(None)
            return
        sb.offered(table, seat, message, now)
        if kind == "snapshot" and seat.joined is not None and not seat.joined.done():
            seat.joined.set_result(None)
        elif kind == "event" and message.get("kind") == "smazzata_end":
            # The score sheet read at once: the next deal comes after between_smazzate.
            self.spawn(seat.ws.send(json.dumps({"type": "ready", "table": table.id})))

    async def _rejoin(self, seat: Seat) -> None:
        await asyncio.sleep(0.2)
        with contextlib.suppress(Exception):
            await seat.ws.send(json.dumps({"type": "join", "table": seat.table.id}))

    def playing(self, table: Table) -> bool:
        return (
            self.mode in ("human", "full")
            and table.group == self.active
            and (self.limit is None or table.number < self.limit)
        )

    async def play(self, table: Table) -> None:
        """Whoever has legal actions plays one at the window's pace (as server_bench)."""
        while True:
            pending = table.pending
            if pending is None or not self.playing(table):
                table.wake.clear()
                await table.wake.wait()
                continue
            await sb.play_one(self, table, pending)

    async def do_phase(
        self, group: str, mode: str, start: float, end: float, limit: int | None
    ) -> Any:
        self.tally = Tally()
        self.window = (start, end)
        self.active = group
        self.limit = limit
        now = time.monotonic()
        tables = self.groups[group]
        if mode == "human":
            rng = random.Random(f"stagger-{self.index}")
            for table in tables:
                table.last_sent = now - self.interval + rng.random() * self.interval
        self.mode = mode
        for table in tables:
            table.wake.set()
        gc.disable()
        try:
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            self.mode = "idle"
            deadline = time.monotonic() + DRAIN_SECONDS
            while time.monotonic() < deadline and self._in_flight(tables, start, end):
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)  # the spectators' last events
            return self._report(tables, start, end)
        finally:
            self.active = None
            gc.enable()
            sb.settle_gc()

    def _report(self, tables: list[Table], start: float, end: float) -> dict[str, Any]:
        tally = self.tally
        self.tally = Tally()
        local, remote, paired = array.array("d"), array.array("d"), array.array("d")
        arrivals: dict[tuple[str, int], dict[int, float]] = {}
        for table_id, seq, index, at in tally.seen:
            arrivals.setdefault((table_id, seq), {})[index] = at
        for key, t0 in tally.acts.items():
            got = arrivals.get(key, {})
            if -1 in got:
                local.append(got[-1] - t0)
            if -2 in got:
                remote.append(got[-2] - t0)
            if -1 in got and -2 in got:
                paired.append(got[-2] - got[-1])
        return {
            "rtts": tally.rtts,
            "lags": tally.lags,
            "sent": tally.sent,
            "answered": tally.answered,
            "unanswered": self._in_flight(tables, start, end),
            "errors": dict(tally.errors),
            "messages": tally.messages,
            "bytes": tally.bytes,
            "local": local,
            "remote": remote,
            "paired": paired,
            "watched_acts": len(tally.acts),
        }

    @staticmethod
    def _in_flight(tables: list[Table], start: float, end: float) -> int:
        return sum(
            1 for t in tables for s in t.seats for t0 in s.sent.values() if start <= t0 < end
        )

    async def do_close(self, group: str) -> Any:
        self.closing.add(group)
        tables = self.groups.pop(group, [])
        sockets = [s.ws for t in tables for s in (*t.seats, *t.watchers) if s.ws is not None]
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        return {"closed": len(sockets)}


class Clients(sb.Clients):
    """``server_bench``'s client processes running ``Worker``, asked from the run's event loop
    (their replies awaited in a thread)."""

    def __init__(self, count: int, options: dict[str, Any]) -> None:
        super().__init__(count, options, worker=Worker)

    async def gather(self, timeout: float) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.collect, timeout)

    async def ask(self, commands: Sequence[dict[str, Any]], timeout: float) -> list[Any]:
        return await asyncio.to_thread(self.each, commands, timeout)

    async def ask_all(self, command: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
        return await self.ask([command] * len(self.pipes), timeout)


# ================================================================================ the results


Latency = sb.Latency


@dataclass
class Window:
    """One measured window of one set-up."""

    name: str
    mode: str
    tables: int
    """Tables playing."""
    seconds: float
    per_s: float
    offered_per_s: float | None
    sent: int
    answered: int
    unanswered: int
    errors: dict[str, int]
    latency: Latency
    lag: Latency | None
    usage: Usage
    server_ms_per_action: float
    local: Latency | None = None
    remote: Latency | None = None
    paired: Latency | None = None
    watched_acts: int = 0
    messages_per_s: float = 0.0
    gc_pauses: list[tuple[str, int, float, float]] = field(default_factory=list)
    """The servers' garbage collections of 20 ms or more in the window (``/api/server/stats``):
    (process, generation, wall ms, CPU ms)."""

    @property
    def healthy(self) -> bool:
        offered = self.offered_per_s or 0.0
        return (
            self.answered > 0
            and not self.errors
            and self.unanswered == 0
            and self.per_s >= KEEP_UP * offered
        )


def merge(
    name: str,
    mode: str,
    replies: list[dict[str, Any]],
    *,
    tables: int,
    seconds: float,
    offered: float | None,
    use: Usage,
) -> Window:
    rtts, lags = sb.pooled(replies, "rtts"), sb.pooled(replies, "lags")
    local, remote = sb.pooled(replies, "local"), sb.pooled(replies, "remote")
    paired = sb.pooled(replies, "paired")
    errors = sb.pooled_errors(replies)
    answered = sum(r["answered"] for r in replies)
    return Window(
        name=name,
        mode=mode,
        tables=tables,
        seconds=seconds,
        per_s=answered / seconds,
        offered_per_s=offered,
        sent=sum(r["sent"] for r in replies),
        answered=answered,
        unanswered=sum(r["unanswered"] for r in replies),
        errors=dict(errors),
        latency=Latency.of(rtts),
        lag=Latency.of(lags) if lags else None,
        usage=use,
        server_ms_per_action=use.cpu_s["servers"] / answered * 1e3 if answered else math.nan,
        local=Latency.of(local) if local else None,
        remote=Latency.of(remote) if remote else None,
        paired=Latency.of(paired) if paired else None,
        watched_acts=sum(r["watched_acts"] for r in replies),
        messages_per_s=sum(r["messages"] for r in replies) / seconds,
    )


@dataclass
class Kill:
    number: int
    node: str
    tables: int
    """Tables of ours the killed process was running."""
    first_event_s: list[float]
    """Per table: kill -> the resumed table's first event at one of its clients."""
    first_action_s: list[float]
    """Per table: kill -> its first action played after the kill, at one of its clients."""
    every_client_s: float
    """Kill -> every client of those tables has had an event of the resumed table."""
    resumed_by: dict[str, int]
    restart_s: float
    missing: int = 0
    """Tables with no new event within the bound."""


@dataclass
class Results:
    started: str
    machine: dict[str, str]
    settings: dict[str, Any]
    limits: dict[str, str] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    full: dict[str, list[Window]] = field(default_factory=dict)
    """Full speed: per set-up, its window of each round."""
    ratios: dict[str, list[float]] = field(default_factory=dict)
    """Per round: CPU per action of two ÷ plain, one ÷ plain, two ÷ one, (two + Redis) ÷
    plain; round trips/s of two ÷ plain."""
    human: dict[str, Window] = field(default_factory=dict)
    remote_share: float = math.nan
    """Share of the two-process set-up's player sockets on the process not running their table."""
    placement: dict[str, dict[str, Any]] = field(default_factory=dict)
    kills: list[Kill] = field(default_factory=list)
    capacity: list[Window] = field(default_factory=list)
    pace: dict[str, list[Window]] = field(default_factory=dict)
    """``--parts pace`` (a quick check): human-pace windows of plain and one, in turns."""
    capacity_idle: Usage | None = None
    capacity_idle_after: Usage | None = None
    failed: dict[str, str] = field(default_factory=dict)
    server_log: dict[str, list[str]] = field(default_factory=dict)
    """What each set-up's servers logged (warnings and worse), by set-up."""
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    busy_before: float = 0.0
    elapsed_s: float = 0.0


# ==================================================================================== the run


def table_body(between: float) -> dict[str, Any]:
    return {
        "rules": "italian",
        "players": PLAYERS,
        "smazzate": 20,
        "between_smazzate": between,
        "public": True,
        "seat": 0,
        "round_seconds": 21600,  # a chess clock that never runs out during a run
    }


def median(values: Sequence[float]) -> float:
    clean = [v for v in values if not math.isnan(v)]
    return statistics.median(clean) if clean else math.nan


async def owners(database_url: str, table_ids: Sequence[str]) -> dict[str, str]:
    """Table id -> the name of the process holding its lease."""
    import asyncpg  # type: ignore[import-untyped]
    from tests.store.postgres import _dsn

    connection = await asyncpg.connect(_dsn(database_url))
    try:
        rows = await connection.fetch(
            "SELECT l.table_id, n.name FROM table_leases l JOIN nodes n ON n.id = l.node"
            " WHERE l.table_id = ANY($1::text[])",
            list(table_ids),
        )
    finally:
        await connection.close()
    return {str(row["table_id"]): str(row["name"]) for row in rows}


async def server_stats(http_url: str) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(timeout=30) as http:
        found: dict[str, Any] = (await http.get(http_url + "/api/server/stats")).json()
    found.pop("gc", None)
    return found


def split(numbers: Sequence[int], parts: int) -> list[list[int]]:
    return [list(numbers[i::parts]) for i in range(parts)]


class Runner:
    def __init__(self, args: argparse.Namespace, databases: Iterator[str]) -> None:
        self.args = args
        self.databases = databases
        self.meter = Meter()
        self.folder = Path(tempfile.mkdtemp(prefix="burraco-cluster-bench-"))
        self.clusters: list[Any] = []
        self.clients: Clients | None = None

    # -- set-ups --

    def cluster(self, key: str, *, flags: bool = True, maxconn: int = 2000) -> Any:
        from tests.cluster.harness import Cluster, Proxy

        class BenchProxy(Proxy):
            """The harness's HAProxy with room for the benchmark's sockets."""

            def config(self, servers: Sequence[tuple[str, int]]) -> str:
                text = super().config(servers)
                return text.replace("maxconn 1000", f"maxconn {maxconn}")

        made = Cluster(
            self.folder / key,
            next(self.databases),
            cluster_flags=flags,
            serve_args=SERVE_ARGS,
            log_level="warning",
        )
        made.proxy = BenchProxy(self.folder / key / "haproxy", made.health_path)
        made.bench_key = key  # type: ignore[attr-defined]
        self.clusters.append(made)
        return made

    async def start(self, cluster: Any, count: int) -> None:
        await cluster.start(count)
        self.meter.all_servers = [
            n.process.pid for c in self.clusters for n in c.nodes if n.process is not None
        ]

    def server_pids(self, cluster: Any) -> list[int]:
        return [n.process.pid for n in cluster.nodes if n.alive()]

    def proxy_pids(self, cluster: Any) -> list[int]:
        process = cluster.proxy.process
        return [process.pid] if process is not None and cluster.nodes[1:] else []

    async def stop(self, cluster: Any) -> None:
        """SIGKILL (its database is dropped anyway; a drain of thousands of tables would only
        make the run longer), HAProxy closed, its Redis keys deleted."""
        said = []
        for node in cluster.nodes:
            if node.alive():
                node.kill()
            # What the servers logged (at --log-level warning): the cluster's own warnings.
            said += [
                f"{node.name}: {line}"
                for line in node.log().splitlines()
                if line.strip() and not line.startswith(("----", "Burraco server: open"))
            ]
        if said:
            self.results.server_log[cluster.bench_key] = said[:40] + (
                [f"... {len(said) - 40} more lines"] if len(said) > 40 else []
            )
        cluster.proxy.close()
        with contextlib.suppress(Exception):
            await cluster.redis_flush()
        self.meter.all_servers = [
            n.process.pid for c in self.clusters for n in c.nodes if n.alive() and n.process
        ]

    async def setup_tables(
        self,
        group: str,
        base_url: str,
        count: int,
        body: dict[str, Any],
        *,
        watchers: bool,
        concurrency: int | None = None,
    ) -> list[str]:
        assert self.clients is not None
        started = self.meter.read([])
        replies = await self.clients.ask(
            [
                {
                    "do": "setup",
                    "group": group,
                    "base_url": base_url,
                    "numbers": share,
                    "body": body,
                    "watchers": watchers,
                    "concurrency": concurrency or self.args.setup_concurrency,
                }
                for share in split(range(count), len(self.clients.pipes))
            ],
            timeout=3600,
        )
        ended = self.meter.read([])
        retried: Counter[str] = Counter()
        for reply in replies:
            retried.update(reply["retried"])
        self.results.setup[f"{group}_tables_s"] = max(r["seconds"] for r in replies)
        self.results.setup[f"{group}_servers_cpu_s"] = usage(started, ended).cpu_s["burraco"]
        if retried:
            self.results.setup[f"{group}_retried"] = dict(retried)
            log(f"{group}: set-up requests answered 5xx and tried again: {dict(retried)}")
        return [table_id for reply in replies for table_id in reply["ids"]]

    async def connect(self, group: str, url: str, concurrency: int = 64) -> None:
        assert self.clients is not None
        replies = await self.clients.ask_all(
            {"do": "connect", "group": group, "url": url, "urls": {}, "concurrency": concurrency},
            timeout=3600,
        )
        self.results.setup[f"{group}_connect_s"] = max(r["seconds"] for r in replies)
        troubles: Counter[str] = Counter()
        for reply in replies:
            troubles.update(
                {f"handshake refused, tried again: {k}": v for k, v in reply["refused"].items()}
            )
            troubles.update(
                {f"socket dropped while connecting: {k}": v for k, v in reply["dropped"].items()}
            )
        if troubles:
            self.results.setup[f"{group}_connect_troubles"] = dict(troubles)
            log(f"{group}: while connecting: {dict(troubles)}")

    async def window(
        self,
        cluster: Any,
        group: str,
        name: str,
        mode: str,
        *,
        tables: int,
        seconds: float,
        warmup: float,
        limit: int | None = None,
    ) -> Window:
        import httpx

        assert self.clients is not None
        start = time.monotonic() + 0.5 + warmup
        end = start + seconds
        self.clients.send(
            [
                {
                    "do": "phase",
                    "group": group,
                    "mode": mode,
                    "start": start,
                    "end": end,
                    "limit": limit,
                }
            ]
            * len(self.clients.pipes)
        )
        servers, proxy = self.server_pids(cluster), self.proxy_pids(cluster)
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        before = self.meter.read(servers, proxy)
        wall_start = time.time()
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        after = self.meter.read(servers, proxy)
        wall_end = time.time()
        replies = await self.clients.gather(DRAIN_SECONDS + 120)
        pauses = []
        for node in cluster.nodes:
            with contextlib.suppress(Exception):
                async with httpx.AsyncClient(timeout=30) as http:
                    stats = (await http.get(node.http + "/api/server/stats")).json()
                pauses += [
                    (node.name, int(p["generation"]), float(p["ms"]), float(p["cpu_ms"]))
                    for p in stats["gc"]["long_pauses"]
                    if wall_start <= p["at"] <= wall_end
                ]
        offered = tables / self.args.interval if mode == "human" else None
        done = merge(
            name,
            mode,
            replies,
            tables=tables,
            seconds=seconds,
            offered=offered,
            use=usage(before, after),
        )
        done.gc_pauses = pauses
        longest = max((p[2] for p in pauses), default=0.0)
        cores = done.usage.cores
        log(
            f"{name}: {done.per_s:,.0f}/s"
            + (f" of {offered:,.0f}" if offered else "")
            + f", p50 {done.latency.p50:.1f} ms, p99 {done.latency.p99:.1f} ms; servers "
            f"{cores['servers']:.2f} cores ({done.server_ms_per_action:.2f} ms/action), redis "
            f"{cores['redis']:.2f}, postgres {cores['postgres']:.2f}, haproxy "
            f"{cores['haproxy']:.2f}, clients {cores['clients']:.2f}, others "
            f"{done.usage.others_cores:.2f}; errors {sum(done.errors.values())}"
            f" unanswered {done.unanswered}; GC pauses of 20 ms or more {len(pauses)}"
            f" (longest {longest:,.0f} ms)"
        )
        return done

    # -- the run --

    async def run(self) -> Results:
        args = self.args
        clock = time.monotonic()
        soft, hard = sb.raise_nofile()
        self.results = results = Results(
            started=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            machine=sb.machine_info(),
            settings={
                "small_tables": args.small_tables,
                "full_tables": args.full_tables,
                "tables": args.tables,
                "players": PLAYERS,
                "clients": args.clients,
                "interval_s": args.interval,
                "seconds": args.seconds,
                "full_seconds": args.full_seconds,
                "warmup_s": args.warmup,
                "rounds": args.rounds,
                "kills": args.kills,
                "failover_tables": args.failover_tables,
                "failover_interval_s": 0.5,
                "quick": args.quick,
                "serve_args": list(SERVE_ARGS),
                "table": table_body(2.0),
                "compression": "permessage-deflate",
                "database": "PostgreSQL (a fresh database per set-up)",
            },
        )
        results.limits["bench"] = f"{soft} soft / {hard} hard"
        import burraco

        log(f"the servers run {Path(burraco.__file__).parent}")
        results.load_before = os.getloadavg()
        ticks = sb.machine_ticks()
        await asyncio.sleep(2.0)
        later = sb.machine_ticks()
        results.busy_before = (later[0] - ticks[0]) / max(1, later[1] - ticks[1])
        options = {
            "interval": args.interval,
            "compression": True,
            "setup_concurrency": args.setup_concurrency,
            "connect_concurrency": 64,
        }
        self.clients = Clients(args.clients, options)
        self.meter.clients = self.clients.pids
        results.limits["clients"] = sb.open_files_limit(self.clients.pids[0])
        try:
            for part, step in (
                ("one against two", self.part_compare),
                ("failover", self.part_failover),
                ("capacity", self.part_capacity),
                ("pace", self.part_pace),
            ):
                if part not in args.parts:
                    continue
                try:
                    await step()
                except Exception as error:
                    log(f"{part} failed: {type(error).__name__}: {error}")
                    results.failed[part] = f"{type(error).__name__}: {error}"
                    for cluster in list(self.clusters):
                        for title, text in cluster.logs():
                            tail = "\n".join(text.splitlines()[-15:])
                            print(f"--- {title} ---\n{tail}", file=sys.stderr)
                finally:
                    for cluster in list(self.clusters):
                        await self.stop(cluster)
                        self.clusters.remove(cluster)
        finally:
            self.clients.stop()
            for cluster in self.clusters:
                await self.stop(cluster)
            if args.keep:
                log(f"kept {self.folder}")
            else:
                shutil.rmtree(self.folder, ignore_errors=True)
        results.load_after = os.getloadavg()
        results.elapsed_s = time.monotonic() - clock
        return results

    # ---------------------------------------------------------------- parts 1 and 2

    async def part_compare(self) -> None:
        args, results = self.args, self.results
        assert self.clients is not None
        log("one process against two: starting plain (no Redis), one (cluster of one), two")
        setups = {
            "plain": self.cluster("plain", flags=False),
            "one": self.cluster("one"),
            "two": self.cluster("two", maxconn=4 * PLAYERS * args.small_tables + 1000),
        }
        await self.start(setups["plain"], 1)
        await self.start(setups["one"], 1)
        await self.start(setups["two"], 2)
        results.limits["server"] = sb.open_files_limit(setups["two"].nodes[0].process.pid)
        body = table_body(2.0)
        ids: dict[str, list[str]] = {}
        for key, cluster in setups.items():
            front = cluster.proxy_http if key == "two" else cluster.nodes[0].http
            log(f"{key}: creating {args.small_tables} tables through {front}")
            ids[key] = await self.setup_tables(
                key, front, args.small_tables, body, watchers=key == "two"
            )
        for key, cluster in setups.items():
            ws = cluster.proxy_ws if key == "two" else cluster.nodes[0].ws
            await self.connect(key, ws)
        two = setups["two"]
        await asyncio.sleep(2.0)  # a heartbeat: the figures below are shared at each
        stats = [await server_stats(node.http) for node in two.nodes]
        placed = await owners(two.database_url, ids["two"])
        results.placement["two"] = {
            "tables": dict(Counter(placed.values())),
            "connections": {
                n.name: s["connections"] for n, s in zip(two.nodes, stats, strict=True)
            },
            "remote_watchers": {
                n.name: s["remote_watchers"] for n, s in zip(two.nodes, stats, strict=True)
            },
        }
        results.remote_share = sum(s["remote_watchers"] for s in stats) / (
            PLAYERS * args.small_tables
        )
        log(
            f"two: tables per process {results.placement['two']['tables']}, "
            f"{results.remote_share:.0%} of the sockets on the other process than their table's"
        )

        order = list(setups)
        for round_number in range(args.rounds):
            rotated = order[round_number % 3 :] + order[: round_number % 3]
            done: dict[str, Window] = {}
            for key in rotated:
                done[key] = await self.window(
                    setups[key],
                    key,
                    f"full {key} (round {round_number + 1})",
                    "full",
                    tables=args.full_tables,
                    seconds=args.full_seconds,
                    warmup=3.0,
                    limit=args.full_tables,
                )
                results.full.setdefault(key, []).append(done[key])
            per = {k: w.server_ms_per_action for k, w in done.items()}
            redis_two = done["two"].usage.cpu_s["redis"] / max(1, done["two"].answered) * 1e3
            for name, value in (
                ("two/plain", per["two"] / per["plain"]),
                ("one/plain", per["one"] / per["plain"]),
                ("two/one", per["two"] / per["one"]),
                ("two+redis/plain", (per["two"] + redis_two) / per["plain"]),
                ("rate two/plain", done["two"].per_s / done["plain"].per_s),
            ):
                results.ratios.setdefault(name, []).append(value)
            log(
                f"round {round_number + 1}: CPU per action two ÷ plain "
                f"{per['two'] / per['plain']:.2f}"
            )

        for key in ("plain", "one", "two"):
            results.human[key] = await self.window(
                setups[key],
                key,
                f"human {key}",
                "human",
                tables=args.small_tables,
                seconds=args.seconds,
                warmup=args.warmup,
            )
        log("two: a spectator per table on its owner and one on the other process")
        placed = await owners(two.database_url, ids["two"])
        ports = {node.name: node.ws for node in two.nodes}
        urls = {}
        for table_id, owner in placed.items():
            other = next(name for name in ports if name != owner)
            urls[table_id] = [ports[owner], ports[other]]
        await self.clients.ask_all({"do": "watch", "group": "two", "urls": urls}, timeout=600)
        results.human["two+watchers"] = await self.window(
            two,
            "two",
            "human two (with spectators)",
            "human",
            tables=args.small_tables,
            seconds=args.seconds,
            warmup=args.warmup,
        )
        human = results.human["two+watchers"]
        if human.local is not None and human.remote is not None:
            log(
                f"spectators: local p50 {human.local.p50:.1f} p99 {human.local.p99:.1f} ms, "
                f"remote p50 {human.remote.p50:.1f} p99 {human.remote.p99:.1f} ms"
            )
        for key in setups:
            await self.clients.ask_all({"do": "close", "group": key}, timeout=300)

    async def part_pace(self) -> None:
        """A quick check of human pace alone: plain and one (cluster mode) with
        ``--small-tables`` tables each, ``--rounds`` human-pace windows each, in turns."""
        args, results = self.args, self.results
        setups = {"plain": self.cluster("plain", flags=False), "one": self.cluster("one")}
        for cluster in setups.values():
            await self.start(cluster, 1)
        body = table_body(2.0)
        for key, cluster in setups.items():
            await self.setup_tables(
                key, cluster.nodes[0].http, args.small_tables, body, watchers=False
            )
            await self.connect(key, cluster.nodes[0].ws)
        order = list(setups)
        for round_number in range(args.rounds):
            for key in order[round_number % 2 :] + order[: round_number % 2]:
                done = await self.window(
                    setups[key],
                    key,
                    f"pace {key} (round {round_number + 1})",
                    "human",
                    tables=args.small_tables,
                    seconds=args.seconds,
                    warmup=args.warmup,
                )
                results.pace.setdefault(key, []).append(done)
        for key in setups:
            await self.clients.ask_all({"do": "close", "group": key}, timeout=300)  # type: ignore[union-attr]

    # ---------------------------------------------------------------------- part 3

    async def part_failover(self) -> None:
        args, results = self.args, self.results
        log(f"failover: two processes, {args.failover_tables} tables, {args.kills} kills")
        cluster = self.cluster("failover")
        await self.start(cluster, 2)
        tables = await make_failover_tables(cluster, args.failover_tables)
        clients = [c for t in tables for c in t.clients]
        tasks = [asyncio.get_running_loop().create_task(c.run()) for c in clients]
        try:
            await until(lambda: all(t.moving(2.0) for t in tables), 60, "play to start")
            for number in range(1, args.kills + 1):
                placed = await owners(cluster.database_url, [t.id for t in tables])
                counts = Counter(placed.values())
                victim_name = counts.most_common(1)[0][0]
                victim = next(n for n in cluster.nodes if n.name == victim_name)
                mine = [t for t in tables if placed.get(t.id) == victim_name]
                await until(
                    lambda: all(t.moving(1.5) and t.all_connected() for t in tables),
                    60,
                    "every table playing and every client connected",
                    lambda: [t.state() for t in tables],
                )
                before = {t.id: t.max_seq for t in mine}
                killed_at = time.monotonic()
                victim.kill()
                bound = killed_at + 60

                def resumed(
                    table: FailTable, before: dict[str, int] = before, killed_at: float = killed_at
                ) -> bool:
                    return table.first_after(before[table.id] + RESUME_SKIP, killed_at) is not None

                while time.monotonic() < bound and not all(resumed(t) for t in mine):
                    await asyncio.sleep(0.02)
                # Every client of those tables has heard from the resumed table, and played.
                while time.monotonic() < bound and not all(
                    c.heard_after(before[t.id] + RESUME_SKIP) for t in mine for c in t.clients
                ):
                    await asyncio.sleep(0.02)
                while time.monotonic() < bound and not all(
                    t.first_action_after(before[t.id] + RESUME_SKIP, killed_at) is not None
                    for t in mine
                ):
                    await asyncio.sleep(0.02)
                firsts = [t.first_after(before[t.id] + RESUME_SKIP, killed_at) for t in mine]
                actions = [
                    t.first_action_after(before[t.id] + RESUME_SKIP, killed_at) for t in mine
                ]
                every = [c.heard_after(before[t.id] + RESUME_SKIP) for t in mine for c in t.clients]
                restart_started = time.monotonic()
                await victim.start()
                await cluster.wait_for({victim.name: "UP"}, 30)
                restart_s = time.monotonic() - restart_started
                placed = await owners(cluster.database_url, [t.id for t in mine])
                kill = Kill(
                    number=number,
                    node=victim_name,
                    tables=len(mine),
                    first_event_s=[f - killed_at for f in firsts if f is not None],
                    first_action_s=[a - killed_at for a in actions if a is not None],
                    every_client_s=max(
                        (e - killed_at if e is not None else math.inf for e in every),
                        default=math.nan,
                    ),
                    resumed_by=dict(Counter(placed.values())),
                    restart_s=restart_s,
                    missing=sum(f is None for f in firsts),
                )
                results.kills.append(kill)
                log(
                    f"kill {number}: {victim_name} ({len(mine)} tables): first event "
                    f"{max(kill.first_event_s, default=math.nan):.2f} s (slowest table), first "
                    f"action {max(kill.first_action_s, default=math.nan):.2f} s, every client "
                    f"{kill.every_client_s:.2f} s; restarted in {restart_s:.1f} s"
                )
                await asyncio.sleep(1.0)
        finally:
            for client in clients:
                client.quit = True
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # ---------------------------------------------------------------------- part 4

    async def part_capacity(self) -> None:
        args, results = self.args, self.results
        assert self.clients is not None
        sockets = PLAYERS * args.tables
        log(f"capacity: two processes behind HAProxy, {args.tables} tables, {sockets} sockets")
        cluster = self.cluster("capacity", maxconn=sockets + 1000)
        await self.start(cluster, 2)
        ids = await self.setup_tables(
            "capacity",
            cluster.proxy_http,
            args.tables,
            table_body(2.0),
            watchers=False,
            concurrency=args.capacity_setup,
        )
        log(f"capacity: {len(ids)} tables in {results.setup['capacity_tables_s']:.0f} s")
        await self.connect("capacity", cluster.proxy_ws, concurrency=args.capacity_connect)
        log(f"capacity: {sockets} sockets joined in {results.setup['capacity_connect_s']:.0f} s")
        await asyncio.sleep(2.0)
        servers = self.server_pids(cluster)
        quiet = self.meter.read(servers, self.proxy_pids(cluster))
        await asyncio.sleep(5.0)
        results.capacity_idle = usage(quiet, self.meter.read(servers, self.proxy_pids(cluster)))
        stats = [await server_stats(node.http) for node in cluster.nodes]
        placed = await owners(cluster.database_url, ids)
        results.placement["capacity"] = {
            "tables": dict(Counter(placed.values())),
            "connections": {
                n.name: s["connections"] for n, s in zip(cluster.nodes, stats, strict=True)
            },
            "remote_watchers": {
                n.name: s["remote_watchers"] for n, s in zip(cluster.nodes, stats, strict=True)
            },
        }
        log(f"capacity: placement {results.placement['capacity']}")
        playing = args.tables
        step = 10 if args.quick else 50
        for _ in range(args.steps):
            done = await self.window(
                cluster,
                "capacity",
                f"capacity {playing} tables",
                "human",
                tables=playing,
                seconds=args.seconds,
                warmup=args.warmup,
                limit=playing,
            )
            results.capacity.append(done)
            if done.healthy and done.latency.p99 <= TARGET_P99_MS:
                break
            kept = done.per_s / (done.offered_per_s or 1)
            shrink = min(0.75, kept * 0.85)
            playing = max(step, int(playing * shrink) // step * step)
            if done.tables <= step:
                break
        # The same with no table playing, after play: what the open tables cost by themselves.
        await asyncio.sleep(3.0)
        quiet = self.meter.read(servers, self.proxy_pids(cluster))
        await asyncio.sleep(5.0)
        results.capacity_idle_after = usage(
            quiet, self.meter.read(servers, self.proxy_pids(cluster))
        )
        log(
            f"capacity: none playing after play: servers "
            f"{results.capacity_idle_after.cores['servers']:.2f} cores"
        )
        await self.clients.ask_all({"do": "close", "group": "capacity"}, timeout=300)


# ============================================================================ failover clients


async def until(condition: Any, timeout: float, what: str, state: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}" + (f": {state()}" if state else ""))
        await asyncio.sleep(0.02)


@dataclass
class FailTable:
    id: str
    interval: float
    clients: list[FailClient] = field(default_factory=list)
    last_sent: float = 0.0
    arrivals: dict[int, tuple[float, str]] = field(default_factory=dict)
    """seq -> (first arrival at any of its clients, event kind)."""
    max_seq: int = 0

    def moving(self, within: float) -> bool:
        recent = time.monotonic() - within
        return any(at >= recent for at, _ in self.arrivals.values())

    def all_connected(self) -> bool:
        return all(c.synced for c in self.clients)

    def state(self) -> str:
        last = max(self.arrivals.values(), default=(0.0, "none"))
        return (
            f"{self.id}: last event {time.monotonic() - last[0]:.1f} s ago ({last[1]}), "
            f"synced {[c.synced for c in self.clients]}, "
            f"connections {[c.connections for c in self.clients]}"
        )

    def note(self, seq: int, kind: str, at: float) -> None:
        if seq not in self.arrivals:
            self.arrivals[seq] = (at, kind)
        self.max_seq = max(self.max_seq, seq)

    def first_after(self, seq: int, since: float) -> float | None:
        times = [at for s, (at, _) in self.arrivals.items() if s > seq and at >= since]
        return min(times, default=None)

    def first_action_after(self, seq: int, since: float) -> float | None:
        times = [
            at
            for s, (at, kind) in self.arrivals.items()
            if s > seq and at >= since and kind == "action"
        ]
        return min(times, default=None)


@dataclass
class FailClient:
    """A seat's client through the proxy: random legal actions at the table's pace; when its
    socket drops it connects again (through the proxy) and joins with its last event number;
    a join refused while the table moves is sent again."""

    table: FailTable
    seat: int
    token: str
    url: str
    rng: random.Random
    last_seq: int = 0
    synced: bool = False
    quit: bool = False
    connections: int = 0
    seen: dict[int, float] = field(default_factory=dict)
    """seq -> arrival, of the events this client received."""
    legal: list[str] | None = None
    generation: int = 0
    """Bumped whenever the seat learns what it may do: an act waiting for its turn goes out
    only if nothing newer came meanwhile."""
    _acting: asyncio.Task[None] | None = None

    def heard_after(self, seq: int) -> float | None:
        return min((at for s, at in self.seen.items() if s > seq), default=None)

    async def run(self) -> None:
        from websockets.exceptions import WebSocketException

        while not self.quit:
            with contextlib.suppress(OSError, WebSocketException, TimeoutError):
                await self._session()
            self.synced = False
            if not self.quit:
                await asyncio.sleep(0.05)

    async def _session(self) -> None:
        from websockets.asyncio.client import connect

        async with connect(
            f"{self.url}?token={self.token}", open_timeout=5, ping_interval=None, max_size=1 << 22
        ) as ws:
            self.connections += 1
            await self._join(ws)
            async for raw in ws:
                await self._handle(ws, json.loads(raw))

    async def _join(self, ws: Any) -> None:
        message = {"type": "join", "table": self.table.id, "last_seq": self.last_seq}
        await ws.send(json.dumps(message))

    async def _handle(self, ws: Any, message: dict[str, Any]) -> None:
        now = time.monotonic()
        kind = message["type"]
        table = self.table
        if kind == "snapshot":
            self.last_seq = int(message["seq"])
            self.synced = True
            table.note(self.last_seq, "snapshot", now)
            self.seen.setdefault(self.last_seq, now)
            await self._ready(ws)  # in case the table is at its score sheet (else a no-op)
        elif kind == "event":
            seq = int(message["seq"])
            self.last_seq = seq
            table.note(seq, str(message.get("kind")), now)
            self.seen.setdefault(seq, now)
            if message.get("kind") == "smazzata_end":
                await self._ready(ws)
        elif kind == "synced":
            self.last_seq = int(message["seq"])
            self.synced = True
        elif kind == "error" and message.get("code") in ("table_moved", "no_such_table"):
            await asyncio.sleep(0.1)  # the table is being taken over: join again
            await self._join(ws)
            return
        elif kind == "error" and message.get("ref") == str(self.generation):
            await asyncio.sleep(0.1)  # an action refused (sent as the table moved): again
            self._play(ws, self.legal)
            return
        if kind in ("snapshot", "event", "synced") and "legal" in message:
            # A message that says what the seat may do (None: nothing) replaces what it knew;
            # the others (seats, chat...) leave it as it was.
            self._play(ws, message["legal"])

    def _play(self, ws: Any, legal: list[str] | None) -> None:
        self.legal = legal
        self.generation += 1
        if legal and self.synced:
            self._acting = asyncio.get_running_loop().create_task(
                self._act(ws, legal, self.generation)
            )

    async def _ready(self, ws: Any) -> None:
        await ws.send(json.dumps({"type": "ready", "table": self.table.id}))

    async def _act(self, ws: Any, legal: list[str], generation: int) -> None:
        table = self.table
        delay = table.last_sent + table.interval - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if self.generation != generation or self.quit:
            return  # newer legal actions came meanwhile (and their own act)
        table.last_sent = time.monotonic()
        draws = [a for a in legal if a.split()[1:2] == ["draw"]]
        action = draws[0] if draws and self.rng.random() < 0.8 else self.rng.choice(legal)
        message = {"type": "act", "table": table.id, "action": action, "ref": str(generation)}
        with contextlib.suppress(Exception):
            await ws.send(json.dumps(message))


async def make_failover_tables(cluster: Any, count: int) -> list[FailTable]:
    import httpx

    tables = []
    async with httpx.AsyncClient(base_url=cluster.proxy_http, timeout=30) as http:

        async def guest() -> str:
            answer = await http.post("/api/guest")
            http.cookies.clear()
            if answer.status_code != 200:
                raise RuntimeError(f"guest: {answer.status_code} {answer.text}")
            token: str = answer.json()["token"]
            return token

        for number in range(count):
            tokens = [await guest() for _ in range(PLAYERS)]
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            answer = await http.post("/api/tables", json=table_body(0.5), headers=auth[0])
            if answer.status_code != 201:
                raise RuntimeError(f"create: {answer.status_code} {answer.text}")
            table_id = answer.json()["id"]
            for seat in range(1, PLAYERS):
                sat = await http.post(
                    f"/api/tables/{table_id}/sit", json={"seat": seat}, headers=auth[seat]
                )
                if sat.status_code != 200:
                    raise RuntimeError(f"sit: {sat.status_code} {sat.text}")
            table = FailTable(table_id, 0.5)
            table.clients = [
                FailClient(
                    table, seat, tokens[seat], cluster.proxy_ws, random.Random(number * 10 + seat)
                )
                for seat in range(PLAYERS)
            ]
            tables.append(table)
    return tables


# =================================================================================== reporting


def ms(value: float | None) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:,.1f}"


def sec(value: float) -> str:
    return "–" if math.isnan(value) else ("∞" if math.isinf(value) else f"{value:.2f}")


def gc_text(window: Window) -> str:
    """The servers' collections of 20 ms or more in the window: how many, the longest."""
    pauses = window.gc_pauses
    if not pauses:
        return "0"
    name, generation, longest, cpu = max(pauses, key=lambda p: p[2])
    return (
        f"{len(pauses)} (longest {longest:,.0f} ms, {cpu:,.0f} ms of it CPU, generation "
        f"{generation}, {name})"
    )


def per_action(window: Window, group: str) -> float:
    return window.usage.cpu_s[group] / window.answered * 1e3 if window.answered else math.nan


def summary(results: Results) -> dict[str, Any]:
    """The figures the targets and the model are read from."""
    out: dict[str, Any] = {}
    for key, windows in results.full.items():
        out[f"full_{key}_per_s"] = median([w.per_s for w in windows])
        out[f"full_{key}_ms"] = median([w.server_ms_per_action for w in windows])
        out[f"full_{key}_redis_ms"] = median([per_action(w, "redis") for w in windows])
        out[f"full_{key}_pg_ms"] = median([per_action(w, "postgres") for w in windows])
    for name, values in results.ratios.items():
        out[f"ratio {name}"] = median(values)
    human = results.human.get("two+watchers")
    if human is not None and human.local is not None and human.remote is not None:
        out["local_p99"] = human.local.p99
        out["remote_p99"] = human.remote.p99
        out["remote_extra_p99"] = human.remote.p99 - human.local.p99
    if results.kills:
        slowest = [max(k.first_event_s, default=math.nan) for k in results.kills]
        if any(k.missing for k in results.kills):
            slowest = [
                math.inf if k.missing else s for k, s in zip(results.kills, slowest, strict=True)
            ]
        out["failover_median_s"] = median(slowest)
        out["failover_max_s"] = max(slowest)
        actions = [max(k.first_action_s, default=math.inf) for k in results.kills]
        out["failover_action_median_s"] = median(actions)
        out["failover_action_max_s"] = max(actions)
    held = [w for w in results.capacity if w.healthy and w.latency.p99 <= TARGET_P99_MS]
    if held:
        best = max(held, key=lambda w: w.tables)
        out["held_tables"] = best.tables
        out["held_p99"] = best.latency.p99
        out["held_ms_per_table_s"] = best.usage.cores["servers"] / best.tables * 1e3
    return out


def target_rows(results: Results) -> list[tuple[str, str, bool | None]]:
    s = summary(results)
    rows: list[tuple[str, str, bool | None]] = []
    if "ratio two/plain" in s:
        ratio = s["ratio two/plain"]
        rows.append(
            (
                "server CPU per action, two processes (about half the sockets remote) ÷ one, "
                f"≤ {TARGET_CPU_RATIO:.2f}",
                f"{ratio:.2f} (median of {len(results.ratios['two/plain'])} rounds; "
                f"{results.remote_share:.0%} remote)",
                ratio <= TARGET_CPU_RATIO,
            )
        )
    if "remote_extra_p99" in s:
        rows.append(
            (
                f"watcher on the other process: p99 ≤ local p99 + {TARGET_REMOTE_EXTRA_MS:g} ms",
                f"{s['remote_p99']:.1f} against {s['local_p99']:.1f} ms "
                f"({s['remote_extra_p99']:+.1f} ms)",
                s["remote_extra_p99"] <= TARGET_REMOTE_EXTRA_MS,
            )
        )
    if "failover_max_s" in s:
        rows.append(
            (
                f"failover after SIGKILL ≤ {TARGET_FAILOVER_S:g} s (first event of the resumed "
                "table at a reconnected client, slowest table of each kill)",
                f"median {sec(s['failover_median_s'])} s, max {sec(s['failover_max_s'])} s "
                f"over {len(results.kills)} kills",
                s["failover_max_s"] <= TARGET_FAILOVER_S,
            )
        )
    if results.capacity:
        first = results.capacity[0]
        rows.append(
            (
                f"{TARGET_TABLES:,} four-player tables on two processes at human pace, "
                f"p99 ≤ {TARGET_P99_MS:g} ms",
                f"{first.tables:,} tables: p99 {ms(first.latency.p99)} ms, "
                f"{first.per_s:,.0f} of {first.offered_per_s or 0:,.0f} actions/s"
                + ("" if first.healthy else ", short or errors")
                + f", the machine {first.usage.machine_busy:.0%} busy ("
                + ", ".join(
                    f"{label} {first.usage.cores[group]:.2f}"
                    for label, group in (
                        ("servers", "servers"),
                        ("clients", "clients"),
                        ("HAProxy", "haproxy"),
                        ("PostgreSQL", "postgres"),
                        ("Redis", "redis"),
                    )
                )
                + f", others {first.usage.others_cores:.2f} of {CORES} cores)"
                + (
                    f"; held: {s['held_tables']:,} tables (p99 {s['held_p99']:.1f} ms)"
                    if "held_tables" in s and s["held_tables"] != first.tables
                    else ""
                )
                + ("; none of the steps held" if "held_tables" not in s else ""),
                first.tables >= TARGET_TABLES
                and first.healthy
                and first.latency.p99 <= TARGET_P99_MS,
            )
        )
    return rows


NAMES = {
    "plain": "one process, no Redis",
    "one": "one process, cluster mode",
    "two": "two processes + HAProxy",
}


def compare_rows(results: Results) -> list[str]:
    rows = [
        "| Set-up, full speed | Round trips/s | p50 ms | p99 ms | Server CPU (cores) "
        "| **Server ms/action** | Redis ms/action | PostgreSQL ms/action | HAProxy ms/action "
        "| Clients (cores) | Others (cores) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key, windows in results.full.items():
        rows.append(
            f"| {NAMES[key]} | {median([w.per_s for w in windows]):,.0f} "
            f"| {median([w.latency.p50 for w in windows]):,.1f} "
            f"| {median([w.latency.p99 for w in windows]):,.1f} "
            f"| {median([w.usage.cores['servers'] for w in windows]):.2f} "
            f"| **{median([w.server_ms_per_action for w in windows]):.3f}** "
            f"| {median([per_action(w, 'redis') for w in windows]):.3f} "
            f"| {median([per_action(w, 'postgres') for w in windows]):.3f} "
            f"| {median([per_action(w, 'haproxy') for w in windows]):.3f} "
            f"| {median([w.usage.cores['clients'] for w in windows]):.2f} "
            f"| {median([w.usage.others_cores for w in windows]):.2f} |"
        )
    return rows


def human_rows(results: Results) -> list[str]:
    rows = [
        "| Set-up, human pace | Round trips/s (offered) | p50 ms | p99 ms | max ms | Errors "
        "| Server CPU (cores) | Server ms/action | Redis ms/action | PostgreSQL ms/action |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key, w in results.human.items():
        name = NAMES[key.removesuffix("+watchers")] + (
            " + 2 spectators a table" if key.endswith("+watchers") else ""
        )
        rows.append(
            f"| {name} | {w.per_s:,.0f} ({w.offered_per_s or 0:,.0f}) | {ms(w.latency.p50)} "
            f"| {ms(w.latency.p99)} | {ms(w.latency.max)} "
            f"| {sum(w.errors.values()) + w.unanswered} "
            f"| {w.usage.cores['servers']:.2f} | {w.server_ms_per_action:.3f} "
            f"| {per_action(w, 'redis'):.3f} | {per_action(w, 'postgres'):.3f} |"
        )
    return rows


def watcher_rows(results: Results) -> list[str]:
    human = results.human.get("two+watchers")
    if human is None or human.local is None or human.remote is None:
        return []
    rows = [
        "| Spectator (act sent → its event received) | Events | p50 ms | p90 ms | p99 ms "
        "| max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, lat in (
        ("on the process running the table (local)", human.local),
        ("on the other process (through Redis)", human.remote),
        ("remote − local, per event", human.paired),
    ):
        if lat is not None:
            rows.append(
                f"| {name} | {lat.count:,} | {ms(lat.p50)} | {ms(lat.p90)} | {ms(lat.p99)} "
                f"| {ms(lat.max)} |"
            )
    return rows


def kill_rows(results: Results) -> list[str]:
    if not results.kills:
        return []
    rows = [
        "| Kill | Process | Its tables | First event, median / slowest table (s) "
        "| First action, slowest table (s) | Every client heard (s) | Restart to UP (s) |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for k in results.kills:
        rows.append(
            f"| {k.number} | {k.node} | {k.tables} | {sec(median(k.first_event_s))} / "
            f"{sec(max(k.first_event_s, default=math.nan))}"
            + (f" ({k.missing} never)" if k.missing else "")
            + f" | {sec(max(k.first_action_s, default=math.nan))} | {sec(k.every_client_s)} "
            f"| {k.restart_s:.1f} |"
        )
    return rows


def capacity_rows(results: Results) -> list[str]:
    if not results.capacity:
        return []
    rows = [
        "| Tables playing (of open) | Actions/s (offered) | p50 ms | p99 ms | max ms | Errors "
        "| Servers (cores) | **Server ms/s per table** | Redis | PostgreSQL | HAProxy "
        "| Clients | Machine busy | GC pauses ≥ 20 ms | Held |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: | --- |",
    ]
    total = results.settings["tables"]
    for w in results.capacity:
        c = w.usage.cores
        held = w.healthy and w.latency.p99 <= TARGET_P99_MS
        rows.append(
            f"| {w.tables:,} ({total:,}) | {w.per_s:,.0f} ({w.offered_per_s or 0:,.0f}) "
            f"| {ms(w.latency.p50)} | {ms(w.latency.p99)} | {ms(w.latency.max)} "
            f"| {sum(w.errors.values()) + w.unanswered} | {c['servers']:.2f} "
            f"| **{c['servers'] / w.tables * 1e3:.2f}** | {c['redis']:.2f} | {c['postgres']:.2f} "
            f"| {c['haproxy']:.2f} | {c['clients']:.2f} | {w.usage.machine_busy:.0%} "
            f"| {gc_text(w)} | {'yes' if held else 'no'} |"
        )
    return rows


def detail_lines(results: Results) -> list[str]:
    s = results.settings
    setup = results.setup
    lines = []
    if "two" in results.placement:
        p = results.placement["two"]
        lines.append(
            f"- Two processes, set-up: tables per process {p['tables']}, sockets per process "
            f"{p['connections']}, remote watchers (sockets on the other process than their "
            f"table's) {p['remote_watchers']}: **{results.remote_share:.0%}** of the sockets"
        )
    if results.ratios:
        each = "; ".join(
            f"{name} " + ", ".join(f"{v:.2f}" for v in values)
            for name, values in results.ratios.items()
        )
        lines.append(f"- Ratios per round (CPU per action unless named): {each}")
    for key, windows in results.full.items():
        lines.append(
            f"- full {key}: "
            + "; ".join(
                f"{w.per_s:,.0f}/s, {w.server_ms_per_action:.3f} ms/action, servers "
                f"{w.usage.cores['servers']:.2f} cores, machine {w.usage.machine_busy:.0%} busy, "
                f"GC pauses ≥ 20 ms {gc_text(w)}"
                + (f", errors {w.errors}" if w.errors or w.unanswered else "")
                for w in windows
            )
        )
    for w in results.human.values():
        if w.lag is not None:
            lines.append(
                f"- {w.name}: client send delay after due time p50 {ms(w.lag.p50)} ms, p99 "
                f"{ms(w.lag.p99)} ms; machine {w.usage.machine_busy:.0%} busy; GC pauses of 20 ms "
                f"or more {gc_text(w)}; servers' RSS "
                f"{', '.join(f'{v:.0f}' for v in w.usage.rss_mb.values())} MB"
                + (f"; errors {w.errors}, unanswered {w.unanswered}" if w.errors else "")
            )
    if results.kills:
        every = [e for k in results.kills for e in k.first_event_s]
        lines.append(
            f"- Failover: {s['failover_tables']} tables of 4 client bots (one action per table "
            f"every {s['failover_interval_s']:g} s), every socket through HAProxy; over all "
            f"kills and tables, first event of the resumed table p50 {sec(median(every))} s, "
            f"max {sec(max(every, default=math.nan))} s; the survivor resumed "
            + ", ".join(f"{k.resumed_by}" for k in results.kills[:3])
            + (" ..." if len(results.kills) > 3 else "")
        )
    if "capacity" in results.placement:
        p = results.placement["capacity"]
        lines.append(
            f"- Capacity set-up: {s['tables']:,} tables created through HAProxy in "
            f"{setup.get('capacity_tables_s', 0):.0f} s (servers' CPU "
            f"{setup.get('capacity_servers_cpu_s', 0):.0f} s), {PLAYERS * s['tables']:,} sockets "
            f"joined in {setup.get('capacity_connect_s', 0):.0f} s; tables per process "
            f"{p['tables']}, sockets per process {p['connections']}, remote watchers "
            f"{p['remote_watchers']}"
        )
    if results.capacity_idle is not None:
        idle = results.capacity_idle
        lines.append(
            f"- Capacity, every socket open and no table playing: servers "
            f"{idle.cores['servers']:.3f} cores, Redis {idle.cores['redis']:.3f}, PostgreSQL "
            f"{idle.cores['postgres']:.3f}; servers' RSS "
            f"{', '.join(f'{v:.0f}' for v in idle.rss_mb.values())} MB"
        )
    if results.capacity_idle_after is not None:
        after = results.capacity_idle_after
        lines.append(
            f"- Capacity, no table playing after the steps (every socket still open): servers "
            f"{after.cores['servers']:.3f} cores, Redis {after.cores['redis']:.3f}, PostgreSQL "
            f"{after.cores['postgres']:.3f}"
        )
    for w in results.capacity:
        if w.lag is not None:
            lines.append(
                f"- {w.name}: client send delay p50 {ms(w.lag.p50)} ms, p99 {ms(w.lag.p99)} ms; "
                f"servers' RSS {', '.join(f'{v:.0f}' for v in w.usage.rss_mb.values())} MB; "
                f"other processes {w.usage.others_cores:.2f} cores"
                + (f"; errors {w.errors}, unanswered {w.unanswered}" if w.errors else "")
            )
    for part, error in results.failed.items():
        lines.append(f"- **{part} failed**: {error}")
    for key, said in results.server_log.items():
        shown = "; ".join(f"`{line[:160]}`" for line in said[:6])
        lines.append(
            f"- The {key} set-up's servers logged {len(said)} lines (warnings and worse): {shown}"
            + (" ..." if len(said) > 6 else "")
        )
    lines.append(
        f"- Open-file limits: bench {results.limits.get('bench', '?')}, servers "
        f"{results.limits.get('server', '?')}, clients {results.limits.get('clients', '?')}"
    )
    lines.append(
        f"- Load average: {sb.load_text(results.load_before)} before, "
        f"{sb.load_text(results.load_after)} after; the machine was {results.busy_before:.0%} "
        "busy in the 2 s before the run"
    )
    m = results.machine
    lines.append(f"- Software: {m['python']}, {m['os']}; {m['packages']}; burraco {m['burraco']}")
    return lines


def markdown(results: Results, command: str) -> str:
    s, m = results.settings, results.machine
    lines = [
        START_MARK,
        "<!-- Generated by bench/cluster_bench.py: the next run replaces this section. -->",
        "",
        f"Last run: **{results.started}**, command `{command}`, {results.elapsed_s:.0f} s.",
        "",
        f"- Machine: {m['cpu']}, {m['cores']} logical cores, {m['memory']}; servers, PostgreSQL, "
        f"Redis, HAProxy and the {s['clients']} client processes all share it",
        f"- Settings: parts 1-2 {s['small_tables']:,} tables × {PLAYERS} sockets per set-up, "
        f"{s['rounds']} rounds of {s['full_seconds']:g} s at full speed for "
        f"{s['full_tables']:,} of them (3 s warm-up), human "
        f"pace {s['warmup_s']:g} s warm-up + {s['seconds']:g} s; failover {s['kills']} kills; "
        f"capacity {s['tables']:,} tables; table "
        f"`{json.dumps(s['table'], separators=(',', ':'))}`; serve "
        f"`{' '.join(s['serve_args'])}`",
        "",
        *compare_rows(results),
        "",
    ]
    r = summary(results)
    if "ratio two/plain" in r:
        lines += [
            f"CPU per action (medians of the per-round ratios): two processes ÷ one process "
            f"without Redis **{r['ratio two/plain']:.2f}**; with Redis's own CPU added to the two "
            f"{r['ratio two+redis/plain']:.2f}; one process in cluster mode ÷ without Redis "
            f"{r['ratio one/plain']:.2f}; two ÷ cluster of one {r['ratio two/one']:.2f}. Round "
            f"trips/s two ÷ one: {r['ratio rate two/plain']:.2f}.",
            "",
        ]
    lines += [*human_rows(results), ""]
    watchers = watcher_rows(results)
    if watchers:
        lines += [*watchers, ""]
    kills = kill_rows(results)
    if kills:
        lines += [*kills, ""]
    capacity = capacity_rows(results)
    if capacity:
        lines += [*capacity, ""]
    lines += ["| Target | Measured | Result |", "| --- | --- | --- |"]
    for name, measured, passed in target_rows(results):
        lines.append(f"| {name} | {measured} | {'pass' if passed else '**FAIL**'} |")
    lines += ["", *detail_lines(results), END_MARK]
    return "\n".join(lines) + "\n"


def text_report(results: Results) -> str:
    out = [line.replace("**", "").replace("`", "") for line in compare_rows(results)]
    out += human_rows(results) + watcher_rows(results) + kill_rows(results)
    out += capacity_rows(results)
    for name, measured, passed in target_rows(results):
        out.append(f"{'PASS' if passed else 'FAIL'}  {name}: {measured}")
    out += [line.removeprefix("- ").replace("**", "") for line in detail_lines(results)]
    return "\n".join(line.replace("**", "") for line in out)


def write_json(path: Path, results: Results) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = asdict(results)
    data["summary"] = summary(results)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


# ======================================================================================== main


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--tables", type=int, help=f"capacity: 4-player tables on two processes ({TARGET_TABLES})"
    )
    parser.add_argument(
        "--small-tables", type=int, help="parts 1-2: tables per set-up (200; --quick 20)"
    )
    parser.add_argument(
        "--seconds", type=float, help="measured window at human pace (30 s; --quick 6)"
    )
    parser.add_argument(
        "--full-seconds", type=float, help="each full-speed window (12 s; --quick 4)"
    )
    parser.add_argument(
        "--full-tables",
        type=int,
        help="tables playing in the full-speed windows, of --small-tables (100; --quick 10)",
    )
    parser.add_argument("--warmup", type=float, help="warm-up at human pace (5 s; --quick 2)")
    parser.add_argument("--rounds", type=int, help="full-speed rounds (3; --quick 1)")
    parser.add_argument("--kills", type=int, help="SIGKILLs in the failover part (10; --quick 2)")
    parser.add_argument("--failover-tables", type=int, default=8, help="tables killed under (8)")
    parser.add_argument("--steps", type=int, default=5, help="capacity: most numbers tried (5)")
    parser.add_argument("--interval", type=float, default=2.0, help="human pace: s per action")
    parser.add_argument("--clients", type=int, default=CORES, help="load-generator processes")
    parser.add_argument(
        "--setup-concurrency", type=int, default=6, help="tables set up at once, per client (6)"
    )
    parser.add_argument(
        "--capacity-setup",
        type=int,
        default=12,
        help="capacity: tables set up at once, per client (12)",
    )
    parser.add_argument(
        "--capacity-connect",
        type=int,
        default=16,
        help="capacity: handshakes at once, per client (16: 64 starve the servers' heartbeats)",
    )
    parser.add_argument(
        "--parts",
        default="one against two,failover,capacity",
        help="which parts, comma-separated (default all: 'one against two,failover,capacity')",
    )
    parser.add_argument(
        "--revision",
        help="run the servers on this git revision's src/ (git archive into the run's folder;"
        " default: the working tree)",
    )
    parser.add_argument("--quick", action="store_true", help="a small run (a smoke check)")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (logs)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "tables": (TARGET_TABLES, 100),
        "small_tables": (200, 20),
        "full_tables": (100, 10),
        "seconds": (30.0, 6.0),
        "full_seconds": (12.0, 4.0),
        "warmup": (5.0, 2.0),
        "rounds": (3, 1),
        "kills": (10, 2),
    }
    for name, (full, small) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, small if quick else full)
    args.parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if set(args.parts) - {"one against two", "failover", "capacity", "pace"}:
        parser.error("--parts takes 'one against two', failover, capacity and pace")
    return args


def extract(revision: str, folder: Path) -> str:
    """``revision``'s src/ into ``folder`` (the servers then run it, whatever the working tree
    holds); its short commit id."""
    import subprocess

    commit = subprocess.run(
        ["git", "rev-parse", "--short", f"{revision}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "archive", commit, "src"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return commit


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    source = None
    if args.revision:
        source = Path(tempfile.mkdtemp(prefix="burraco-cluster-bench-src-"))
        commit = extract(args.revision, source)
        sys.path.insert(0, str(source / "src"))  # before anything imports burraco
    from tests.store.postgres import temporary_database

    needed = {"one against two": 3, "failover": 1, "capacity": 1, "pace": 2}
    with contextlib.ExitStack() as stack:
        # Made and dropped outside the run's event loop (the helper runs one of its own).
        urls = [
            stack.enter_context(temporary_database("burraco_cluster_bench"))
            for part in args.parts
            for _ in range(needed[part])
        ]
        try:
            results = asyncio.run(Runner(args, iter(urls)).run())
        finally:
            if source is not None:
                shutil.rmtree(source, ignore_errors=True)
    if args.revision:
        results.machine["burraco"] = f"commit {commit} (--revision {args.revision}: git archive)"
    print(text_report(results))
    if not args.no_write:
        command = "bench/cluster_bench.py" + (f" {' '.join(argv)}" if argv else "")
        sb.write_section(
            README, markdown(results, command), marks=(START_MARK, END_MARK), heading=HEADING
        )
        write_json(JSON_OUT, results)
        print(f"results written to {sb.display(README)} and {sb.display(JSON_OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
