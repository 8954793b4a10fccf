"""Who runs what when a process dies or stalls (issue 17): the tournaments' process is killed in
the middle of a Sit&Go and another takes its role and finishes it; a process paused past its
lease (SIGSTOP) finds its table taken when it wakes, lets it go, and the table's log holds
every acknowledged action once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx

from tests.store.postgres import _dsn

from .chaos import SERVE, check_match, open_matches, stop
from .conftest import MakeCluster
from .harness import Cluster
from .test_cluster_play import owner_of
from .test_failures import until_over

SETTINGS: dict[str, Any] = {
    "start": "sitgo",
    "size": 8,
    "system": "danish",
    "rounds": 3,
    "smazzate": 1,
    "between_smazzate": 0,
}


async def role_holder(cluster: Cluster) -> str | None:
    connection = await asyncpg.connect(_dsn(cluster.database_url))
    try:
        name = await connection.fetchval(
            "SELECT n.name FROM cluster_roles r JOIN nodes n ON n.id = r.node"
            " WHERE r.role = 'tournaments'"
        )
    finally:
        await connection.close()
    return None if name is None else str(name)


async def wait_for(what: str, check: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        await asyncio.sleep(0.2)


def test_the_tournaments_process_killed_mid_sit_and_go(make_cluster: MakeCluster) -> None:
    cluster = make_cluster(serve_args=(*SERVE, "--bot-delay", "0.05"))

    async def scenario() -> tuple[str, str, dict[str, Any]]:
        await cluster.start(3)
        leader = await wait_for("a process runs the tournaments", lambda: role_holder(cluster), 10)
        async with httpx.AsyncClient(base_url=cluster.proxy_http, timeout=20) as http:
            token = (await http.post("/api/guest")).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            created = await http.post("/api/tournaments", json=SETTINGS, headers=auth)
            assert created.status_code == 201, created.text
            tid = created.json()["id"]
            bots = await http.post(
                f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 8}, headers=auth
            )
            assert bots.status_code == 200, bots.text

            async def running() -> bool:
                view = (await http.get(f"/api/tournaments/{tid}")).json()
                return bool(view["status"] == "running" and view["rounds"])

            await wait_for("the Sit&Go runs", running, 30)
            index = next(i for i, n in enumerate(cluster.nodes) if n.name == leader)
            cluster.kill(index)

            async def new_leader() -> str | None:
                holder = await role_holder(cluster)
                return holder if holder not in (None, leader) else None

            successor = await wait_for("another process takes the role", new_leader, 15)

            async def finished() -> dict[str, Any] | None:
                answer = await http.get(f"/api/tournaments/{tid}")
                view: dict[str, Any] = answer.json()
                return view if view["status"] == "finished" else None

            final = await wait_for("the Sit&Go finishes", finished, 180)
            await cluster.node(index).start()
            return leader, successor, final

    leader, successor, final = asyncio.run(scenario())
    assert [r["status"] for r in final["rounds"]] == ["finished"] * 3
    assert all(t["result"] is not None for r in final["rounds"] for t in r["tables"])
    standings = final["standings"]
    assert len(standings) == 8 and sum(row["vp"] for row in standings) == 10 * 8 * 3
    print(f"\ntournaments run by {leader}, then by {successor} after the kill")


def test_a_paused_owner_lets_its_table_go_when_it_wakes(make_cluster: MakeCluster) -> None:
    cluster = make_cluster(serve_args=SERVE)

    async def scenario() -> tuple[str, str, str]:
        await cluster.start(2)
        matches = await open_matches(cluster, 2, smazzate=2)
        try:
            await asyncio.sleep(2)
            table = matches[1].id  # a person against a bot
            owner = await owner_of(cluster, table)
            index = next(i for i, n in enumerate(cluster.nodes) if n.name == owner)
            process = cluster.node(index).process
            assert process is not None
            os.killpg(process.pid, signal.SIGSTOP)
            try:

                async def taken() -> str | None:
                    now = await owner_of(cluster, table)
                    return now if now != owner else None

                successor = await wait_for("the table is taken over", taken, 15)
            finally:
                os.killpg(process.pid, signal.SIGCONT)
            await until_over(matches, 180)
            folder = cluster.folder / "records"
            folder.mkdir(parents=True, exist_ok=True)
            for match in matches:
                await check_match(cluster, match, folder)
        finally:
            await stop(matches)
        return owner, successor, cluster.node(index).log()

    owner, successor, log = asyncio.run(scenario())
    assert "lost table" in log or "its lease was taken" in log, log[-5000:]
    print(f"\n{owner} paused, its table taken by {successor}; it let the table go on waking")
