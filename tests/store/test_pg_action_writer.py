"""The action log's writer on PostgreSQL (burraco.store.pg_action_writer; issue 17), on the real
server: what it writes reads back as SQLAlchemy's path wrote it, a bad row fails alone, fenced
batches refuse the rows of lost tables, and a dropped connection costs nothing: the next batch
reconnects, and a batch whose commit was acknowledged on a connection that died is neither
written twice nor reported failed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.exc import DataError, IntegrityError, OperationalError

from burraco.store import ActionRecord, Store
from burraco.store.action_writer import InDoubt
from burraco.store.lease_store import LeaseLost, LeaseStore
from burraco.store.pg_action_writer import (
    APPLICATION_NAME,
    PostgresActionWriter,
    connect_args,
)

from . import postgres
from .test_store import action, new_table, opened


@pytest.fixture
def pg_url(postgres_database: str) -> Iterator[str]:
    postgres.truncate_all(postgres_database)
    yield postgres_database


def _writer(store: Store) -> PostgresActionWriter:
    writer = store._action_writer
    assert isinstance(writer, PostgresActionWriter)
    return writer


def _row(table_id: str, record: ActionRecord) -> dict[str, Any]:
    return {"table_id": table_id, **{k: getattr(record, k) for k in ActionRecord.__slots__}}


async def _raw(url: str, sql: str, *args: Any) -> list[Any]:
    connection = await asyncpg.connect(postgres._dsn(url))
    try:
        return list(await connection.fetch(sql, *args))
    finally:
        await connection.close()


_STORED = (
    "SELECT seq, match_no, number, seat, action, at, auto, clock IS NULL AS no_clock, clock::text"
    " FROM actions WHERE table_id = $1 ORDER BY seq"
)

AWKWARD = [
    action(1),
    ActionRecord(2, 1, 1, 1, "1 meld 3♥ 4♥ 5♥ è", 0.1 + 0.2, True, None),
    ActionRecord(3, 1, 2, 0, "0 discard JK", 1e-300, False, {"banks": [1 / 3, -0.0]}),
    ActionRecord(4, 2, 1, 1, "x", 1_764_000_000.987654321, False, {"é": {"n": [None, True]}}),
    *(action(seq, seat=seq % 2) for seq in range(5, 12)),
]


def test_rows_read_back_as_sqlalchemy_wrote_them(pg_url: str) -> None:
    """The same rows through SQLAlchemy's path and through the writer: load_log gives back the
    records exactly, and the stored columns are the same, byte for byte (the clock's JSON text,
    None as JSON null, the floats, the booleans)."""

    async def main() -> None:
        async with opened(pg_url) as fast:
            slow = await Store.open(pg_url, action_writer=False)
            try:
                assert slow._action_writer is None
                await new_table(fast, "fast")
                await new_table(fast, "slow")
                for store, table in ((fast, "fast"), (slow, "slow")):
                    await asyncio.gather(*(store.log_action(table, r) for r in AWKWARD[:6]))
                    for record in AWKWARD[6:]:
                        await store.log_action(table, record)
                for store in (fast, slow):
                    for table in ("fast", "slow"):
                        logged = [
                            a
                            for match_no in (1, 2)
                            for a in (await store.load_log(table, match_no))[1]
                        ]
                        assert sorted(logged, key=lambda a: a.seq) == AWKWARD
            finally:
                await slow.close()
        fast_rows = await _raw(pg_url, _STORED, "fast")
        assert [tuple(r) for r in fast_rows] == [
            tuple(r) for r in await _raw(pg_url, _STORED, "slow")
        ]
        assert fast_rows[1]["no_clock"] is False and fast_rows[1]["clock"] == "null"

    asyncio.run(main())


def test_a_batch_with_one_duplicate_fails_only_that_row(pg_url: str) -> None:
    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "A")
            await new_table(store, "B")
            await store.log_action("A", action(1))
            writer = _writer(store)
            batch = [_row("A", action(2)), _row("A", action(1)), _row("B", action(1))]
            with pytest.raises(IntegrityError):
                await writer.write(batch)  # the writer itself: all or nothing
            assert [a.seq for a in (await store.load_log("A", 1))[1]] == [1]
            commits = store.action_commits
            results = await asyncio.gather(
                *(store.log_action(row["table_id"], action(row["seq"])) for row in batch),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], IntegrityError)
            assert store.action_commits == commits + 2  # the batch, then row by row
            assert [a.seq for a in (await store.load_log("A", 1))[1]] == [1, 2]
            assert [a.seq for a in (await store.load_log("B", 1))[1]] == [1]

    asyncio.run(main())


def test_a_value_the_column_refuses_fails_only_its_row(pg_url: str) -> None:
    """Not a lost connection: no reconnection, no retry, a DataError for that row alone."""

    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "A")
            await store.log_action("A", action(1))
            writer = _writer(store)
            too_long = ActionRecord(3, 1, 1, 0, "x" * 121, 1.0, False, None)
            results = await asyncio.gather(
                store.log_action("A", action(2)),
                store.log_action("A", too_long),
                store.log_action("A", action(4)),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], DataError)
            with pytest.raises(DataError):  # one asyncpg cannot encode
                await writer.write([{**_row("A", action(5)), "seq": "five"}])
            assert writer.connections == 1
            assert [a.seq for a in (await store.load_log("A", 1))[1]] == [1, 2, 4]

    asyncio.run(main())


def test_fenced_batches_refuse_the_rows_of_lost_tables(pg_url: str) -> None:
    """A table whose token moved on, and one this process never held: their rows are refused
    with LeaseLost and none is written; the held table's rows in the same batch are."""

    async def main() -> None:
        async with opened(pg_url) as store:
            leases = LeaseStore(store, ttl=5)
            for table in ("kept", "lost", "never"):
                await new_table(store, table)
            await leases.heartbeat("a:1", name="a", address=None, tables=0, draining=False)
            kept = await leases.claim("kept", "a:1")
            lost = await leases.claim("lost", "a:1")
            assert kept is not None and lost is not None
            await leases.claim("never", "a:1")
            store.fences = {"kept": kept, "lost": lost}
            assert await leases.hand("lost", "a:1", "b:1") is not None
            results = await asyncio.gather(
                store.log_action("kept", action(1)),
                store.log_action("lost", action(1)),
                store.log_action("never", action(1)),
                store.log_action("kept", action(2)),
                store.log_action("lost", action(2)),
                return_exceptions=True,
            )
            assert results[0] is None and results[3] is None
            assert [type(r) for r in results[1:3] + results[4:]] == [LeaseLost] * 3
            assert {r.table_id for r in results if isinstance(r, LeaseLost)} == {"lost", "never"}
            assert [a.seq for a in (await store.load_log("kept", 1))[1]] == [1, 2]
            assert (await store.load_log("lost", 1))[1] == []
            assert (await store.load_log("never", 1))[1] == []
            # The writer reports the lost tables itself.
            rows = [_row("kept", action(3)), _row("lost", action(3))]
            assert await _writer(store).write(rows, store.fences) == {"lost"}

    asyncio.run(main())


def test_a_takeover_in_progress_holds_the_write_then_refuses_it(pg_url: str) -> None:
    """The lease rows are share-locked by the writer's statement: a takeover that has updated
    the lease but not committed makes the write wait, and once it commits the write sees the
    new token (READ COMMITTED re-reads the locked row) and writes nothing."""

    async def main() -> None:
        async with opened(pg_url) as store:
            leases = LeaseStore(store, ttl=5)
            await new_table(store, "T")
            await leases.heartbeat("a:1", name="a", address=None, tables=0, draining=False)
            token = await leases.claim("T", "a:1")
            assert token is not None
            store.fences = {"T": token}
            await store.log_action("T", action(1))
            other = await asyncpg.connect(postgres._dsn(pg_url))
            try:
                takeover = other.transaction()
                await takeover.start()
                await other.execute(
                    "UPDATE table_leases SET node = 'b:1', token = token + 1 WHERE table_id = 'T'"
                )
                pending = asyncio.ensure_future(store.log_action("T", action(2)))
                await asyncio.sleep(0.5)
                assert not pending.done()  # waiting for the takeover's lock
                await takeover.commit()
                with pytest.raises(LeaseLost):
                    await asyncio.wait_for(pending, 10)
            finally:
                await other.close()
            assert [a.seq for a in (await store.load_log("T", 1))[1]] == [1]

    asyncio.run(main())


def test_the_writer_reconnects_after_its_backend_is_terminated(pg_url: str) -> None:
    """Its backend killed (as a restart of PostgreSQL would): the next write, at once or a
    moment later, makes a new connection and is written, once."""

    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "T")
            writer = _writer(store)
            admin = await asyncpg.connect(postgres._dsn(pg_url))
            try:
                for seq in range(1, 9):
                    await store.log_action("T", action(seq))
                    assert writer.connections == seq
                    pid = await writer.backend_pid()
                    killed = await admin.fetchval(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE pid = $1 AND application_name = $2",
                        pid,
                        APPLICATION_NAME,
                    )
                    assert killed is True
                    if seq % 2:
                        # The next write finds the dead connection closed, or asyncpg has not
                        # heard yet and the write is retried on a fresh one.
                        await asyncio.sleep(0.2)
                await store.log_action("T", action(9))
            finally:
                await admin.close()
            assert writer.connections == 9
            assert [a.seq for a in (await store.load_log("T", 1))[1]] == list(range(1, 10))

    asyncio.run(main())


def test_a_write_cut_in_the_middle_is_retried_on_a_fresh_connection(pg_url: str) -> None:
    """The writer's backend is killed while its statement waits for a lock (the batch is
    under way, uncommitted): the write is retried on a new connection and goes through."""

    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "T")
            await store.log_action("T", action(1))
            writer = _writer(store)
            pid = await writer.backend_pid()
            admin = await asyncpg.connect(postgres._dsn(pg_url))
            try:
                lock = admin.transaction()
                await lock.start()
                await admin.execute("LOCK TABLE actions IN EXCLUSIVE MODE")
                pending = asyncio.ensure_future(store.log_action("T", action(2)))
                for _ in range(100):  # until the writer's statement waits for the lock
                    await asyncio.sleep(0.05)
                    waiting = await admin.fetchval(
                        "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", pid
                    )
                    if waiting == "Lock":
                        break
                assert waiting == "Lock"
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
                await asyncio.sleep(0.3)
                assert not pending.done()  # the retry waits for the lock in its turn
                await lock.commit()
                await asyncio.wait_for(pending, 10)
            finally:
                await admin.close()
            assert writer.connections == 2
            assert [a.seq for a in (await store.load_log("T", 1))[1]] == [1, 2]

    asyncio.run(main())


class _LosesAcknowledgements:
    """Makes the writer's next ``attempts`` executions fail as a connection that dies does:
    ``commit`` of them really run first (the acknowledgement is what is lost)."""

    def __init__(self, writer: PostgresActionWriter, attempts: int, commit: int) -> None:
        self.attempts, self.commit = attempts, commit
        self.real = writer._execute

        async def execute(*args: Any, **kwargs: Any) -> set[str]:
            if self.attempts == 0:
                return await self.real(*args, **kwargs)
            self.attempts -= 1
            if self.commit > 0:
                self.commit -= 1
                await self.real(*args, **kwargs)
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle")

        writer._execute = execute  # type: ignore[method-assign]


def test_a_commit_whose_acknowledgement_was_lost_is_not_written_twice(pg_url: str) -> None:
    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "T")
            await new_table(store, "lost")
            writer = _writer(store)
            _LosesAcknowledgements(writer, attempts=1, commit=1)
            await asyncio.gather(*(store.log_action("T", action(s)) for s in (1, 2, 3)))
            assert writer.connections == 2  # the retry was on a fresh connection
            # Fenced: the retry finds the held table's rows, and the lost table still lost.
            leases = LeaseStore(store, ttl=5)
            await leases.heartbeat("a:1", name="a", address=None, tables=0, draining=False)
            fences = {t: await leases.claim(t, "a:1") or 0 for t in ("T", "lost")}
            await leases.hand("lost", "a:1", "b:1")
            _LosesAcknowledgements(writer, attempts=1, commit=1)
            rows = [_row("T", action(4)), _row("lost", action(1))]
            assert await writer.write(rows, fences) == {"lost"}
            # A real conflict on the retry is still one: another row 5 with other content.
            await writer.write([_row("T", action(5, seat=1))])
            _LosesAcknowledgements(writer, attempts=1, commit=0)
            with pytest.raises(IntegrityError):
                await writer.write([_row("T", action(5)), _row("T", action(6))])
            assert [(a.seq, a.seat) for a in (await store.load_log("T", 1))[1]] == [
                (1, 0),
                (2, 0),
                (3, 0),
                (4, 0),
                (5, 1),
            ]
            assert (await store.load_log("lost", 1))[1] == []

    asyncio.run(main())


def test_a_batch_in_doubt_is_settled_row_by_row(pg_url: str) -> None:
    """The connection dies under the batch and again under its retry: the writer raises
    InDoubt, the store writes the rows one at a time knowing the batch may have been committed,
    and every caller learns its row is written, stored once."""

    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "T")
            writer = _writer(store)
            _LosesAcknowledgements(writer, attempts=2, commit=1)
            with pytest.raises(InDoubt):
                await writer.write([_row("T", action(1)), _row("T", action(2))])
            _LosesAcknowledgements(writer, attempts=2, commit=1)
            await asyncio.gather(*(store.log_action("T", action(s)) for s in (3, 4, 5, 6)))
            assert [a.seq for a in (await store.load_log("T", 1))[1]] == [1, 2, 3, 4, 5, 6]
            with pytest.raises(IntegrityError):  # in doubt no more: a duplicate is one
                await store.log_action("T", action(6))

    asyncio.run(main())


def test_an_unreachable_server_is_an_operational_error(pg_url: str) -> None:
    """Nothing was sent, so nothing is in doubt: a server that refuses connections (tried
    twice), or a database that does not exist (a mistake, not retried)."""

    async def main() -> None:
        async with opened(pg_url) as store:
            args = connect_args(store.engine)
        for wrong in ({"port": 1}, {"database": "burraco_no_such_database"}):
            writer = PostgresActionWriter({**args, **wrong})
            try:
                with pytest.raises(OperationalError) as raised:
                    await writer.write([_row("T", action(1))])
                assert not isinstance(raised.value, InDoubt)
                assert writer.connections == 0
            finally:
                await writer.close()

    asyncio.run(main())


def test_the_writer_on_a_thread_of_its_own(pg_url: str) -> None:
    """The benchmark's other variant (``thread=True``): the same writes, from its own loop."""

    async def main() -> None:
        async with opened(pg_url) as store:
            await new_table(store, "T")
            writer = PostgresActionWriter.for_engine(store.engine, thread=True)
            try:
                await writer.write([_row("T", action(1)), _row("T", action(2))])
                with pytest.raises(IntegrityError):
                    await writer.write([_row("T", action(2))])
            finally:
                await writer.close()
            assert [a.seq for a in (await store.load_log("T", 1))[1]] == [1, 2]

    asyncio.run(main())
