"""Finished tables nobody watches leave the server's memory and come back on demand.

A server that runs for weeks must not keep every table it ever held; a finished table's record
is in the store, so the hub lets go of it (``finished_table_seconds`` after the end, once no
connection watches it) and ``Hub.table`` loads it again when someone asks.

The hub's clock is a fake one (server/clock.py): a test moves it past each deadline and waits
for what the table's timer did, instead of sleeping through real eviction periods.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from burraco.server.botrunner import BotRunner
from burraco.server.clock import FakeClock
from burraco.server.config import ServerConfig
from burraco.server.connection import Connection
from burraco.server.hub import Hub
from burraco.server.table import TableActor, TableError, commands
from burraco.server.tableconfig import TableConfig
from burraco.store import Store, UserInfo

from .inprocess import settle

Scenario = Callable[[Hub, UserInfo, FakeClock], Awaitable[None]]


async def until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def run_with(tmp_path: Path, scenario: Scenario, **settings: Any) -> None:
    async def main() -> None:
        config = replace(ServerConfig(data_dir=tmp_path, bot_delay=0.0, bot_workers=0), **settings)
        store = await Store.open(config.database())
        clock = FakeClock()
        hub = Hub(config, store, BotRunner(processes=0), clock=clock)
        try:
            creator = await store.create_user("organiser", None, guest=True)
            await scenario(hub, creator, clock)
        finally:
            await hub.close()

    asyncio.run(main())


def run(tmp_path: Path, scenario: Scenario) -> None:
    run_with(tmp_path, scenario, finished_table_seconds=0.1)


def armed(actor: TableActor, key: str) -> object:
    """The table's timer ``key`` (None: not set)."""
    return actor._timers.get(key)


async def rearmed(clock: FakeClock, actor: TableActor, key: str, seconds: float) -> None:
    """Move the clock ``seconds`` on, past the table's timer ``key``, and wait until the timer
    fired and the table set it again (its check found a reason to wait)."""
    before = armed(actor, key)
    assert before is not None, f"no {key} timer at {actor.id}"
    clock.advance(seconds)
    await settle(lambda: armed(actor, key) not in (None, before), f"the {key} timer again")


async def bots_match(hub: Hub, creator: UserInfo) -> TableActor:
    """A one-smazzata match between two random bots, played to its end."""
    config = TableConfig(rules="italian", players=2, smazzate=1, between_smazzate=0.0)
    actor = await hub.create_table(creator, config, seat=None)
    for seat in (0, 1):
        await actor.call(commands.SeatBot(creator, seat, "random"))
    await until(lambda: actor.status == "finished", 60, "the bots' match to end")
    return actor


def test_a_finished_unwatched_table_is_forgotten_then_loaded_again(tmp_path: Path) -> None:
    async def scenario(hub: Hub, creator: UserInfo, clock: FakeClock) -> None:
        actor = await bots_match(hub, creator)
        await settle(lambda: armed(actor, "evict") is not None, "the eviction timer")
        clock.advance(0.099)  # not yet: ``finished_table_seconds`` after the end
        assert clock.pending() and hub.tables.get(actor.id) is actor
        clock.advance(0.001)
        await settle(lambda: actor.id not in hub.tables, "the eviction")
        assert actor.evicted
        assert actor._task is not None
        await until(actor._task.done, 5, "the evicted actor's task to end")
        again = await hub.table(actor.id)  # loaded from the store
        assert again is not actor and again.status == "finished"
        assert await hub.store.match_record(actor.id, again.match_no) is not None
        # A command that still reaches the old object is answered by the new actor.
        with pytest.raises(TableError) as refused:
            await actor.call(commands.Sit(creator, 0))
        assert refused.value.code == "not_open"
        # The reloaded table is forgotten in its turn.
        assert armed(hub.tables[actor.id], "evict") is not None
        clock.advance(0.1)
        await settle(lambda: actor.id not in hub.tables, "the second eviction")

    run(tmp_path, scenario)


def test_a_watched_finished_table_stays(tmp_path: Path) -> None:
    async def scenario(hub: Hub, creator: UserInfo, clock: FakeClock) -> None:
        actor = await bots_match(hub, creator)
        conn = Connection(creator)
        hub.connections.add(conn)
        await actor.call(commands.Join(conn, None))
        await settle(lambda: armed(actor, "evict") is not None, "the eviction timer")
        for _ in range(5):  # five eviction periods: each check finds a watcher
            await rearmed(clock, actor, "evict", 0.1)
            assert hub.tables.get(actor.id) is actor and not actor.evicted
        await actor.call(commands.Leave(conn))
        clock.advance(0.1)
        await settle(lambda: actor.id not in hub.tables, "the eviction after the leave")

    run(tmp_path, scenario)


def test_a_deserted_open_table_is_cancelled_and_a_seated_one_is_not(tmp_path: Path) -> None:
    async def scenario(hub: Hub, creator: UserInfo, clock: FakeClock) -> None:
        config = TableConfig(rules="italian", players=4, smazzate=1)
        deserted = await hub.create_table(creator, config, seat=None)
        await deserted.call(commands.SeatBot(creator, 1, "random"))
        seated = await hub.create_table(creator, config, seat=0)
        # The first check finds the table deserted; the second, a period later, cancels it.
        await rearmed(clock, deserted, "expire", 0.05)
        assert deserted.status == "open"
        clock.advance(0.05)
        # The status changes before the store is written and the hub lets go: wait for both.
        await settle(
            lambda: deserted.status == "cancelled" and deserted.id not in hub.tables,
            "the deserted table's end",
        )
        assert deserted.id not in hub.tables
        info = await hub.store.table(deserted.id)
        assert info is not None and info.status == "cancelled"
        for _ in range(10):  # many checks: a seated person keeps the table open
            await rearmed(clock, seated, "expire", 0.05)
        assert hub.tables.get(seated.id) is seated and seated.status == "open"
        # A cancelled table read again (its page) leaves memory again.
        again = await hub.table(deserted.id)
        assert again.status == "cancelled"
        clock.advance(0.05)
        await settle(lambda: deserted.id not in hub.tables, "the reloaded table's eviction")

    run_with(tmp_path, scenario, abandoned_table_seconds=0.05, finished_table_seconds=0.05)
