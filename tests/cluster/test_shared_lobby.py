"""The lobby of a cluster (docs/cluster.md, "Shared figures"): each process publishes its lobby
tables at its heartbeat, rewritten only when they changed and read by the others only when its
version moved. So a change must reach the other process within a beat or two: a table created,
a seat taken, the table cancelled; and a table's lobby entry is the same on both processes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.server.support import Api, unique_name

from .conftest import MakeCluster
from .harness import Cluster
from .servers import servers

SERVE = ("--login-attempts-per-minute", "100000")
SEEN_SECONDS = 5.0
"""A change is in the other process's lobby within this (beats are 1 s apart)."""


def test_the_lobby_follows_each_change_on_the_other_process(make_cluster: MakeCluster) -> None:
    cluster = make_cluster(serve_args=SERVE)
    asyncio.run(asyncio.wait_for(scenario(cluster), 120))


async def lobby_at(http: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    answer = await http.get("/api/tables")
    assert answer.status_code == 200, answer.text
    return {entry["id"]: entry for entry in answer.json()}


async def until_seen(
    http: httpx.AsyncClient, what: str, check: Callable[[dict[str, dict[str, Any]]], bool]
) -> dict[str, dict[str, Any]]:
    deadline = time.monotonic() + SEEN_SECONDS
    while True:
        lobby = await lobby_at(http)
        if check(lobby):
            return lobby
        assert time.monotonic() < deadline, f"{what}: not in the other lobby: {lobby}"
        await asyncio.sleep(0.1)


async def scenario(cluster: Cluster) -> None:
    await cluster.start(2)
    first, second = servers(cluster)
    async with Api(first) as api, httpx.AsyncClient(base_url=second.url, timeout=10) as other:
        creator = await api.register(unique_name("p"))
        info = await api.create_table(creator, players=4, seat=0, public=True, smazzate=2)
        table_id = info["id"]
        mine = await lobby_at(api.http)
        assert table_id in mine  # created on the first process (both were empty)

        lobby = await until_seen(other, "the new table", lambda lobby: table_id in lobby)
        assert lobby[table_id] == mine[table_id]
        assert lobby[table_id]["free_seats"] == [1, 2, 3]

        guest = await api.guest()
        await api.sit(guest, table_id, 2)
        lobby = await until_seen(
            other, "a seat taken", lambda lobby: lobby[table_id]["free_seats"] == [1, 3]
        )
        assert lobby[table_id] == (await lobby_at(api.http))[table_id]

        cancelled = await api.http.post(f"/api/tables/{table_id}/cancel", headers=creator.headers)
        assert cancelled.status_code == 200, cancelled.text
        await until_seen(other, "the table cancelled", lambda lobby: table_id not in lobby)
