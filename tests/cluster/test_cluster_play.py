"""Whole matches on a cluster of three processes behind the proxy (issue 17): the table runs in
one process, its players and spectator are connected to all three, so most of them follow it
through another process (their messages forwarded over Redis, its answers sent back). Every
message every client received goes through the leak check of the single-process tests
(``tests/server/oracle.py``: each seat sees exactly its own view, no card it may not know), and
the record downloaded through the proxy replays with ``burraco replay`` to the announced totals.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from tests.server.oracle import check_match
from tests.server.support import Played
from tests.store.postgres import _dsn

from .conftest import MakeCluster
from .harness import Cluster
from .servers import NodeServer, open_spread_table, record_folder, servers

MATCH_SECONDS = 240.0
SERVE = ("--login-attempts-per-minute", "100000", "--messages-per-second", "1000")
"""Every client of these tests logs in from 127.0.0.1 (the per-address limit, shared by the
processes, would refuse the fifth guest) and plays without thinking."""


async def owner_of(cluster: Cluster, table_id: str) -> str:
    """The name of the process that holds the table's lease."""
    connection = await asyncpg.connect(_dsn(cluster.database_url))
    try:
        name = await connection.fetchval(
            "SELECT n.name FROM table_leases l JOIN nodes n ON n.id = l.node WHERE l.table_id = $1",
            table_id,
        )
    finally:
        await connection.close()
    assert name is not None, f"nobody holds table {table_id}"
    return str(name)


async def play_across(
    cluster: Cluster, *, players: int, bots: dict[int, str], **table: Any
) -> tuple[Played, str]:
    nodes = servers(cluster)
    proxy = NodeServer(cluster, None)
    played = await open_spread_table(proxy, nodes, players=players, bots=bots, **table)
    owner = await owner_of(cluster, played.table)
    clients = played.clients
    try:
        ends = await asyncio.wait_for(
            asyncio.gather(played.spectator.follow(), *(c.play() for c in clients)),
            MATCH_SECONDS,
        )
    finally:
        await played.close()
    assert all(end == ends[0] for end in ends)
    played.match_end = ends[0]
    return played, owner


def fronts_of(played: Played) -> list[str]:
    return [
        client.server.name  # type: ignore[attr-defined]
        for client in [played.spectator, *played.clients]
    ]


def test_two_and_four_players_followed_from_every_process(make_cluster: MakeCluster) -> None:
    cluster = make_cluster(serve_args=SERVE)

    async def scenario() -> list[tuple[Played, str]]:
        await cluster.start(3)
        duo = play_across(cluster, players=2, bots={}, smazzate=2)
        quad = play_across(cluster, players=4, bots={2: "greedy"}, smazzate=1)
        return list(await asyncio.gather(duo, quad))

    results = asyncio.run(scenario())
    proxy = NodeServer(cluster, None)
    for played, owner in results:
        fronts = fronts_of(played)
        remote = [front for front in fronts if front != owner]
        assert remote, (owner, fronts)  # someone followed it through another process
        assert played.end["ended"] == "complete"
        oracle = check_match(proxy, played, record_folder(cluster))
        assert len(oracle.record.hands) >= 1
        print(f"\n{played.table}: run by {owner}, clients on {fronts}, {oracle.last_seq} events")
