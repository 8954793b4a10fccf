"""N real ``burraco serve`` processes on one PostgreSQL and one Redis, behind one HAProxy.

A ``Cluster`` is made for one test (``conftest.make_cluster``): a fresh PostgreSQL database
(``tests.store.postgres``, dropped at the end), a ``--cluster-name`` of its own (every Redis key
and channel of the test starts with it, so tests sharing one Redis never meet), N server
processes on free loopback ports, and HAProxy on another, its configuration written by
``deploy/make-haproxy-cfg``: the same template as the one shipped, with the test's ports, the
stats socket in a folder of the test and no user to drop to.

Conventions of ``tests/server/test_crash.py``'s ``Server``: each process in its own session (so
SIGKILL takes its bot workers with it), its output in a log file of the test (shown when the
test fails), a start that waits until the process answers its health check, and a bounded time
for everything. Everything listens on 127.0.0.1 only.

Redis and HAProxy are required: when either is missing the test FAILS (never skips), so CI
cannot pass without having run the cluster; ``scripts/test`` installs HAProxy and starts Redis
(``scripts/ensure-redis``). PostgreSQL follows ``tests/store/postgres.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.exceptions import RedisError

import burraco
from tests.server.spawn import Spawned, serve_command

ROOT = Path(__file__).resolve().parents[2]
MAKE_HAPROXY_CFG = ROOT / "deploy" / "make-haproxy-cfg"
SOURCE = Path(burraco.__file__).resolve().parents[1]
"""The folder the ``burraco`` under test is imported from (given to the servers' PYTHONPATH)."""
HAPROXY = os.environ.get("BURRACO_HAPROXY", "/usr/sbin/haproxy")
REDIS_URL_ENV = "BURRACO_TEST_REDIS_URL"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

STARTUP_SECONDS = 30.0
"""A process, or HAProxy with every backend checked, answers within this."""
UPGRADE_SECONDS = 60.0
STOP_SECONDS = 40.0
"""SIGTERM to exit: a drain takes up to 30 s (as TimeoutStopSec in deploy/systemd)."""
KILL_SECONDS = 10.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def redis_url() -> str:
    return os.environ.get(REDIS_URL_ENV) or DEFAULT_REDIS_URL


async def ensure_redis(url: str) -> None:
    """FAIL the test (never skip it) when Redis does not answer PING within 5 s."""
    client = aioredis.Redis.from_url(url)
    try:
        async with asyncio.timeout(5):
            await client.ping()
    except (RedisError, OSError, TimeoutError) as error:
        pytest.fail(
            f"Redis at {url} is unreachable ({type(error).__name__}: {error}); the cluster tests"
            f" need it: run scripts/ensure-redis, or set {REDIS_URL_ENV}",
            pytrace=False,
        )
    finally:
        await client.aclose()


def ensure_haproxy() -> None:
    if not os.access(HAPROXY, os.X_OK):
        pytest.fail(
            f"{HAPROXY} is missing: run scripts/test (it installs Debian's haproxy) or"
            " `apt-get install -y haproxy`",
            pytrace=False,
        )


@dataclass(frozen=True)
class Backend:
    """One server line of HAProxy's ``show stat``."""

    name: str
    status: str
    """UP, DOWN, "UP 1/2" (going down), "DOWN 1/1" (going up), MAINT..."""
    check: str
    """The last check's result: L7OK, L7STS (a bad status), L4CON (refused), INI..."""
    current: int
    """Connections open now (an upgraded WebSocket stays counted while it is open)."""
    total: int
    """Connections made since HAProxy started."""


class Node:
    """One ``burraco serve`` process (started again on the same port by ``restart``), spawned
    as every test server process is (``tests.server.spawn.Spawned``)."""

    def __init__(self, cluster: Cluster, index: int) -> None:
        self.cluster = cluster
        self.index = index
        self.name = f"node{index}"
        self.port = free_port()
        self.folder = cluster.folder / self.name
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log_path = self.folder / "server.log"
        self.spawned = Spawned(self.log_path)

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        return self.spawned.process

    @property
    def starts(self) -> int:
        return self.spawned.starts

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def log(self) -> str:
        return self.spawned.log()

    def alive(self) -> bool:
        return self.spawned.alive()

    def command(self) -> list[str]:
        cluster = self.cluster
        options = ["--host", "127.0.0.1", "--port", str(self.port)]
        options += ["--database-url", cluster.database_url, "--data-dir", str(self.folder / "data")]
        options += ["--bot-delay", "0", "--log-level", cluster.log_level]
        if cluster.cluster_flags:
            options += ["--redis-url", cluster.redis_url, "--node", self.name]
            options += ["--cluster-name", cluster.name, "--forwarded-allow-ips", "127.0.0.1"]
        return serve_command(*options, *cluster.serve_args)

    async def start(self) -> None:
        assert not self.alive(), f"{self.name} is running already"
        command = self.command()
        self.spawned.spawn(command, env=self.cluster.environment(), note=" ".join(command[3:]))
        await self.wait_healthy()

    async def wait_healthy(self) -> None:
        """Until the health path answers 200 (the process takes work)."""
        try:
            await self.spawned.aready(self.http + self.cluster.health_path, STARTUP_SECONDS)
        except RuntimeError as failure:
            pytest.fail(f"{self.name}: {failure}")

    def kill(self) -> None:
        """SIGKILL to the whole process group: no drain, no shutdown, nothing."""
        assert self.alive(), f"{self.name} is not running"
        self.spawned.kill()

    async def terminate(self, timeout: float = STOP_SECONDS) -> int:
        """SIGTERM to the server's own process (as systemd's KillMode=mixed), then wait for it to
        exit; what is left of its group is killed afterwards (as systemd does). Its exit code."""
        process = self.process
        assert process is not None and self.alive(), f"{self.name} is not running"
        process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.to_thread(process.wait, timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(KILL_SECONDS)
            pytest.fail(f"{self.name} did not exit {timeout} s after SIGTERM:\n{self.log()}")
        self.spawned.signal_group_end()
        return code

    def stop(self, *, signalled: bool = False) -> None:
        """At the end of the test, whatever state it is in (bounded). ``signalled``: SIGTERM was
        sent already (a second one would make uvicorn quit at once, cutting a drain short)."""
        self.spawned.stop(STOP_SECONDS, signalled=signalled)


class Proxy:
    """HAProxy (``haproxy -db``) on a free loopback port, configured by deploy/make-haproxy-cfg
    for the given servers, its stats socket in a folder of its own."""

    def __init__(self, folder: Path, health_path: str = "/healthz") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.health_path = health_path
        self.port = free_port()
        # A UNIX socket's path is at most 107 bytes, and pytest's folders can be longer.
        self._socket_folder = Path(tempfile.mkdtemp(prefix="burraco-haproxy-"))
        self.stats_socket = self._socket_folder / "stats.sock"
        self.config_path = folder / "haproxy.cfg"
        self.log_path = folder / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def config(self, servers: Sequence[tuple[str, int]]) -> str:
        """deploy/make-haproxy-cfg's text for these (name, loopback port) servers."""
        command = [
            sys.executable,
            str(MAKE_HAPROXY_CFG),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--health-path",
            self.health_path,
            "--stats-socket",
            str(self.stats_socket),
            # (Not the 20000 of production: it needs 40000 file descriptors, more than a test
            # machine's hard limit may allow.)
            "--maxconn",
            "1000",
            *(f"{name}=127.0.0.1:{port}" for name, port in servers),
        ]
        made = subprocess.run(command, check=True, capture_output=True, text=True, timeout=30)
        return made.stdout

    async def start(self, servers: Sequence[tuple[str, int]]) -> None:
        """Until the stats socket answers (the servers' checks have not necessarily run)."""
        ensure_haproxy()
        self.config_path.write_text(self.config(servers), encoding="utf-8")
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [HAPROXY, "-f", str(self.config_path), "-db"],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert self.process.poll() is None, f"haproxy exited:\n{self.log()}"
            with contextlib.suppress(OSError):
                await self.backends()
                return
            assert time.monotonic() < deadline, f"haproxy did not start:\n{self.log()}"
            await asyncio.sleep(0.05)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def logs(self) -> list[tuple[str, str]]:
        return [("haproxy log", self.log()[-20_000:])]

    async def stats_command(self, command: str) -> str:
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(str(self.stats_socket)), 5
        )
        try:
            writer.write(command.encode() + b"\n")
            await writer.drain()
            return (await asyncio.wait_for(reader.read(), 5)).decode()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def backends(self) -> dict[str, Backend]:
        """The backend's servers as HAProxy sees them now (``show stat``)."""
        text = await self.stats_command("show stat")
        rows = csv.DictReader(text.removeprefix("# ").splitlines())
        return {
            row["svname"]: Backend(
                name=row["svname"],
                status=row["status"],
                check=row["check_status"],
                current=int(row["scur"] or 0),
                total=int(row["stot"] or 0),
            )
            for row in rows
            if row["pxname"] == "burraco" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    async def wait_for(self, statuses: dict[str, str], timeout: float) -> float:
        """Until HAProxy shows each named server in the given status (UP: after a good check);
        the seconds it took."""
        started = time.monotonic()

        def reached(seen: dict[str, Backend]) -> bool:
            return all(
                seen[name].status == status and (status != "UP" or seen[name].check == "L7OK")
                for name, status in statuses.items()
            )

        seen = await self.backends()
        while not reached(seen):
            assert time.monotonic() - started < timeout, (
                f"HAProxy did not reach {statuses} in {timeout} s: {seen}\n{self.log()}"
            )
            await asyncio.sleep(0.05)
            seen = await self.backends()
        return time.monotonic() - started

    def close(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(KILL_SECONDS)
        shutil.rmtree(self._socket_folder, ignore_errors=True)


class Cluster:
    """N ``burraco serve`` processes and one HAProxy in front, for one test."""

    def __init__(
        self,
        folder: Path,
        database_url: str,
        *,
        cluster_flags: bool = True,
        health_path: str = "/healthz",
        serve_args: Sequence[str] = (),
        log_level: str = "warning",
    ) -> None:
        """``cluster_flags``: give each process ``--redis-url``, ``--node`` and
        ``--cluster-name`` (the multi-process server of issue 17); without them it is the
        single-process server, N times on one database. ``health_path``: what HAProxy checks
        and what a start waits for (``/healthz``: 200 while the process takes work)."""
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.database_url = database_url
        self.redis_url = redis_url()
        self.cluster_flags = cluster_flags
        self.health_path = health_path
        self.serve_args = tuple(serve_args)
        self.log_level = log_level
        self.name = f"burraco-test-{secrets.token_hex(6)}"
        """The test's --cluster-name: the prefix of its Redis keys and channels."""
        self.nodes: list[Node] = []
        self.proxy = Proxy(folder / "haproxy", health_path)

    # -- addresses --

    def node(self, index: int) -> Node:
        return self.nodes[index]

    @property
    def proxy_http(self) -> str:
        return self.proxy.http

    @property
    def proxy_ws(self) -> str:
        return self.proxy.ws

    def environment(self) -> dict[str, str]:
        path = os.pathsep.join(p for p in (str(SOURCE), os.environ.get("PYTHONPATH")) if p)
        return {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}

    # -- the whole --

    async def start(self, count: int) -> None:
        """The schema once, ``count`` processes at once, then HAProxy with all of them UP."""
        assert not self.nodes, "started already"
        ensure_haproxy()
        await ensure_redis(self.redis_url)
        await self._upgrade()
        self.nodes = [Node(self, index) for index in range(count)]
        await asyncio.gather(*(node.start() for node in self.nodes))
        await self.proxy.start([(node.name, node.port) for node in self.nodes])
        await self.wait_for({node.name: "UP" for node in self.nodes}, STARTUP_SECONDS)

    async def _upgrade(self) -> None:
        command = [sys.executable, "-m", "burraco.cli.main", "db", "upgrade"]
        command += ["--database-url", self.database_url]
        process = await asyncio.create_subprocess_exec(
            *command,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=self.environment(),
        )
        try:
            async with asyncio.timeout(UPGRADE_SECONDS):
                output, _ = await process.communicate()
        except TimeoutError:
            process.kill()
            await process.wait()
            raise
        assert process.returncode == 0, f"burraco db upgrade failed:\n{output.decode()}"

    # -- one process --

    def kill(self, index: int) -> None:
        self.nodes[index].kill()

    async def terminate(self, index: int, timeout: float = STOP_SECONDS) -> int:
        return await self.nodes[index].terminate(timeout)

    async def restart(self, index: int) -> None:
        """SIGTERM (if it is running) and start again on the same port, until it is healthy."""
        node = self.nodes[index]
        if node.alive():
            await node.terminate()
        await node.start()

    # -- HAProxy's view --

    async def backends(self) -> dict[str, Backend]:
        return await self.proxy.backends()

    async def wait_for(self, statuses: dict[str, str], timeout: float) -> float:
        return await self.proxy.wait_for(statuses, timeout)

    # -- Redis --

    async def redis_flush(self) -> int:
        """Delete this cluster's keys (and only them); how many there were."""
        client = aioredis.Redis.from_url(self.redis_url)
        try:
            async with asyncio.timeout(10):
                keys = [key async for key in client.scan_iter(match=f"{self.name}*", count=500)]
                if keys:
                    await client.delete(*keys)
                return len(keys)
        finally:
            await client.aclose()

    # -- the end --

    def logs(self) -> list[tuple[str, str]]:
        """(title, end of the log) of each process and of HAProxy."""
        shown = [(f"{node.name} log", node.log()[-20_000:]) for node in self.nodes]
        return [*shown, *self.proxy.logs()]

    def close(self) -> None:
        """Stop everything, bounded (at the end of the test, whatever happened)."""
        try:
            running = [node for node in self.nodes if node.alive()]
            for node in running:  # all at once: they drain together, not one after the other
                assert node.process is not None
                node.process.send_signal(signal.SIGTERM)
            for node in running:
                node.stop(signalled=True)
        finally:
            self.proxy.close()
