"""What the failure tests share: tables played through the proxy by the crash test's reconnecting
clients, and the check that a table's log holds every acknowledged action exactly once."""

from __future__ import annotations

import asyncio
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import asyncpg  # type: ignore[import-untyped]
import httpx

from burraco.cli.main import main as burraco_main
from burraco.engine.record import read_record, replay
from tests.server.test_crash import Client
from tests.store.postgres import _dsn

from .harness import Cluster

SERVE = ("--login-attempts-per-minute", "100000", "--messages-per-second", "1000")
"""Every client logs in from 127.0.0.1 (the per-address limit is shared by the processes)."""


@dataclass
class Front:
    """Where the crash test's ``Client`` connects: the proxy."""

    ws: str


@dataclass
class Match:
    id: str
    name: str
    clients: list[Client]
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return all(c.match_end is not None for c in self.clients)


async def guest(http: httpx.AsyncClient) -> str:
    answer = await http.post("/api/guest")
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


async def open_matches(cluster: Cluster, count: int, *, smazzate: int = 1) -> list[Match]:
    """``count`` two-player tables through the proxy: even ones two people, odd ones a person
    against a server bot; every client connects through the proxy."""
    front = Front(cluster.proxy_ws)
    matches: list[Match] = []
    async with httpx.AsyncClient(base_url=cluster.proxy_http, timeout=20) as http:
        for number in range(count):
            first = await guest(http)
            # The crash test's clients never close the score sheet: no wait for it between two
            # smazzate (a pause there is no stall).
            body: dict[str, Any] = {
                "players": 2,
                "smazzate": smazzate,
                "between_smazzate": 0.3,
                "sheet_seconds": 0,
            }
            if number % 2:
                body["bots"] = {"1": "random"}
            answer = await http.post(
                "/api/tables", json=body, headers={"Authorization": f"Bearer {first}"}
            )
            assert answer.status_code == 201, answer.text
            table_id = answer.json()["id"]
            tokens = {0: first}
            if not number % 2:
                second = await guest(http)
                sat = await http.post(
                    f"/api/tables/{table_id}/sit",
                    json={"seat": 1},
                    headers={"Authorization": f"Bearer {second}"},
                )
                assert sat.status_code == 200, sat.text
                tokens[1] = second
            name = f"m{number}"
            clients = [
                Client(
                    f"{name}:{seat}",
                    front,  # type: ignore[arg-type]
                    token,
                    table_id,
                    seed=zlib.crc32(f"{name}{seat}".encode()),
                    seat=seat,
                )
                for seat, token in tokens.items()
            ]
            matches.append(Match(table_id, name, clients))
    for match in matches:
        match.tasks = [asyncio.get_running_loop().create_task(c.run()) for c in match.clients]
    return matches


async def stop(matches: list[Match]) -> None:
    for match in matches:
        for client in match.clients:
            client.quit = True
    await asyncio.gather(*(t for m in matches for t in m.tasks), return_exceptions=True)


async def action_log(cluster: Cluster, table_id: str) -> list[tuple[int, int, str, bool]]:
    """The table's stored actions of its first match: (seq, seat, action, auto) in order."""
    connection = await asyncpg.connect(_dsn(cluster.database_url))
    try:
        rows = await connection.fetch(
            "SELECT seq, seat, action, auto FROM actions WHERE table_id = $1 AND match_no = 1"
            " ORDER BY seq",
            table_id,
        )
    finally:
        await connection.close()
    return [(int(r[0]), int(r[1]), str(r[2]), bool(r[3])) for r in rows]


class Checked(NamedTuple):
    """What ``check_match`` counted in one match."""

    actions: int
    """Actions in the record (and the log)."""
    acknowledged: int
    """Actions the clients were told were accepted."""
    unacknowledged: int
    """A seat's own actions stored whose acknowledgement never reached it (a process died
    between the two; at most one per connection lost)."""
    lost: int
    """Acknowledged actions missing from the log: 0, or ``check_match`` fails."""


async def check_match(cluster: Cluster, match: Match, folder: Path) -> Checked:
    """The record replays (with ``burraco replay``) to the totals every client was told; its
    actions are the stored log's, in order; and every acknowledged action is in the log exactly
    once: each client's acknowledged actions are its seat's own (not auto-played) log entries,
    in order, but for at most one per connection it lost (an action stored just before its
    process died, whose acknowledgement never left) and the match's last action (acknowledged
    after ``match_end``, when the client has stopped reading)."""
    async with httpx.AsyncClient(base_url=cluster.proxy_http, timeout=20) as http:
        answer = await http.get(f"/api/tables/{match.id}/record")
    assert answer.status_code == 200, (match.name, answer.text)
    path = folder / f"{match.name}.toml"
    path.write_text(answer.text, encoding="utf-8")
    assert burraco_main(["replay", str(path)]) == 0, match.name
    record = read_record(answer.text)
    result = replay(record)
    assert result.error is None, (match.name, result.error)
    for client in match.clients:
        end = client.match_end
        assert end is not None and end["totals"] == list(result.totals), (match.name, end)
    played = [str(action) for hand in record.hands for action in hand.actions]
    log = await action_log(cluster, match.id)
    assert [action for _, _, action, _ in log] == played, match.name
    acknowledged = unacknowledged = missing = 0
    for client in match.clients:
        own = [action for _, seat, action, auto in log if seat == client.seat and not auto]
        acks = [action for _, _, action in client.acks]
        matched = 0
        for action in own:  # the acknowledged ones are a subsequence of the seat's own
            if matched < len(acks) and acks[matched] == action:
                matched += 1
        missing += len(acks) - matched
        assert matched == len(acks), (client.name, "acknowledged but not stored", acks, own)
        lost = len(own) - len(acks)
        if lost and log[-1][1] == client.seat and acks[-1:] != [log[-1][2]]:
            # The match's last action: its ack follows match_end, after which the client
            # stops reading (as in one process).
            lost -= 1
        assert 0 <= lost <= client.connection - 1, (
            client.name,
            lost,
            client.connection,
            client.acks,
            [row for row in log if row[1] == client.seat and not row[3]],
            client.errors,
        )
        acknowledged += len(acks)
        unacknowledged += lost
    return Checked(len(played), acknowledged, unacknowledged, missing)
