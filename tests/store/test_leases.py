"""Table leases and fencing tokens (burraco.store.lease_store; issue 17), on SQLite and on the
real PostgreSQL: one owner at a time, a dead owner's tables taken over with a new token, and a
stale owner refused at its next write of the log, with nothing written."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

import pytest

from burraco.store import ActionRecord, SmazzataRecord, Store
from burraco.store.lease_store import LeaseLost, LeaseStore


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    asyncio.run(coroutine)


async def _table(store: Store, table_id: str = "t1") -> str:
    await store.create_table(
        table_id, created_by=None, config={}, public=True, invite_code=None, players=2
    )
    return table_id


async def _beat(leases: LeaseStore, *nodes: str) -> None:
    for node in nodes:
        await leases.heartbeat(
            node, name=node.split(":")[0], address=None, tables=0, draining=False
        )


def _deal() -> SmazzataRecord:
    return SmazzataRecord(1, 1, 1, 0, False, "deck", "salt", "commit", time.time(), None, None)


def _action(seq: int) -> ActionRecord:
    return ActionRecord(seq, 1, 1, 0, "draw", time.time(), False, None)


def test_one_owner_at_a_time_and_a_dead_owner_is_taken_over(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        leases = LeaseStore(store, ttl=0.5)
        try:
            table = await _table(store)
            await _beat(leases, "a:1", "b:1")
            # Created and not claimed yet: its creator's (it claims it next), not an orphan,
            # unless it stays unclaimed (its creator died in between).
            assert await leases.orphans(["open", "playing"]) == []
            assert await leases.orphans(["open", "playing"], unclaimed_after=-1) == [table]
            first = await leases.claim(table, "a:1")
            assert first == 1
            assert await leases.claim(table, "a:1") == first  # a repeated claim keeps it
            assert await leases.claim(table, "b:1") is None  # a live owner keeps its table
            owner = await leases.owner(table)
            assert owner is not None and owner.node == "a:1" and owner.alive
            assert await leases.orphans(["open", "playing"]) == []
            await asyncio.sleep(0.7)  # a:1 stops beating: its lease runs out
            await _beat(leases, "b:1")
            assert await leases.orphans(["open", "playing"]) == [table]
            second = await leases.claim(table, "b:1")
            assert second == first + 1  # the takeover's token fences the old owner
            owner = await leases.owner(table)
            assert owner is not None and owner.node == "b:1"
            assert await leases.held_by("a:1") == {}
            assert await leases.held_by("b:1") == {table: second}
        finally:
            await store.close()

    run(main())


def test_a_stale_owner_is_refused_at_its_next_write(db_url: str) -> None:
    """The old owner still believes it holds the table (it was paused, say): each kind of write
    of the log raises LeaseLost and leaves the log as the new owner knows it."""

    async def main() -> None:
        old = await Store.open(db_url)
        new = await Store.open(db_url)
        old_leases, new_leases = LeaseStore(old, ttl=0.5), LeaseStore(new, ttl=0.5)
        try:
            table = await _table(old)
            await _beat(old_leases, "a:1")
            old.fences = {table: await old_leases.claim(table, "a:1") or 0}
            await old.log_smazzata(
                table,
                _deal(),
            )
            await old.log_action(table, _action(2))
            await asyncio.sleep(0.7)
            await _beat(new_leases, "b:1")
            token = await new_leases.claim(table, "b:1")
            assert token is not None
            new.fences = {table: token}
            with pytest.raises(LeaseLost):
                await old.log_action(table, _action(3))
            with pytest.raises(LeaseLost):
                await old.end_smazzata(table, 1, 1, result=[0, 0], ended="closed")
            with pytest.raises(LeaseLost):
                await old.set_status(table, "finished")
            await new.log_action(table, _action(3))  # the new owner goes on
            _, actions, _ = await new.load_log(table, 1)
            assert [(a.seq, a.action) for a in actions] == [(2, "draw"), (3, "draw")]
            info = await new.table(table)
            assert info is not None and info.status == "open"
        finally:
            await old.close()
            await new.close()

    run(main())


def test_a_batch_fails_only_the_rows_of_a_lost_table(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        other = await Store.open(db_url)
        leases, other_leases = LeaseStore(store, ttl=0.5), LeaseStore(other, ttl=0.5)
        try:
            kept, lost = await _table(store, "kept"), await _table(store, "lost")
            await _beat(leases, "a:1")
            store.fences = {
                kept: await leases.claim(kept, "a:1") or 0,
                lost: await leases.claim(lost, "a:1") or 0,
            }
            await store.log_smazzata(
                kept,
                _deal(),
            )
            await store.log_smazzata(
                lost,
                _deal(),
            )
            # The other node takes "lost" from a:1 as a drain would hand it (no wait).
            assert await leases.hand(lost, "a:1", "b:1") is not None
            results = await asyncio.gather(
                store.log_action(kept, _action(2)),
                store.log_action(lost, _action(2)),
                return_exceptions=True,
            )
            assert results[0] is None
            assert isinstance(results[1], LeaseLost) and results[1].table_id == lost
            assert [a.seq for a in (await other.load_log(kept, 1))[1]] == [2]
            assert (await other.load_log(lost, 1))[1] == []
            assert await other_leases.token_of(lost, "b:1") is not None
        finally:
            await store.close()
            await other.close()

    run(main())


def test_release_and_clean_stop(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        leases = LeaseStore(store, ttl=5)
        try:
            table, second = await _table(store, "t1"), await _table(store, "t2")
            await _beat(leases, "a:1", "b:1")
            token = await leases.claim(table, "a:1")
            await leases.claim(second, "a:1")
            assert await leases.release(table, "a:1")
            assert not await leases.release(table, "a:1")  # no longer its own
            again = await leases.claim(table, "b:1")  # free at once, without the wait
            assert again is not None and token is not None and again > token
            await leases.forget_node("a:1")  # a clean stop frees what it held
            assert await leases.claim(second, "b:1") is not None
            assert [n.id for n in await leases.live_nodes()] == ["b:1"]
            await _beat(leases, "c:1")  # then dies, holding nothing: its row goes
            assert await leases.prune_nodes(older_than=-1) == 1  # b:1 holds leases: kept
            assert [n.id for n in await leases.nodes()] == ["b:1"]
        finally:
            await store.close()

    run(main())
