"""The server load benchmark: many 4-player tables of bot clients over real WebSockets.

Run it with ``make bench-server`` (``./scripts/bench-server``). One run:

1. starts ``burraco serve`` (uvicorn, one process, loopback, SQLite in a temporary folder or
   ``--database-url``) with its rate limits raised for the benchmark;
2. has load-generator processes (``--clients``, one per core by default) create N tables over the
   HTTP API (four guests per table: the first creates the table and sits, three sit) and open
   one WebSocket per seat (4 N sockets), each joining its table;
3. **human pace**: every table plays one random legal action every ``--interval`` seconds (the
   seat to act waits until that long after its table's previous action, then sends ``act``);
   the round trip of each action is ``act`` sent -> its ``ack`` received;
4. **full speed**: the same tables play as fast as they can (an action goes out as soon as the
   seat receives its ``legal`` list);
5. **echo baseline**: the Burraco server stops, a bare WebSocket echo app on the same stack
   (FastAPI + uvicorn, the same uvicorn settings, its own process) starts, and the same client
   processes drive the same number of sockets, each sending an ``act``-sized frame and awaiting
   its echo, as fast as they can;
6. reads the CPU time and memory of the server and of the clients from ``/proc`` around every
   phase, and writes the figures into the marked section of ``bench/README.md`` (raw results in
   ``bench/out/server_bench.json``).

Each phase has a warm-up (not counted) and then a measured window of ``--seconds``. On a 2-core
machine the client processes and the server share the cores: the client CPU is reported so that
a reader can see when the clients, not the server, were the limit.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import datetime as dt
import gc
import json
import multiprocessing
import os
import platform
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "bench" / "README.md"
OUT = ROOT / "bench" / "out"
JSON_OUT = OUT / "server_bench.json"
START_MARK = "<!-- server-bench:start -->"
END_MARK = "<!-- server-bench:end -->"

TARGET_TABLES = 1000
"""Concurrent 4-player tables in one server process."""
TARGET_P99_MS = 100.0
"""Round trip at human pace, 99th percentile."""
TARGET_RATIO = 0.5
"""Full-speed Burraco actions/s over echo round trips/s."""

PLAYERS = 4
UVICORN_SETTINGS: dict[str, Any] = {
    "ws_max_size": 1 << 20,
    "ws_ping_interval": 20,
    "ws_ping_timeout": 20,
}
"""What ``burraco serve`` passes to ``uvicorn.run`` (src/burraco/cli/serve.py): the echo app
is served with the same."""
ECHO_FRAME = '{{"type":"act","table":"{table}","action":"0 discard KC","ref":"{ref}"}}'
"""What an echo socket sends: the size of a Burraco ``act``."""
SETUP_TRIES = 4
"""Set-up requests answered 5xx are tried this many times in all (the retries are reported)."""
STARTUP_SECONDS = 60.0
DRAIN_SECONDS = 10.0
"""After a phase, how long the clients wait for the answers to actions still in flight."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1
BUSY_WARNING = 0.1
"""Above this share of the cores busy before the run, the results carry a warning."""
SHARED_CORES = 0.2
"""Cores used by other processes during a phase above which the results carry a warning."""
KEEP_UP = 0.95
"""At human pace the tables must achieve this share of the offered actions/s (the pauses
between smazzate take a little under 1%)."""


# ================================================================================ shared bits


def raise_nofile() -> tuple[int, int]:
    """Raise this process's open-file limit to its hard limit (4 N sockets need it); children
    inherit it. Returns the new (soft, hard) limits."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else 1 << 20
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def log(message: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ============================================================================ /proc readings


@dataclass(frozen=True)
class ProcSample:
    cpu_s: float
    """User + system CPU seconds of the process (all its threads)."""
    rss_mb: float
    peak_rss_mb: float
    main_cpu_s: float = 0.0
    """CPU seconds of its main thread (the server's event loop; the others are the database's
    and the bots' worker threads)."""


def proc_sample(pid: int) -> ProcSample | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14, 15)
    main = cpu
    with contextlib.suppress(OSError, IndexError, ValueError):
        thread = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        main = (int(thread[11]) + int(thread[12])) / CLK_TCK
    memory = {}
    for line in status.splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            name, value = line.split(":", 1)
            memory[name] = int(value.split()[0]) / 1024
    return ProcSample(cpu, memory.get("VmRSS", 0.0), memory.get("VmHWM", 0.0), main)


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies over all CPUs, from /proc/stat."""
    first = Path("/proc/stat").read_text().splitlines()[0].split()
    values = [int(v) for v in first[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    return total - idle, total


def open_files_limit(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                parts = line.split()
                return f"{parts[3]} soft / {parts[4]} hard"
    except OSError:
        pass
    return "?"


@dataclass
class Snapshot:
    at: float
    server: ProcSample | None
    clients: list[ProcSample | None]
    machine: tuple[int, int]


class Watcher:
    """Reads the server's and the clients' /proc figures at chosen moments."""

    def __init__(self) -> None:
        self.server_pid: int | None = None
        self.client_pids: list[int] = []

    def snap(self) -> Snapshot:
        return Snapshot(
            time.monotonic(),
            proc_sample(self.server_pid) if self.server_pid else None,
            [proc_sample(pid) for pid in self.client_pids],
            machine_ticks(),
        )


@dataclass
class Usage:
    """CPU used over a window: seconds and cores (seconds per wall second)."""

    seconds: float
    server_cpu_s: float
    server_cores: float
    server_loop_cores: float
    """The server's main thread (its event loop) alone."""
    client_cpu_s: float
    client_cores: float
    client_cores_each: list[float]
    machine_busy: float
    """Share of all the machine's cores busy (any process)."""
    others_cores: float
    """Cores busy with other processes than the server and the clients (machine busy minus
    theirs): the noise of a shared machine."""
    server_rss_mb: float
    server_rss_peak_mb: float
    """The highest RSS seen during the window (sampled once a second)."""


def usage(start: Snapshot, end: Snapshot, peak_rss: float) -> Usage:
    wall = max(end.at - start.at, 1e-9)
    server = end.server.cpu_s - start.server.cpu_s if end.server and start.server else float("nan")
    loop = (
        end.server.main_cpu_s - start.server.main_cpu_s
        if end.server and start.server
        else float("nan")
    )
    each = [
        (b.cpu_s - a.cpu_s) / wall if a and b else float("nan")
        for a, b in zip(start.clients, end.clients, strict=True)
    ]
    busy = (end.machine[0] - start.machine[0]) / max(1, end.machine[1] - start.machine[1])
    return Usage(
        seconds=wall,
        server_cpu_s=server,
        server_cores=server / wall,
        server_loop_cores=loop / wall,
        client_cpu_s=sum(each) * wall,
        client_cores=sum(each),
        client_cores_each=each,
        machine_busy=busy,
        others_cores=max(0.0, busy * CORES - server / wall - sum(each)),
        server_rss_mb=end.server.rss_mb if end.server else float("nan"),
        server_rss_peak_mb=max(peak_rss, end.server.rss_mb if end.server else 0.0),
    )


# ================================================================================ the servers


class ServerProcess:
    """A server in a subprocess on a free loopback port, with its log in the run's folder."""

    def __init__(self, name: str, command: list[str], folder: Path, health: str) -> None:
        self.name = name
        self.command = command
        self.folder = folder
        self.health = health
        self.port = 0
        self.log_path = folder / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        import httpx

        for _ in range(3):
            self.port = free_port()
            self._log = open(self.log_path, "ab")  # noqa: SIM115 (closed in stop)
            command = [arg.replace("{port}", str(self.port)) for arg in self.command]
            self.process = subprocess.Popen(
                command,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
                cwd=self.folder,
            )
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline and self.process.poll() is None:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(self.base_url + self.health, timeout=2).status_code == 200:
                        return
                time.sleep(0.1)
            self.stop()
        raise RuntimeError(f"{self.name} did not start:\n{self.log_tail()}")

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def burraco_server(folder: Path, args: argparse.Namespace) -> ServerProcess:
    command = [
        *(sys.executable, "-m", "burraco.cli.main", "serve"),
        *("--host", "127.0.0.1", "--port", "{port}"),
        *("--data-dir", str(folder / "data")),
        *("--messages-per-second", "1000000"),
        *("--login-attempts-per-minute", "100000000"),
        *("--disconnect-grace", "600"),
        *("--log-level", "warning"),
    ]
    if args.database_url:
        command += ["--database-url", args.database_url]
    return ServerProcess("burraco", command, folder, "/api/info")


def echo_server(folder: Path) -> ServerProcess:
    command = [sys.executable, str(Path(__file__).resolve()), "echo-server", "--port", "{port}"]
    return ServerProcess("echo", command, folder, "/health")


def run_echo_server(port: int) -> int:
    """The baseline: a bare FastAPI app whose WebSocket sends back every frame it receives,
    served by uvicorn exactly as ``burraco serve`` serves the Burraco app."""
    from starlette.websockets import WebSocket, WebSocketDisconnect

    raise_nofile()

    async def echo(socket: WebSocket) -> None:
        await socket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await socket.send_text(await socket.receive_text())

    return serve_baseline(port, echo)


def serve_baseline(port: int, endpoint: Callable[[Any], Awaitable[None]]) -> int:
    """A bare FastAPI app with ``endpoint`` at ``/ws`` and a health check, served by uvicorn
    exactly as ``burraco serve`` serves the Burraco app."""
    import uvicorn
    from fastapi import FastAPI
    from starlette.routing import WebSocketRoute

    app = FastAPI()
    app.router.routes.append(WebSocketRoute("/ws", endpoint))

    @app.get("/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_SETTINGS)
    return 0


def fanout_server(folder: Path) -> ServerProcess:
    command = [sys.executable, str(Path(__file__).resolve()), "fanout-server", "--port", "{port}"]
    return ServerProcess("fanout", command, folder, "/health")


def sample_event_frames(steps: int = 120, seed: int = 7) -> list[list[str]]:
    """Event frames as the Burraco server words them, one list per seat: a random 4-player
    smazzata, each action published with every seat's own events, view, legal actions (the seat
    to act) and clocks, encoded as the server encodes them. Frames of the right sizes and
    contents, so that compressing them costs what it costs in play."""
    import random as random_module

    from burraco.engine import Smazzata, find_rules
    from burraco.server.protocol import encode
    from burraco.server.wire import ViewJson, events_for

    rules = find_rules("italian", players=PLAYERS)
    rng = random_module.Random(seed)
    frames: list[list[str]] = [[] for _ in range(PLAYERS)]
    views = ViewJson()
    state = Smazzata.new(rules, rng=rng)
    seq = 0
    while len(frames[0]) < steps:
        if state.is_over:
            state = Smazzata.new(rules, rng=rng)
        actions = state.legal_actions()
        action = actions[int(rng.random() * len(actions))]
        events = state.apply(action)
        seq += 1
        for seat in range(PLAYERS):
            legal = state.legal_actions() if not state.is_over and state.current == seat else None
            frames[seat].append(
                encode(
                    {
                        "type": "event",
                        "table": "T0000000000",
                        "seq": seq,
                        "kind": "action",
                        "seat": action.seat,
                        "action": str(action),
                        "auto": False,
                        "events": events_for(events, seat, rules),
                        "view": views(state.view(seat)),
                        "legal": None if legal is None else [str(a) for a in legal],
                        "clock": {
                            "banks": [1790.5, 1801.25, 1795.0, 1799.75],
                            "running": state.current,
                            "turn_left": 58.25,
                            "server_time": 1764460800.123,
                        },
                    }
                )
            )
    return frames


def run_fanout_server(port: int) -> int:
    """A second baseline: the Burraco protocol's traffic without the game. Sockets come in
    groups of four (``?group=``, like a table's seats); a frame from one is answered as an
    ``act`` is, with an ack to it and an event frame (sampled from real play) to each of the
    four, and nothing else: no engine, no database, no views built."""
    from starlette.websockets import WebSocket, WebSocketDisconnect

    raise_nofile()
    frames = sample_event_frames()
    groups: dict[str, list[WebSocket]] = {}

    async def fanout(socket: WebSocket) -> None:
        await socket.accept()
        group = socket.query_params.get("group", "")
        seats = groups.setdefault(group, [])
        seats.append(socket)
        step = 0
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await socket.receive_text()
                step += 1
                await socket.send_text(
                    f'{{"type":"ack","table":"{group}","ref":"{len(text)}","seq":{step}}}'
                )
                for seat, peer in enumerate(list(seats)):
                    sample = frames[seat % PLAYERS]
                    await peer.send_text(sample[step % len(sample)])
        with contextlib.suppress(ValueError):
            seats.remove(socket)

    return serve_baseline(port, fanout)


# ============================================================================ client processes


@dataclass
class Seat:
    table: BenchTable
    index: int
    user: dict[str, Any]
    ws: Any = None
    joined: asyncio.Future[None] | None = None
    sent: dict[str, float] = field(default_factory=dict)
    """Actions in flight: ref -> monotonic time sent."""


@dataclass
class BenchTable:
    id: str
    number: int
    rng: random.Random
    seats: list[Seat] = field(default_factory=list)
    pending: tuple[Seat, list[str], float] | None = None
    """The seat to act, its legal actions and when they arrived."""
    last_sent: float = 0.0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    refs: int = 0
    over: bool = False


@dataclass
class Tally:
    """What one client process saw in one phase's measured window."""

    rtts: array.array[float] = field(default_factory=lambda: array.array("d"))
    lags: array.array[float] = field(default_factory=lambda: array.array("d"))
    sent: int = 0
    answered: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    match_ends: int = 0
    messages: int = 0
    """Messages received by the client process during the window."""
    bytes: int = 0


class PipeWorker:
    """A load-generator process's command loop: the parent sends ``{"do": name, ...}`` over the
    pipe and gets one reply per command (``do_<name>``'s answer); ``cluster_bench.py``'s workers
    share it."""

    def __init__(self, index: int, pipe: Pipe, options: dict[str, Any]) -> None:
        self.index = index
        self.pipe = pipe
        self.options = options
        self.mode = "idle"
        self.window = (0.0, 0.0)
        self.tally = Tally()
        self.interval: float = options["interval"]
        self.compression: str | None = "deflate" if options["compression"] else None
        self.tasks: set[asyncio.Task[None]] = set()

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        commands: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def read() -> None:
            while True:
                try:
                    command = self.pipe.recv()
                except EOFError:
                    command = {"do": "quit"}
                loop.call_soon_threadsafe(commands.put_nowait, command)
                if command["do"] == "quit":
                    return

        threading.Thread(target=read, daemon=True).start()
        while True:
            command = await commands.get()
            name = command.pop("do")
            if name == "quit":
                break
            try:
                reply = await getattr(self, f"do_{name}")(**command)
            except Exception as error:
                reply = {"failed": f"{type(error).__name__}: {error}"}
            self.pipe.send(reply)
        for task in list(self.tasks):
            task.cancel()
        self.pipe.send({"bye": True})

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class ClientWorker(PipeWorker):
    """One load-generator process: its share of the tables, their sockets, the phases."""

    def __init__(self, index: int, pipe: Pipe, options: dict[str, Any]) -> None:
        super().__init__(index, pipe, options)
        self.tables: list[BenchTable] = []
        self.echo_sockets: list[Any] = []
        self.fanout_groups: list[list[Any]] = []

    # -- setup over HTTP --

    async def do_setup(self, base_url: str, numbers: list[int], body: dict[str, Any]) -> Any:
        import httpx

        started = time.monotonic()
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        gate = asyncio.Semaphore(self.options["setup_concurrency"])
        failures: Counter[str] = Counter()
        async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as http:
            post = retrying_post(http, failures)

            async def user() -> dict[str, Any]:
                if self.options["registered"]:
                    name = f"b{random.getrandbits(48):012x}"
                    response = await post(
                        "/api/register", json={"name": name, "password": "bench password"}
                    )
                else:
                    response = await post("/api/guest")
                if response.status_code not in (200, 201):
                    raise RuntimeError(f"login: {response.status_code} {response.text}")
                found: dict[str, Any] = response.json()
                return found

            async def one(number: int) -> BenchTable:
                async with gate:
                    users = [await user() for _ in range(PLAYERS)]
                    table_id = await full_table(post, [u["token"] for u in users], body)
                    table = BenchTable(table_id, number, random.Random(f"bench-{number}"))
                    table.seats = [Seat(table, s, users[s]) for s in range(PLAYERS)]
                    return table

            self.tables = list(await asyncio.gather(*(one(n) for n in numbers)))
        return {
            "tables": len(self.tables),
            "seconds": time.monotonic() - started,
            "retried": dict(failures),
        }

    # -- the Burraco sockets --

    async def do_connect(self, ws_url: str) -> Any:
        from websockets.asyncio.client import connect

        started = time.monotonic()
        gate = asyncio.Semaphore(self.options["connect_concurrency"])
        loop = asyncio.get_running_loop()

        async def open_seat(seat: Seat) -> None:
            async with gate:
                seat.ws = await connect(
                    f"{ws_url}?token={seat.user['token']}",
                    open_timeout=120,
                    ping_interval=None,
                    max_size=1 << 22,
                    compression=self.compression,
                )
                seat.joined = loop.create_future()
                self.spawn(self.read(seat))
                await seat.ws.send(json.dumps({"type": "join", "table": seat.table.id}))
                await asyncio.wait_for(seat.joined, 120)

        await asyncio.gather(*(open_seat(s) for t in self.tables for s in t.seats))
        connected = time.monotonic() - started
        for table in self.tables:
            self.spawn(self.play(table))
        settle_gc()
        return {"sockets": sum(len(t.seats) for t in self.tables), "seconds": connected}

    async def read(self, seat: Seat) -> None:
        """Everything the server sends to one seat's socket."""
        table = seat.table
        try:
            async for raw in seat.ws:
                now = time.monotonic()
                tally = self.tally
                tally.messages += 1
                tally.bytes += len(raw)
                message = json.loads(raw)
                kind = message["type"]
                if kind in ("ack", "error"):
                    answered(self, seat, message, now)
                    continue
                offered(table, seat, message, now)
                if kind == "snapshot" and seat.joined is not None and not seat.joined.done():
                    seat.joined.set_result(None)
                elif kind == "event" and message.get("kind") == "match_end":
                    table.over = True
                    tally.match_ends += 1
        except Exception as error:
            if self.mode != "closing":
                self.tally.errors[f"socket: {type(error).__name__}"] += 1

    async def play(self, table: BenchTable) -> None:
        """The table's players: whoever has legal actions plays one, at the phase's pace."""
        while True:
            pending = table.pending
            if pending is None or self.mode not in ("human", "full") or table.over:
                table.wake.clear()
                await table.wake.wait()
                continue
            if not await play_one(self, table, pending):
                table.over = True

    async def do_phase(self, mode: str, start: float, end: float) -> Any:
        """Play at ``mode`` pace from now; count what is sent in [start, end) (monotonic)."""
        self.tally = Tally()
        self.window = (start, end)
        now = time.monotonic()
        if mode == "human":
            # Spread the tables' first actions over one interval, as people sitting down would.
            rng = random.Random(f"stagger-{self.index}")
            for table in self.tables:
                table.last_sent = now - self.interval + rng.random() * self.interval
        self.mode = mode
        for table in self.tables:
            table.wake.set()
        gc.disable()  # a collection in a client would show as a slow round trip
        try:
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            self.mode = "idle"
            return await self._phase_report(start, end)
        finally:
            gc.enable()
            settle_gc()

    async def _phase_report(self, start: float, end: float) -> dict[str, Any]:
        deadline = time.monotonic() + DRAIN_SECONDS
        while time.monotonic() < deadline and self._in_flight(start, end):
            await asyncio.sleep(0.05)
        tally = self.tally
        self.tally = Tally()
        return {
            "rtts": tally.rtts,
            "lags": tally.lags,
            "sent": tally.sent,
            "answered": tally.answered,
            "unanswered": self._in_flight(start, end),
            "errors": dict(tally.errors),
            "match_ends": tally.match_ends,
            "messages": tally.messages,
            "bytes": tally.bytes,
            "tables_over": sum(t.over for t in self.tables),
        }

    def _in_flight(self, start: float, end: float) -> int:
        return sum(
            1 for t in self.tables for s in t.seats for t0 in s.sent.values() if start <= t0 < end
        )

    async def do_close(self) -> Any:
        self.mode = "closing"
        sockets = [s.ws for t in self.tables for s in t.seats if s.ws is not None]
        sockets += self.echo_sockets
        sockets += [ws for group in self.fanout_groups for ws in group]
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        for task in list(self.tasks):
            task.cancel()
        self.echo_sockets = []
        self.fanout_groups = []
        self.mode = "idle"
        return {"closed": len(sockets)}

    async def _baseline_window(self, loops: list[asyncio.Task[None]], end: float) -> Any:
        """Let a baseline's socket loops run to the end of the window (the collector off, as in
        the Burraco phases), then stop them and report the tally."""
        gc.disable()
        try:
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            self.mode = "idle"
            await asyncio.wait(loops, timeout=DRAIN_SECONDS)
        finally:
            gc.enable()
        for task in loops:
            task.cancel()
        tally = self.tally
        return {
            "rtts": tally.rtts,
            "lags": tally.lags,
            "sent": tally.sent,
            "answered": tally.answered,
            "unanswered": sum(not t.done() for t in loops),
            "errors": dict(tally.errors),
            "match_ends": 0,
            "messages": tally.messages,
            "bytes": tally.bytes,
            "tables_over": 0,
        }

    # -- the fan-out baseline --

    async def do_fanout_connect(self, ws_url: str, groups: list[int]) -> Any:
        from websockets.asyncio.client import connect

        started = time.monotonic()
        gate = asyncio.Semaphore(self.options["connect_concurrency"])

        async def open_one(group: int) -> Any:
            async with gate:
                return await connect(
                    f"{ws_url}?group=g{group}",
                    open_timeout=120,
                    ping_interval=None,
                    max_size=1 << 22,
                    compression=self.compression,
                )

        self.fanout_groups = []
        for group in groups:  # the four of a group in order, so that the server seats them so
            self.fanout_groups.append([await open_one(group) for _ in range(PLAYERS)])
        settle_gc()
        return {"sockets": PLAYERS * len(groups), "seconds": time.monotonic() - started}

    async def do_fanout(self, start: float, end: float) -> Any:
        """Each group plays like a table at full speed: its seats send an ``act``-sized frame
        in turn, each as soon as the previous one's ack is back; every socket reads all it
        gets (the events)."""
        self.tally = Tally()
        self.mode = "fanout"
        loop = asyncio.get_running_loop()

        async def group_loop(number: int, sockets: list[Any]) -> None:
            tally = self.tally
            acks: list[asyncio.Future[None] | None] = [None] * PLAYERS

            async def read(seat: int, ws: Any) -> None:
                async for text in ws:
                    if text.startswith('{"type":"ack"'):
                        waiting = acks[seat]
                        if waiting is not None and not waiting.done():
                            waiting.set_result(None)
                    elif start <= time.monotonic() < end:
                        tally.messages += 1
                        tally.bytes += len(text)

            readers = [loop.create_task(read(seat, ws)) for seat, ws in enumerate(sockets)]
            turn = 0
            try:
                while self.mode == "fanout":
                    frame = ECHO_FRAME.format(table=f"g{self.index}x{number:07d}", ref=turn)
                    waiting = acks[turn] = loop.create_future()
                    t0 = time.monotonic()
                    await sockets[turn].send(frame)
                    await waiting
                    t1 = time.monotonic()
                    if start <= t0 < end:
                        tally.sent += 1
                        tally.answered += 1
                        tally.rtts.append(t1 - t0)
                    turn = (turn + 1) % PLAYERS
            except Exception as error:
                tally.errors[f"socket: {type(error).__name__}"] += 1
            finally:
                for reader in readers:
                    reader.cancel()

        loops = [
            loop.create_task(group_loop(n, sockets)) for n, sockets in enumerate(self.fanout_groups)
        ]
        return await self._baseline_window(loops, end)

    # -- the echo baseline --

    async def do_echo_connect(self, ws_url: str, count: int) -> Any:
        from websockets.asyncio.client import connect

        started = time.monotonic()
        gate = asyncio.Semaphore(self.options["connect_concurrency"])

        async def open_one() -> Any:
            async with gate:
                return await connect(
                    ws_url,
                    open_timeout=120,
                    ping_interval=None,
                    max_size=1 << 22,
                    compression=self.compression,
                )

        self.echo_sockets = list(await asyncio.gather(*(open_one() for _ in range(count))))
        settle_gc()
        return {"sockets": len(self.echo_sockets), "seconds": time.monotonic() - started}

    async def do_echo(self, start: float, end: float) -> Any:
        self.tally = Tally()
        self.window = (start, end)
        self.mode = "echo"

        async def loop(number: int, ws: Any) -> None:
            frame = ECHO_FRAME.format(table=f"e{self.index}x{number:07d}", ref=number)
            tally = self.tally
            try:
                while self.mode == "echo":
                    t0 = time.monotonic()
                    await ws.send(frame)
                    await ws.recv()
                    t1 = time.monotonic()
                    if start <= t0 < end:
                        tally.sent += 1
                        tally.answered += 1
                        tally.messages += 1
                        tally.bytes += len(frame)
                        tally.rtts.append(t1 - t0)
            except Exception as error:
                tally.errors[f"socket: {type(error).__name__}"] += 1

        loops = [
            asyncio.get_running_loop().create_task(loop(n, ws))
            for n, ws in enumerate(self.echo_sockets)
        ]
        return await self._baseline_window(loops, end)


def retrying_post(http: Any, retried: Counter[str]) -> Callable[..., Awaitable[Any]]:
    """``http.post``, tried again (up to SETUP_TRIES times) when the server answers 5xx: the
    retries are counted in ``retried`` and reported, never hidden."""

    async def post(url: str, **kwargs: Any) -> Any:
        for attempt in range(SETUP_TRIES):
            response = await http.post(url, **kwargs)
            http.cookies.clear()  # programs use the bearer token, not the cookie
            if response.status_code < 500 or attempt == SETUP_TRIES - 1:
                return response
            retried[f"{url.rsplit('/', maxsplit=1)[-1]} {response.status_code}"] += 1
            await asyncio.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    return post


async def full_table(
    post: Callable[..., Awaitable[Any]], tokens: Sequence[str], body: dict[str, Any]
) -> str:
    """A table created by the first of ``tokens``' users, the others sat down in turn; it
    must then be playing. Its id."""
    bearer = [{"Authorization": f"Bearer {token}"} for token in tokens]
    response = await post("/api/tables", json=body, headers=bearer[0])
    if response.status_code != 201:
        raise RuntimeError(f"create: {response.status_code} {response.text}")
    table_id: str = response.json()["id"]
    for seat in range(1, len(tokens)):
        response = await post(
            f"/api/tables/{table_id}/sit", json={"seat": seat}, headers=bearer[seat]
        )
        if response.status_code != 200:
            raise RuntimeError(f"sit: {response.status_code} {response.text}")
    if response.json()["status"] != "playing":
        raise RuntimeError(f"table {table_id} did not start")
    return table_id


def answered(worker: Any, seat: Any, message: dict[str, Any], now: float) -> float | None:
    """An ``ack`` or ``error`` for one of ``seat``'s actions: its round trip counted when it
    was sent in the window (an error by its code); the time it was sent, for a counted ack."""
    tally = worker.tally
    t0: float | None = seat.sent.pop(message.get("ref") or "", None)
    counted = t0 is not None and worker.window[0] <= t0 < worker.window[1]
    if message["type"] == "error":
        tally.errors[str(message.get("code", "?"))] += 1
        return None
    if counted and t0 is not None:
        tally.answered += 1
        tally.rtts.append(now - t0)
        return t0
    return None


def offered(table: Any, seat: Any, message: dict[str, Any], now: float) -> None:
    """A message carrying legal actions makes its seat the table's next to play."""
    legal = message.get("legal")
    if legal:
        table.pending = (seat, legal, now)
        table.wake.set()


async def play_one(worker: Any, table: Any, pending: tuple[Any, list[str], float]) -> bool:
    """The table's pending seat plays one of its legal actions at random, as soon as it is due
    at human pace (``worker.interval`` after the table's previous action) or at once at full
    speed; its send time is kept for the round trip. Woken early (news of the table) before it
    is due, it plays nothing. False if the socket failed."""
    due = table.last_sent + worker.interval
    human = worker.mode == "human"
    if human:
        delay = due - time.monotonic()
        if delay > 0:
            table.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.wake.wait(), delay)
            return True
    seat, legal, arrived = pending
    table.pending = None
    action = legal[int(table.rng.random() * len(legal))]
    table.refs += 1
    ref = str(table.refs)
    text = json.dumps({"type": "act", "table": table.id, "action": action, "ref": ref})
    now = time.monotonic()
    seat.sent[ref] = now
    if human:
        table.last_sent = now
    if worker.window[0] <= now < worker.window[1]:
        worker.tally.sent += 1
        if human:
            # How late the action went out: after its due time (the table's previous action +
            # the interval) or after its legal list arrived, whichever is later.
            worker.tally.lags.append(now - max(due, arrived))
    try:
        await seat.ws.send(text)
    except Exception as error:
        seat.sent.pop(ref, None)
        worker.tally.errors[f"send: {type(error).__name__}"] += 1
        return False
    return True


def settle_gc() -> None:
    """Collect, then move every object alive now out of the collector's sight: the clients
    keep thousands of sockets whose objects live as long as the run."""
    gc.collect()
    gc.freeze()


def client_main(
    index: int, pipe: Pipe, options: dict[str, Any], worker: type[PipeWorker] | None = None
) -> None:
    """A load-generator process (started by ``multiprocessing``, spawn), running ``worker``
    (``ClientWorker`` unless given)."""
    raise_nofile()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    try:
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run((worker or ClientWorker)(index, pipe, options).serve())


class Clients:
    """The client processes, driven from the parent over pipes."""

    def __init__(
        self, count: int, options: dict[str, Any], worker: type[PipeWorker] | None = None
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Pipe] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        for index in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=client_main,
                args=(index, theirs, options, worker),
                name=f"bench-client-{index}",
            )
            process.start()
            theirs.close()
            self.pipes.append(mine)
            self.processes.append(process)

    @property
    def pids(self) -> list[int]:
        return [p.pid or 0 for p in self.processes]

    def send(self, commands: Sequence[dict[str, Any]]) -> None:
        for pipe, command in zip(self.pipes, commands, strict=True):
            pipe.send(command)

    def collect(self, timeout: float) -> list[dict[str, Any]]:
        replies = []
        deadline = time.monotonic() + timeout
        for index, pipe in enumerate(self.pipes):
            if not pipe.poll(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"client process {index} did not answer in time")
            reply: dict[str, Any] = pipe.recv()
            if "failed" in reply:
                raise RuntimeError(f"client process {index}: {reply['failed']}")
            replies.append(reply)
        return replies

    def each(self, commands: Sequence[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """One command to each client process; their replies."""
        self.send(commands)
        return self.collect(timeout)

    def all(self, command: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
        return self.each([command] * len(self.pipes), timeout)

    def stop(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError, BrokenPipeError):
                pipe.send({"do": "quit"})
        for process in self.processes:
            process.join(timeout=20)
            if process.is_alive():
                process.kill()
                process.join()


# ================================================================================ the results


@dataclass
class Latency:
    """Round trips in milliseconds."""

    count: int
    p50: float
    p90: float
    p99: float
    p999: float
    max: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        if not seconds:
            nan = float("nan")
            return cls(0, nan, nan, nan, nan, nan, nan)
        ordered = sorted(seconds)

        def at(q: float) -> float:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

        return cls(
            len(ordered),
            at(0.5),
            at(0.9),
            at(0.99),
            at(0.999),
            ordered[-1] * 1000,
            statistics.fmean(ordered) * 1000,
        )


@dataclass
class Phase:
    name: str
    warmup_s: float
    window_s: float
    sockets: int
    per_s: float
    """Answered round trips (actions acknowledged, or echoes) per second in the window."""
    offered_per_s: float | None
    sent: int
    answered: int
    unanswered: int
    errors: dict[str, int]
    latency: Latency
    lag: Latency | None
    """Human pace: how late the clients sent actions after their due time (client delay)."""
    match_ends: int
    tables_over: int
    messages_per_s: float
    megabytes_per_s: float
    usage: Usage
    gc_pauses: list[tuple[int, float, float]] | None = None
    """(generation, wall ms, CPU ms of the collecting thread) per pause of 20 ms or more."""
    """The server's garbage collections of 20 ms or more in the window, as (generation, ms)
    (``/api/server/stats``); None for the echo server, which does not report them."""


@dataclass
class Results:
    started: str
    machine: dict[str, str]
    settings: dict[str, Any]
    limits: dict[str, str] = field(default_factory=dict)
    setup: dict[str, float] = field(default_factory=dict)
    memory: dict[str, float] = field(default_factory=dict)
    phases: dict[str, Phase] = field(default_factory=dict)
    ratio: float = float("nan")
    fanout_ratio: float = float("nan")
    """Fan-out baseline over echo: the most any server of this protocol could reach."""
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    busy_before: float = 0.0
    """Share of the machine's cores busy in the 2 s before the run (other processes)."""
    elapsed_s: float = 0.0
    profile: dict[str, Any] | None = None
    retried: dict[str, int] = field(default_factory=dict)
    """Set-up requests the server answered 5xx, tried again: endpoint and status -> count."""


def gc_pauses(stats_url: str, wall_start: float, wall_end: float) -> list[tuple[int, float, float]]:
    """The server's collections of 20 ms or more between two wall-clock times: (generation, wall
    ms, CPU ms). Wall time well above CPU time means the thread was waiting for a core."""
    import httpx

    stats = httpx.get(stats_url, timeout=30).json()
    return [
        (pause["generation"], pause["ms"], pause["cpu_ms"])
        for pause in stats["gc"]["long_pauses"]
        if wall_start <= pause["at"] <= wall_end
    ]


def pooled(replies: Sequence[dict[str, Any]], name: str) -> list[float]:
    """The client processes' ``name`` lists (round trips, delays ...) as one."""
    return [value for reply in replies for value in reply[name]]


def pooled_errors(replies: Sequence[dict[str, Any]]) -> Counter[str]:
    errors: Counter[str] = Counter()
    for reply in replies:
        errors.update(reply["errors"])
    return errors


def merge_phase(
    name: str,
    replies: list[dict[str, Any]],
    *,
    warmup: float,
    window: float,
    sockets: int,
    offered: float | None,
    use: Usage,
) -> Phase:
    rtts, lags = pooled(replies, "rtts"), pooled(replies, "lags")
    errors = pooled_errors(replies)
    answered = sum(r["answered"] for r in replies)
    return Phase(
        name=name,
        warmup_s=warmup,
        window_s=window,
        sockets=sockets,
        per_s=answered / window,
        offered_per_s=offered,
        sent=sum(r["sent"] for r in replies),
        answered=answered,
        unanswered=sum(r["unanswered"] for r in replies),
        errors=dict(errors),
        latency=Latency.of(rtts),
        lag=Latency.of(lags) if lags else None,
        match_ends=sum(r["match_ends"] for r in replies),
        tables_over=sum(r["tables_over"] for r in replies),
        messages_per_s=sum(r["messages"] for r in replies) / window,
        megabytes_per_s=sum(r["bytes"] for r in replies) / window / 1e6,
        usage=use,
    )


# ==================================================================================== the run


def table_body(args: argparse.Namespace) -> dict[str, Any]:
    body: dict[str, Any] = {
        "rules": "italian",
        "players": PLAYERS,
        "smazzate": 20,
        "between_smazzate": args.between_smazzate,
        "public": True,
        "seat": 0,
    }
    if not args.untimed:
        body["round_seconds"] = 21600  # the longest chess clock: no bank runs out in a run
    return body


class Runner:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.watcher = Watcher()
        self.peak_rss = 0.0

    def idle(self, seconds: float) -> Snapshot:
        """Wait, watching the server's RSS; the snapshot at the end."""
        end = time.monotonic() + seconds
        while True:
            snap = self.watcher.snap()
            if snap.server is not None:
                self.peak_rss = max(self.peak_rss, snap.server.rss_mb)
            left = end - time.monotonic()
            if left <= 0:
                return snap
            time.sleep(min(1.0, left))

    def phase(
        self,
        clients: Clients,
        name: str,
        command: str,
        extra: dict[str, Any],
        *,
        sockets: int,
        offered: float | None,
        stats_url: str | None = None,
    ) -> Phase:
        args = self.args
        start = time.monotonic() + 0.5 + args.warmup
        end = start + args.seconds
        wall_start = time.time() + (start - time.monotonic())
        label = f"{name}: {args.warmup:g} s warm-up, {args.seconds:g} s measured"
        log(label)
        clients.send([{"do": command, "start": start, "end": end, **extra}] * len(clients.pipes))
        self.idle(start - time.monotonic())
        before = self.watcher.snap()
        self.peak_rss = 0.0
        after = self.idle(end - time.monotonic())
        use = usage(before, after, self.peak_rss)
        replies = clients.collect(timeout=DRAIN_SECONDS + 120)
        done = merge_phase(
            name,
            replies,
            warmup=args.warmup,
            window=args.seconds,
            sockets=sockets,
            offered=offered,
            use=use,
        )
        if stats_url is not None:
            done.gc_pauses = gc_pauses(stats_url, wall_start, wall_start + args.seconds)
        log(
            f"{name}: {done.per_s:,.0f}/s, p50 {done.latency.p50:.1f} ms, "
            f"p99 {done.latency.p99:.1f} ms, max {done.latency.max:.1f} ms; server "
            f"{use.server_cores:.2f} cores, clients {use.client_cores:.2f} cores, machine "
            f"{use.machine_busy:.0%} busy, other processes {use.others_cores:.2f} cores; errors "
            f"{sum(done.errors.values())}"
        )
        return done

    def run(self) -> Results:
        args = self.args
        clock = time.monotonic()
        soft, hard = raise_nofile()
        folder = Path(tempfile.mkdtemp(prefix="burraco-server-bench-"))
        results = Results(
            started=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            machine=machine_info(),
            settings={
                "tables": args.tables,
                "players": PLAYERS,
                "sockets": args.tables * PLAYERS,
                "clients": args.clients,
                "interval_s": args.interval,
                "seconds": args.seconds,
                "warmup_s": args.warmup,
                "database": "PostgreSQL" if args.database_url else "SQLite (temporary folder)",
                "compression": "permessage-deflate" if args.compression else "none",
                "users": "registered" if args.registered else "guests",
                "table": table_body(args),
                "py_spy": args.py_spy,
                "phases": args.phases,
            },
        )
        results.limits["bench"] = f"{soft} soft / {hard} hard"
        results.load_before = os.getloadavg()
        ticks = machine_ticks()
        time.sleep(2.0)
        later = machine_ticks()
        results.busy_before = (later[0] - ticks[0]) / max(1, later[1] - ticks[1])
        if results.busy_before > BUSY_WARNING:
            log(f"warning: the machine is already {results.busy_before:.0%} busy")
        options = {
            "interval": args.interval,
            "compression": args.compression,
            "registered": args.registered,
            "setup_concurrency": args.setup_concurrency,
            "connect_concurrency": args.connect_concurrency,
        }
        clients = Clients(args.clients, options)
        self.watcher.client_pids = clients.pids
        server = burraco_server(folder, args)
        echo: ServerProcess | None = None
        fanout: ServerProcess | None = None
        try:
            log(f"starting the server (logs in {folder})")
            server.start()
            self.watcher.server_pid = server.pid
            results.limits["server"] = open_files_limit(server.pid)
            results.limits["clients"] = open_files_limit(clients.pids[0])
            idle = self.idle(2.0)
            assert idle.server is not None
            results.memory["rss_idle_mb"] = idle.server.rss_mb

            log(f"creating {args.tables} tables ({args.tables * PLAYERS} users) over HTTP")
            numbers = list(range(args.tables))
            share = [numbers[i :: args.clients] for i in range(args.clients)]
            body = table_body(args)
            setup_start = self.watcher.snap()
            clients.send(
                [
                    {"do": "setup", "base_url": server.base_url, "numbers": n, "body": body}
                    for n in share
                ]
            )
            replies = clients.collect(timeout=3600)
            setup_end = self.watcher.snap()
            results.setup["tables_s"] = max(r["seconds"] for r in replies)
            retried: Counter[str] = Counter()
            for reply in replies:
                retried.update(reply["retried"])
            results.retried = dict(retried)
            if retried:
                log(f"set-up requests answered 5xx and tried again: {dict(retried)}")
            results.setup["tables_server_cpu_s"] = usage(setup_start, setup_end, 0).server_cpu_s
            tables = self.idle(3.0)
            assert tables.server is not None
            results.memory["rss_tables_mb"] = tables.server.rss_mb

            sockets = args.tables * PLAYERS
            log(f"opening {sockets} WebSockets, each joining its table")
            replies = clients.all({"do": "connect", "ws_url": server.ws_url}, timeout=3600)
            results.setup["connect_s"] = max(r["seconds"] for r in replies)
            quiet_start = self.idle(3.0)
            quiet_end = self.idle(5.0)
            idle_use = usage(quiet_start, quiet_end, 0)
            results.setup["idle_server_cores"] = idle_use.server_cores
            assert quiet_end.server is not None
            results.memory["rss_connected_mb"] = quiet_end.server.rss_mb

            phases = args.phases
            for name in [p for p in phases if p in ("human", "full")]:
                profiler = self.start_profiler(server.pid, name) if args.py_spy == name else None
                results.phases[name] = self.phase(
                    clients,
                    name,
                    "phase",
                    {"mode": name},
                    sockets=sockets,
                    offered=args.tables / args.interval if name == "human" else None,
                    stats_url=server.base_url + "/api/server/stats",
                )
                if profiler is not None:
                    results.profile = self.finish_profiler(profiler)
            last = self.watcher.snap()
            assert last.server is not None
            memory = results.memory
            memory["rss_after_mb"] = last.server.rss_mb
            memory["rss_peak_mb"] = last.server.peak_rss_mb
            for key, rss in (
                ("per_table_kb", memory["rss_connected_mb"]),
                ("per_table_no_sockets_kb", memory["rss_tables_mb"]),
                ("per_table_after_kb", memory["rss_after_mb"]),
            ):
                memory[key] = (rss - memory["rss_idle_mb"]) * 1024 / args.tables

            log("closing the Burraco sockets and stopping the server")
            clients.all({"do": "close"}, timeout=300)
            server.stop()

            if "echo" in phases:
                log("echo baseline: starting the echo server")
                echo = echo_server(folder)
                echo.start()
                self.watcher.server_pid = echo.pid
                results.limits["echo"] = open_files_limit(echo.pid)
                clients.send(
                    [
                        {"do": "echo_connect", "ws_url": echo.ws_url, "count": len(n) * PLAYERS}
                        for n in share
                    ]
                )
                replies = clients.collect(timeout=3600)
                results.setup["echo_connect_s"] = max(r["seconds"] for r in replies)
                echo_idle = self.idle(2.0)
                assert echo_idle.server is not None
                memory["echo_rss_connected_mb"] = echo_idle.server.rss_mb
                results.phases["echo"] = self.phase(
                    clients, "echo", "echo", {}, sockets=sockets, offered=None
                )
                clients.all({"do": "close"}, timeout=300)
            if "fanout" in phases:
                log("fan-out baseline: starting the fan-out server")
                fanout = fanout_server(folder)
                fanout.start()
                self.watcher.server_pid = fanout.pid
                clients.send(
                    [{"do": "fanout_connect", "ws_url": fanout.ws_url, "groups": n} for n in share]
                )
                replies = clients.collect(timeout=3600)
                results.setup["fanout_connect_s"] = max(r["seconds"] for r in replies)
                self.idle(2.0)
                results.phases["fanout"] = self.phase(
                    clients, "fanout", "fanout", {}, sockets=sockets, offered=None
                )
                clients.all({"do": "close"}, timeout=300)
            if "full" in results.phases and "echo" in results.phases:
                results.ratio = results.phases["full"].per_s / results.phases["echo"].per_s
            if "fanout" in results.phases and "echo" in results.phases:
                results.fanout_ratio = results.phases["fanout"].per_s / results.phases["echo"].per_s
        except BaseException:
            for proc in (server, echo, fanout):
                if proc is not None:
                    print(f"--- {proc.name} log (last lines) ---\n{proc.log_tail()}")
            raise
        finally:
            clients.stop()
            server.stop()
            for baseline in (echo, fanout):
                if baseline is not None:
                    baseline.stop()
            if args.keep:
                log(f"kept {folder}")
            else:
                shutil.rmtree(folder, ignore_errors=True)
        results.load_after = os.getloadavg()
        results.elapsed_s = time.monotonic() - clock
        return results

    # -- optional: py-spy on the server during one phase --

    def start_profiler(self, pid: int, phase: str) -> tuple[subprocess.Popen[bytes], Path]:
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"server_{phase}.pyspy.txt"
        seconds = self.args.warmup + self.args.seconds
        py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        command = [
            *(py_spy, "record", "--pid", str(pid), "--format", "raw", "--function"),
            *("--rate", "100", "--duration", str(int(seconds)), "--output", str(path)),
        ]
        log(f"py-spy recording the server into {display(path)}")
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE), path

    def finish_profiler(self, profiler: tuple[subprocess.Popen[bytes], Path]) -> dict[str, Any]:
        process, path = profiler
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        if not path.exists():
            return {"error": err.decode(errors="replace")[-2000:]}
        return summarize_profile(path, self.args.top)


def summarize_profile(path: Path, top: int) -> dict[str, Any]:
    """Own and inclusive shares of samples per function, from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f and not f.startswith(("process ", "thread "))]
        if not frames:
            continue
        total += count
        own[short_frame(frames[-1])] += count
        for frame in {short_frame(f) for f in frames}:
            inclusive[frame] += count
    return {
        "file": display(path),
        "samples": total,
        "own": [(name, count / total) for name, count in own.most_common(top)] if total else [],
        "inclusive": [(name, count / total) for name, count in inclusive.most_common(top * 2)]
        if total
        else [],
    }


def short_frame(frame: str) -> str:
    """``function (path/to/site-packages/pkg/mod.py:12)`` -> ``function (pkg/mod.py:12)``."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    for marker in ("site-packages/", "src/", "lib/python3"):
        if marker in where:
            where = where.split(marker, 1)[1]
            break
    return f"{name} ({where})" if where else name


# ================================================================================= machine info


def machine_info() -> dict[str, str]:
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    os_name = platform.platform()
    with contextlib.suppress(OSError):
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name = f"{line.split('=', 1)[1].strip(chr(34))}, kernel {platform.release()}"
    memory = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    versions = ", ".join(
        f"{name} {package_version(name)}"
        for name in ("uvicorn", "websockets", "uvloop", "fastapi", "starlette", "sqlalchemy")
    )
    return {
        "cpu": model,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": os_name,
        "packages": versions,
        "burraco": f"{package_version('burraco')} ({git_revision()})",
    }


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_revision() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "no git commit"
    dirty = git("status", "--porcelain", "--", "src/burraco/server", "src/burraco/engine")
    return f"commit {commit}" + (", server/engine modified" if dirty else "")


# =================================================================================== reporting


def target_rows(results: Results) -> list[tuple[str, str, bool]]:
    s = results.settings
    human = results.phases.get("human")
    full = results.phases.get("full")
    rows = []
    healthy = (
        human is not None
        and human.answered > 0
        and not human.errors
        and human.unanswered == 0
        and human.per_s >= KEEP_UP * (human.offered_per_s or 0)
    )
    rows.append(
        (
            f"{TARGET_TABLES:,} concurrent 4-player tables ({TARGET_TABLES * PLAYERS:,} sockets) "
            "in one server process, playing at human pace",
            f"{s['tables']:,} tables, {s['sockets']:,} sockets"
            + ("" if healthy else " (errors or shortfall)"),
            s["tables"] >= TARGET_TABLES and healthy,
        )
    )
    if human is not None:
        rows.append(
            (
                f"p99 round trip ≤ {TARGET_P99_MS:g} ms at human pace",
                f"{human.latency.p99:.1f} ms",
                human.latency.p99 <= TARGET_P99_MS,
            )
        )
    if full is not None and "echo" in results.phases:
        rows.append(
            (
                f"full speed ≥ {TARGET_RATIO:.0%} of the echo's round trips/s",
                f"{results.ratio:.1%}",
                results.ratio >= TARGET_RATIO,
            )
        )
    return rows


def ms(value: float) -> str:
    return f"{value:,.1f}"


def phase_rows(results: Results) -> list[str]:
    names = {
        "human": "Burraco, human pace",
        "full": "Burraco, full speed",
        "echo": "Echo baseline, full speed",
        "fanout": "Fan-out baseline (1 frame in, ack + 4 events out, no game), full speed",
    }
    rows = [
        "| Phase | Round trips/s (offered) | p50 ms | p90 ms | p99 ms | max ms | Errors "
        "| Server CPU (cores) | Clients CPU (cores) | Other processes (cores) | Machine busy |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key, phase in results.phases.items():
        offered = f" ({phase.offered_per_s:,.0f})" if phase.offered_per_s else ""
        lat = phase.latency
        use = phase.usage
        errors = sum(phase.errors.values()) + phase.unanswered
        rows.append(
            f"| {names[key]} | {phase.per_s:,.0f}{offered} | {ms(lat.p50)} | {ms(lat.p90)} "
            f"| {ms(lat.p99)} | {ms(lat.max)} | {errors} | {use.server_cores:.2f} "
            f"| {use.client_cores:.2f} | {use.others_cores:.2f} | {use.machine_busy:.0%} |"
        )
    return rows


def detail_lines(results: Results) -> list[str]:
    s, m, mem, setup = results.settings, results.machine, results.memory, results.setup
    lines = [
        f"- Setup: {s['tables']:,} tables of {PLAYERS} ({s['users']}) created over HTTP in "
        f"{setup.get('tables_s', 0):.1f} s (server CPU {setup.get('tables_server_cpu_s', 0):.1f}"
        f" s); {s['sockets']:,} WebSockets opened and joined in {setup.get('connect_s', 0):.1f} s "
        f"by {s['clients']} client processes; idle server with every socket open: "
        f"{setup.get('idle_server_cores', 0):.3f} cores"
        + (
            f"; set-up requests answered 5xx and tried again: {results.retried}"
            if results.retried
            else ""
        ),
        f"- Server memory (RSS): {mem.get('rss_idle_mb', 0):.0f} MB idle, "
        f"{mem.get('rss_tables_mb', 0):.0f} MB with the tables, "
        f"{mem.get('rss_connected_mb', 0):.0f} MB with the tables and their sockets, "
        f"{mem.get('rss_after_mb', 0):.0f} MB after both phases (peak "
        f"{mem.get('rss_peak_mb', 0):.0f} MB); echo server with {s['sockets']:,} sockets: "
        f"{mem.get('echo_rss_connected_mb', 0):.0f} MB",
        f"- Memory per table: **{mem.get('per_table_kb', 0):.0f} KB** with its 4 sockets "
        f"((RSS with tables and sockets − RSS idle) ÷ N), "
        f"{mem.get('per_table_no_sockets_kb', 0):.0f} KB without sockets, "
        f"{mem.get('per_table_after_kb', 0):.0f} KB after the phases",
    ]
    human = results.phases.get("human")
    if human is not None and human.answered:
        per_table = human.usage.server_cores / s["tables"] * 1000
        lines.append(
            f"- Server CPU per table at human pace: **{per_table:.2f} ms per second** "
            f"({human.usage.server_cores:.2f} cores ÷ {s['tables']:,} tables; "
            f"{human.usage.server_cpu_s / human.answered * 1e3:.2f} ms per action)"
        )
    for key, phase in results.phases.items():
        use = phase.usage
        each = " + ".join(f"{c:.2f}" for c in use.client_cores_each)
        text = (
            f"- {key}: {phase.answered:,} round trips answered of {phase.sent:,} sent in the "
            f"{phase.window_s:g} s window; p99.9 {ms(phase.latency.p999)} ms, mean "
            f"{ms(phase.latency.mean)} ms; server CPU {use.server_cpu_s:.1f} s "
            f"({use.server_cores:.2f} cores"
        )
        if key != "echo" and phase.per_s > 0:
            text += f", {use.server_cpu_s / phase.answered * 1e3:.2f} ms per action"
        elif phase.per_s > 0:
            text += f", {use.server_cpu_s / phase.answered * 1e6:.0f} µs per echo"
        text += (
            f"; event-loop thread {use.server_loop_cores:.2f} cores, other threads "
            f"{use.server_cores - use.server_loop_cores:.2f}"
            f"), clients {each} cores; {phase.messages_per_s:,.0f} messages/s "
            f"({phase.megabytes_per_s:.1f} MB/s of JSON) to the clients; server RSS "
            f"{use.server_rss_mb:.0f} MB"
        )
        if phase.gc_pauses is not None:
            pauses = sorted(ms for _generation, ms, _cpu in phase.gc_pauses)
            cpu = sum(cpu for _generation, _ms, cpu in phase.gc_pauses)
            by_generation = Counter(generation for generation, _ms, _cpu in phase.gc_pauses)
            text += f"; garbage-collector pauses of 20 ms or more: {len(pauses)}"
            if pauses:
                text += (
                    f" (generations 0/1/2: {by_generation[0]}/{by_generation[1]}/"
                    f"{by_generation[2]}; longest {pauses[-1]:,.0f} ms, together "
                    f"{sum(pauses):,.0f} ms, of which {cpu:,.0f} ms of CPU)"
                )
        if phase.lag is not None:
            text += (
                f"; client send delay after due time p50 {ms(phase.lag.p50)} ms, p99 "
                f"{ms(phase.lag.p99)} ms"
            )
        if phase.errors or phase.unanswered:
            text += f"; errors {phase.errors}, unanswered {phase.unanswered}"
        if phase.match_ends:
            text += f"; {phase.match_ends} matches ended"
        lines.append(text)
    lines.append(
        f"- Open-file limits: bench {results.limits.get('bench', '?')}, server "
        f"{results.limits.get('server', '?')}, clients {results.limits.get('clients', '?')}"
    )
    lines.append(
        f"- Load average (1 / 5 / 15 min): {load_text(results.load_before)} before, "
        f"{load_text(results.load_after)} after; the machine was {results.busy_before:.0%} busy "
        "in the 2 s before the run"
    )
    lines.append(f"- Software: {m['python']}, {m['os']}; {m['packages']}; burraco {m['burraco']}")
    return lines


def load_text(load: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in load)


def markdown(results: Results, command: str) -> str:
    s, m = results.settings, results.machine
    lines = [
        START_MARK,
        "<!-- Generated by bench/server_bench.py: the next run replaces this section. -->",
        "",
        f"Last run: **{results.started}**, command `{command}`, {results.elapsed_s:.0f} s.",
        "",
        f"- Machine: {m['cpu']}, {m['cores']} logical cores, {m['memory']}; the server, the "
        f"{s['clients']} client processes and the echo server all run on it, so **clients and "
        "server compete for the same cores** (the clients' CPU is shown per phase)",
        f"- Settings: {s['tables']:,} tables × {PLAYERS} WebSockets = {s['sockets']:,} sockets; "
        f"human pace one action per table every {s['interval_s']:g} s; {s['warmup_s']:g} s "
        f"warm-up then {s['seconds']:g} s measured per phase; {s['database']}; compression "
        f"{s['compression']}; table `{json.dumps(s['table'], separators=(',', ':'))}`",
        "",
        *phase_rows(results),
        "",
        f"Full speed ÷ echo: **{results.ratio:.1%}** of the echo's round trips per second."
        + (
            f" The fan-out baseline, this protocol's traffic with no game behind it, reaches "
            f"{results.fanout_ratio:.1%} of the echo: no server of this protocol on this stack can "
            "do better than that."
            if results.fanout_ratio == results.fanout_ratio  # not NaN
            else ""
        ),
        "",
        "| Target | Measured | Result |",
        "| --- | ---: | --- |",
    ]
    for name, measured, passed in target_rows(results):
        lines.append(f"| {name} | {measured} | {'pass' if passed else '**FAIL**'} |")
    lines += ["", *detail_lines(results)]
    if s.get("py_spy"):
        lines += [
            "",
            f"**Profiled run (py-spy on the server during the {s['py_spy']} phase): figures are"
            " low.**",
        ]
    shared = shared_note(results)
    if shared:
        lines += ["", shared]
    lines.append(END_MARK)
    return "\n".join(lines) + "\n"


def shared_note(results: Results) -> str | None:
    """A warning when other processes used the machine during the run, with how much."""
    others = [p.usage.others_cores for p in results.phases.values()]
    if results.busy_before <= BUSY_WARNING and max(others, default=0.0) <= SHARED_CORES:
        return None
    during = (
        f"; during the phases they used {min(others):.2f} to {max(others):.2f} of the {CORES} cores"
        if others
        else ""
    )
    return (
        f"**The machine was shared**: other processes kept it {results.busy_before:.0%} busy "
        f"before the run{during} (load average {load_text(results.load_before)} before, "
        f"{load_text(results.load_after)} after). The server competed with them for the cores: "
        "its figures are lower and its latencies longer and noisier than on a quiet machine."
    )


def text_report(results: Results) -> str:
    out = [line.replace("**", "").replace("`", "") for line in phase_rows(results)]
    out.append(f"full speed / echo: {results.ratio:.1%}")
    out.append(f"fan-out baseline / echo: {results.fanout_ratio:.1%}")
    for name, measured, passed in target_rows(results):
        out.append(f"{'PASS' if passed else 'FAIL'}  {name}: {measured}")
    out += [line.removeprefix("- ").replace("**", "") for line in detail_lines(results)]
    shared = shared_note(results)
    if shared:
        out.append(shared.replace("**", ""))
    if results.profile and "own" in results.profile:
        out.append(f"py-spy ({results.profile['samples']} samples), own time:")
        out += [f"  {share:6.1%}  {name}" for name, share in results.profile["own"]]
        out.append("inclusive:")
        out += [f"  {share:6.1%}  {name}" for name, share in results.profile["inclusive"]]
    return "\n".join(out)


def write_section(
    path: Path,
    section: str,
    *,
    marks: tuple[str, str] = (START_MARK, END_MARK),
    heading: str | None = None,
) -> None:
    """Replace the section of ``path`` between ``marks`` (or append one, under ``heading`` if
    given), keeping the rest of the file."""
    first, last = marks
    text = path.read_text() if path.exists() else ""
    start, end = text.find(first), text.find(last)
    if start != -1 and end > start:
        rest = text[end + len(last) :]
        text = text[:start] + section + rest.removeprefix("\n")
    else:
        title = f"{heading}\n\n" if heading else ""
        text = text.rstrip("\n") + ("\n\n" if text else "") + title + section
    path.write_text(text)


def write_json(path: Path, results: Results) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = asdict(results)
    for phase in data["phases"].values():
        phase["usage"]["client_cores_each"] = list(phase["usage"]["client_cores_each"])
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# ======================================================================================== main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=TARGET_TABLES, help="4-player tables (1000)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="measured window of each phase (60 s)"
    )
    parser.add_argument("--warmup", type=float, default=10.0, help="warm-up of each phase (10 s)")
    parser.add_argument(
        "--interval", type=float, default=2.0, help="human pace: seconds between actions (2)"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=os.cpu_count() or 2,
        help="load-generator processes (default: one per core)",
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL URL (an empty database: open tables left there are resumed at start);"
        " default SQLite in a temporary folder",
    )
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_false",
        help="do not offer permessage-deflate (browsers offer it, and uvicorn accepts it)",
    )
    parser.add_argument(
        "--untimed", action="store_true", help="tables without a chess clock (default: clocked)"
    )
    parser.add_argument(
        "--between-smazzate", type=float, default=2.0, help="pause after a smazzata (2 s)"
    )
    parser.add_argument(
        "--registered", action="store_true", help="registered users instead of guests (argon2)"
    )
    parser.add_argument(
        "--setup-concurrency", type=int, default=4, help="tables set up at once, per client (4)"
    )
    parser.add_argument("--connect-concurrency", type=int, default=64, help="handshakes at once")
    parser.add_argument(
        "--py-spy",
        nargs="?",
        const="full",
        choices=("human", "full"),
        help="record the server with py-spy during a phase (full if not named; pip install py-spy)",
    )
    parser.add_argument("--top", type=int, default=25, help="functions listed by --py-spy")
    parser.add_argument(
        "--phases",
        default="human,full,echo,fanout",
        help="which phases to run, in this order (default human,full,echo,fanout)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the run's temporary folder")
    parser.add_argument("--no-write", action="store_true", help="print only, leave README alone")
    parser.add_argument("--readme", type=Path, default=README, help="file with the marked section")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.clients < 1:
        parser.error("--tables, --seconds and --clients must be positive")
    args.clients = min(args.clients, args.tables)
    args.phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if not args.phases or set(args.phases) - {"human", "full", "echo", "fanout"}:
        parser.error("--phases takes human, full, echo and fanout, separated by commas")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["echo-server"]:
        parser = argparse.ArgumentParser(prog="server_bench.py echo-server")
        parser.add_argument("--port", type=int, required=True)
        return run_echo_server(parser.parse_args(argv[1:]).port)
    if argv[:1] == ["fanout-server"]:
        parser = argparse.ArgumentParser(prog="server_bench.py fanout-server")
        parser.add_argument("--port", type=int, required=True)
        return run_fanout_server(parser.parse_args(argv[1:]).port)
    args = parse_args(argv)
    results = Runner(args).run()
    print(text_report(results))
    if not args.no_write:
        command = f"./scripts/bench-server {' '.join(argv)}" if argv else "make bench-server"
        write_section(args.readme, markdown(results, command))
        write_json(JSON_OUT, results)
        print(f"results written to {display(args.readme)} and {display(JSON_OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
