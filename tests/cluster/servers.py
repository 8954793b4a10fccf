"""The cluster's processes (and its proxy) as the play tests' ``harness.Server``: the clients,
the leak check (``tests/server/oracle.py``) and the crash test's ``Client`` then run unchanged
against any process, each client on the one the test chooses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.server._live import LiveServer
from tests.server.support import Api, Played, TableClient, joined, unique_name

from .harness import Cluster, Node


class NodeServer(LiveServer):
    """One process of a running cluster (or its proxy: ``node`` None)."""

    def __init__(self, cluster: Cluster, node: Node | None) -> None:
        super().__init__(cluster.folder / "clients")
        self.node = node
        self.port = node.port if node is not None else int(cluster.proxy_http.rsplit(":", 1)[1])
        self.name = node.name if node is not None else "proxy"

    def start(self) -> None:
        raise AssertionError("the cluster starts its processes")

    def stop(self) -> None:
        return None

    def alive(self) -> bool:
        return self.node is None or self.node.alive()

    def log(self) -> str:
        return "" if self.node is None else self.node.log()


def servers(cluster: Cluster) -> list[NodeServer]:
    return [NodeServer(cluster, node) for node in cluster.nodes]


@dataclass
class Spread:
    """Where a table runs, and where each of its clients is connected."""

    owner: str
    fronts: dict[str, str]


async def open_spread_table(
    via: NodeServer, fronts: list[NodeServer], *, players: int, bots: dict[int, str], **table: Any
) -> Played:
    """``support.open_table``, with the table created through ``via`` and its clients (a
    spectator first, then one per human seat) on ``fronts`` in turn."""
    async with Api(via) as api:
        creator = await api.register(unique_name("p"))
        info = await api.create_table(
            creator, players=players, seat=0, **({"between_smazzate": 0.2} | table)
        )
        table_id = info["id"]
        spectator = await joined(TableClient(fronts[0], await api.guest(), table_id))
        humans = [seat for seat in range(1, players) if seat not in bots]
        users = {0: creator} | {seat: await api.guest() for seat in humans}
        clients = {
            seat: TableClient(fronts[(i + 1) % len(fronts)], user, table_id, seed=1000 * seat + 7)
            for i, (seat, user) in enumerate(sorted(users.items()))
        }
        await joined(clients[0])
        for seat in humans:
            await api.sit(users[seat], table_id, seat)
            await joined(clients[seat])
        for seat, level in sorted(bots.items()):
            await api.seat_bot(creator, table_id, seat, level)
        return Played(table_id, creator, spectator, clients)


def record_folder(cluster: Cluster) -> Path:
    folder = cluster.folder / "records"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
