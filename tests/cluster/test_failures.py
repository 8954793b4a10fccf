"""A cluster of three processes behind the proxy keeps playing through its processes' deaths,
a rolling restart and a Redis restart (issue 17). The clients are the crash test's: they
reconnect through the proxy whenever their socket drops, join with their last event number and
play on. At the end every record replays to the totals its players were told, and every action
a player was told was accepted is in the table's log exactly once (``chaos.check_match``).

How long the chaos goes on is the run's depth (tests/depth.py): ``make test`` (quick) plays a
few matches through a few kills, every check the same; ``make test-deep`` and ``make soak`` play
the long form, and ``make soak`` writes its figures to bench/out/soak.json for bench/README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import asyncpg  # type: ignore[import-untyped]
import pytest

from tests.depth import DEPTH, by_depth
from tests.store.postgres import _dsn

from .chaos import SERVE, Checked, Match, check_match, open_matches, stop
from .conftest import MakeCluster
from .harness import Cluster, free_port

FINISH_SECONDS = 300.0


class Chaos(NamedTuple):
    """How much chaos a depth gets."""

    matches: int
    """Two-player tables played through the kills (half against a server bot)."""
    smazzate: int
    """Smazzate per match."""
    kills: int | None
    """At most this many kills (None: until every match has ended or ``seconds`` passed)."""
    seconds: float
    """Kills go on for at most this long; then every match must end within FINISH_SECONDS with
    no more kills, so that a slow machine (CI's two cores, shared with the other tests) is told
    apart from a table that is stuck."""


CHAOS = by_depth(
    quick=Chaos(matches=4, smazzate=5, kills=4, seconds=120.0),
    deep=Chaos(matches=20, smazzate=3, kills=None, seconds=240.0),
)
"""quick: 4 matches of 5 smazzate, at most 4 kills (the matches must outlast three kills, and on
a loaded machine a killed process takes up to 20 s to be back: 4 matches of 4 smazzate saw only
3 kills there); deep and soak: 20 matches of 3 smazzate, kills until they end (the form the test
had before depths)."""
KILL_SECONDS = CHAOS.seconds
ROLLING_MATCHES = by_depth(quick=4, deep=8)
"""Matches of 2 smazzate in play through the rolling restart."""
REDIS_MATCHES = by_depth(quick=3, deep=6)
"""Matches of 1 smazzata in play through the Redis restart."""
DROP_MATCHES = by_depth(quick=3, deep=6)
"""Matches of 2 smazzate in play while PostgreSQL's connections are dropped twice."""
SOAK_REPORT = Path(__file__).resolve().parents[2] / "bench" / "out" / "soak.json"
"""Where ``make soak`` (depth soak) leaves the chaos figures (bench/README.md, "Soak")."""


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


async def check_all(cluster: Cluster, matches: list[Match]) -> Checked:
    """Every match checked (``chaos.check_match``); their figures summed."""
    folder = cluster.folder / "records"
    folder.mkdir(parents=True, exist_ok=True)
    checked = [await check_match(cluster, match, folder) for match in matches]
    return Checked(*(sum(figures) for figures in zip(*checked, strict=True)))


def test_a_random_process_killed_every_few_seconds(make_cluster: MakeCluster) -> None:
    """CHAOS.matches matches of CHAOS.smazzate smazzate; every 2-4 s (the first three at once)
    one process is SIGKILLed and started again 1 s later, until every match has ended (or
    CHAOS.kills kills were made, or KILL_SECONDS have passed: the matches left then must end
    without more kills)."""
    cluster = make_cluster(serve_args=SERVE)
    rng = random.Random(17)
    began = time.monotonic()

    async def scenario() -> tuple[int, Checked, int]:
        await cluster.start(3)
        matches = await open_matches(cluster, CHAOS.matches, smazzate=CHAOS.smazzate)
        kills = 0
        try:
            killing_until = time.monotonic() + KILL_SECONDS
            while (
                not all(m.over for m in matches)
                and time.monotonic() < killing_until
                and (CHAOS.kills is None or kills < CHAOS.kills)
            ):
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
            checked = await check_all(cluster, matches)
        finally:
            await stop(matches)
        reconnects = sum(c.connection - 1 for m in matches for c in m.clients)
        return kills, checked, reconnects

    kills, checked, reconnects = asyncio.run(scenario())
    figures: dict[str, object] = {
        "depth": DEPTH,
        "matches": CHAOS.matches,
        "smazzate per match": CHAOS.smazzate,
        "kills": kills,
        "actions": checked.actions,
        "acknowledged": checked.acknowledged,
        "stored, acknowledgement lost at a kill": checked.unacknowledged,
        "acknowledged but lost": checked.lost,
        "reconnects": reconnects,
        "seconds": round(time.monotonic() - began, 1),
    }
    print("\nchaos: " + ", ".join(f"{key} {value}" for key, value in figures.items()))
    if DEPTH == "soak":
        report(figures)
    assert kills >= 3 and reconnects > 0


def report(figures: dict[str, object]) -> None:
    """The soak's figures, with where they were taken, for bench/README.md ("Soak")."""
    SOAK_REPORT.parent.mkdir(parents=True, exist_ok=True)
    taken = {
        "taken": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "load average": [round(x, 2) for x in os.getloadavg()],
    }
    SOAK_REPORT.write_text(json.dumps({**taken, **figures}, indent=2) + "\n", encoding="utf-8")


def test_rolling_restart_during_play(make_cluster: MakeCluster) -> None:
    """Each process in turn is stopped with SIGTERM (it drains: its tables go to the others at
    once) and started again; no table stalls for more than 5 s."""
    cluster = make_cluster(serve_args=SERVE)

    async def scenario() -> tuple[int, int, float, list[int]]:
        await cluster.start(3)
        matches = await open_matches(cluster, ROLLING_MATCHES, smazzate=2)
        worst = 0.0
        in_play: list[int] = []
        try:
            await asyncio.sleep(2)
            for index in range(len(cluster.nodes)):
                in_play.append(sum(not m.over for m in matches))
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
            actions, acked, *_ = await check_all(cluster, matches)
        finally:
            await stop(matches)
        return actions, acked, worst, in_play

    actions, acked, worst, in_play = asyncio.run(scenario())
    print(
        f"\n{actions} actions, {acked} acknowledged, longest stall {worst:.2f} s;"
        f" matches in play as each process stopped: {in_play}"
    )


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
        matches = await open_matches(cluster, REDIS_MATCHES)
        try:
            await asyncio.sleep(2)
            redis.stop()
            await asyncio.sleep(2)
            redis.start()
            await until_over(matches, FINISH_SECONDS, cluster)
            actions, acked, *_ = await check_all(cluster, matches)
            return actions, acked
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
        matches = await open_matches(cluster, DROP_MATCHES, smazzate=2)
        dropped = 0
        try:
            for _ in range(2):
                await asyncio.sleep(2.5)
                dropped += await drop_connections(cluster)
            await until_over(matches, FINISH_SECONDS, cluster)
            actions, acked, *_ = await check_all(cluster, matches)
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
