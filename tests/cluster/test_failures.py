"""A cluster of three processes behind the proxy keeps playing through its processes' deaths,
a rolling restart and a Redis restart (issue 17). The clients are the crash test's: they
reconnect through the proxy whenever their socket drops, join with their last event number and
play on. At the end every record replays to the totals its players were told, and every action
a player was told was accepted is in the table's log exactly once (``chaos.check_match``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from tests.store.postgres import _dsn

from .chaos import SERVE, Match, check_match, open_matches, stop
from .conftest import MakeCluster
from .harness import Cluster, free_port

FINISH_SECONDS = 300.0
KILL_SECONDS = 240.0
"""The chaos test kills for at most this long; then every match must end within FINISH_SECONDS
with no more kills, so that a slow machine (CI's two cores, shared with the other tests) is told
apart from a table that is stuck."""


def unfinished(matches: list[Match]) -> list[str]:
    """What a stuck match looks like, for the failure message."""
    return [
        f"{m.name} ({m.id}): "
        + "; ".join(
            f"{c.name} seq {c.last_seq} connection {c.connection} synced {c.synced} "
            f"smazzata {c.number} legal {c.legal} pending {c.pending} gaps {c.gaps[-2:]} "
            f"errors {c.errors[-2:]}"
            for c in m.clients
        )
        for m in matches
        if not m.over
    ]


async def store_says(cluster: Cluster, matches: list[Match]) -> list[str]:
    """What PostgreSQL holds about the unfinished matches' tables: lease, status, last actions."""
    connection = await asyncpg.connect(_dsn(cluster.database_url))
    try:
        said = [
            "nodes: "
            + ", ".join(
                f"{r[0]} ({r[1]}, {float(r[2]):.1f} s ago)"
                for r in await connection.fetch(
                    "SELECT id, name, extract(epoch FROM clock_timestamp()) - heartbeat_at"
                    " FROM nodes"
                )
            )
        ]
        for m in (m for m in matches if not m.over):
            lease = await connection.fetchrow(
                "SELECT node, token, since FROM table_leases WHERE table_id = $1", m.id
            )
            status = await connection.fetchval("SELECT status FROM game_tables WHERE id = $1", m.id)
            last = await connection.fetch(
                "SELECT match_no, seq, seat, action FROM actions WHERE table_id = $1"
                " ORDER BY match_no DESC, seq DESC LIMIT 3",
                m.id,
            )
            said.append(f"{m.name}: lease {lease}, status {status}, last actions {last}")
    finally:
        await connection.close()
    return said


async def until_over(matches: list[Match], seconds: float, cluster: Cluster | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not all(m.over for m in matches):
        if time.monotonic() >= deadline:
            stored = [] if cluster is None else await store_says(cluster, matches)
            raise AssertionError(
                f"unfinished after {seconds} s: {unfinished(matches)}; store: {stored}"
            )
        await asyncio.sleep(0.2)


async def check_all(cluster: Cluster, matches: list[Match]) -> tuple[int, int]:
    folder = cluster.folder / "records"
    folder.mkdir(parents=True, exist_ok=True)
    actions = acked = 0
    for match in matches:
        played, acknowledged = await check_match(cluster, match, folder)
        actions += played
        acked += acknowledged
    return actions, acked


def test_a_random_process_killed_every_few_seconds(make_cluster: MakeCluster) -> None:
    """20 matches of 3 smazzate; every 2-4 s (the first three at once) one process is
    SIGKILLed and started again 1 s later, until every match has ended (or KILL_SECONDS have
    passed: the matches left then must end without more kills)."""
    cluster = make_cluster(serve_args=SERVE)
    rng = random.Random(17)

    async def scenario() -> tuple[int, int, int, int]:
        await cluster.start(3)
        matches = await open_matches(cluster, 20, smazzate=3)
        kills = 0
        try:
            killing_until = time.monotonic() + KILL_SECONDS
            while not all(m.over for m in matches) and time.monotonic() < killing_until:
                # The first three kills come at once: on an idle machine the matches can end
                # in ten seconds.
                await asyncio.sleep(rng.uniform(0.5, 1) if kills < 3 else rng.uniform(2, 4))
                if all(m.over for m in matches):
                    break
                victim = rng.randrange(len(cluster.nodes))
                cluster.kill(victim)
                kills += 1
                await asyncio.sleep(1)
                await cluster.node(victim).start()
            await until_over(matches, FINISH_SECONDS, cluster)
            actions, acked = await check_all(cluster, matches)
        finally:
            await stop(matches)
        reconnects = sum(c.connection - 1 for m in matches for c in m.clients)
        return kills, actions, acked, reconnects

    kills, actions, acked, reconnects = asyncio.run(scenario())
    print(f"\n{kills} kills, {actions} actions, {acked} acknowledged, {reconnects} reconnects")
    assert kills >= 3 and reconnects > 0


def test_rolling_restart_during_play(make_cluster: MakeCluster) -> None:
    """Each process in turn is stopped with SIGTERM (it drains: its tables go to the others at
    once) and started again; no table stalls for more than 5 s."""
    cluster = make_cluster(serve_args=SERVE)

    async def scenario() -> tuple[int, int, float]:
        await cluster.start(3)
        matches = await open_matches(cluster, 8, smazzate=2)
        worst = 0.0
        try:
            await asyncio.sleep(2)
            for index in range(len(cluster.nodes)):
                began = time.monotonic()
                stopping = asyncio.get_running_loop().create_task(cluster.terminate(index))
                # No table in play waits more than 5 s for its next event while the process
                # drains, exits and a second after (each client's events watched every 50 ms).
                seen = {c.name: (c.last_seq, began) for m in matches for c in m.clients}
                settled: float | None = None
                while settled is None or time.monotonic() < settled + 1.0:
                    if settled is None and stopping.done():
                        settled = time.monotonic()
                    now = time.monotonic()
                    for client in (c for m in matches for c in m.clients):
                        seq, since = seen[client.name]
                        if client.last_seq != seq or client.match_end is not None:
                            seen[client.name] = (client.last_seq, now)
                            continue
                        worst = max(worst, now - since)
                        assert now - since < 5.0, (
                            index,
                            client.name,
                            client.table,
                            now - since,
                            client.connection,
                            client.synced,
                            client.pending,
                            client.errors[-3:],
                        )
                    await asyncio.sleep(0.05)
                code = await stopping
                assert code in (0, -15), code
                await cluster.node(index).start()
            await until_over(matches, FINISH_SECONDS, cluster)
            actions, acked = await check_all(cluster, matches)
        finally:
            await stop(matches)
        return actions, acked, worst

    actions, acked, worst = asyncio.run(scenario())
    print(f"\n{actions} actions, {acked} acknowledged, longest stall {worst:.2f} s")


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """Requested before ``make_cluster``: stopped after the cluster's teardown (its flush)."""
    redis = PrivateRedis(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def test_redis_restart_during_play(private_redis: PrivateRedis, make_cluster: MakeCluster) -> None:
    """The cluster's Redis (a private one: the machine's is shared by other tests) is stopped
    and started again, empty (it keeps nothing on disk); the processes re-subscribe, the tables
    go on, the watchers resynchronise."""
    cluster = make_cluster(serve_args=SERVE)
    redis = private_redis
    cluster.redis_url = redis.url

    async def scenario() -> tuple[int, int]:
        await cluster.start(3)
        matches = await open_matches(cluster, 6)
        try:
            await asyncio.sleep(2)
            redis.stop()
            await asyncio.sleep(2)
            redis.start()
            await until_over(matches, FINISH_SECONDS, cluster)
            return await check_all(cluster, matches)
        finally:
            await stop(matches)

    actions, acked = asyncio.run(scenario())
    print(f"\n{actions} actions, {acked} acknowledged across a Redis restart")


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port, with no persistence."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait(10)


def test_postgresql_connections_dropped_during_play(make_cluster: MakeCluster) -> None:
    """Every connection of the cluster to its database is terminated, twice, during play (what
    a PostgreSQL restart does to its clients; the machine's server is shared with other tests,
    so it is not restarted itself): the processes reconnect, the tables go on, and no
    acknowledged action is lost or stored twice."""
    cluster = make_cluster(serve_args=SERVE)

    async def scenario() -> tuple[int, int, int]:
        await cluster.start(2)
        matches = await open_matches(cluster, 6, smazzate=2)
        dropped = 0
        try:
            for _ in range(2):
                await asyncio.sleep(2.5)
                dropped += await drop_connections(cluster)
            await until_over(matches, FINISH_SECONDS, cluster)
            actions, acked = await check_all(cluster, matches)
        finally:
            await stop(matches)
        return dropped, actions, acked

    dropped, actions, acked = asyncio.run(scenario())
    print(f"\n{dropped} connections dropped, {actions} actions, {acked} acknowledged")
    assert dropped > 0


async def drop_connections(cluster: Cluster) -> int:
    connection = await asyncpg.connect(_dsn(cluster.database_url))
    try:
        killed = await connection.fetchval(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()) AS k"
        )
    finally:
        await connection.close()
    return int(killed)
