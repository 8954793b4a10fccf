"""The action log's writer on PostgreSQL: its own asyncpg connection, one statement a batch.

Every accepted action is committed before anyone hears of it (``Store.log_action``). Through
SQLAlchemy a group commit was a pool checkout and ping, a BEGIN, Core's compilation of an
executemany, the insert and a COMMIT, each an await of the event loop. Here a batch is one
prepared statement, ``INSERT INTO actions ... SELECT * FROM unnest($1::text[], $2::int4[],
...)``: one column array a parameter, whatever the number of rows, so one Bind and one Execute,
encoded and parsed by asyncpg's protocol (in C). A single statement is its own transaction in
PostgreSQL: the batch is atomic and commits in one round trip, with no BEGIN or COMMIT to send.

Measured by bench/pg_action_log.py (bench/README.md, uvloop, PostgreSQL on the same machine):
a one-row commit costs the event loop 138 µs of CPU here against 806 µs through SQLAlchemy (its
pool's pre-ping, BEGIN, the insert, COMMIT), and one table's commits come back 3.1 times as
fast; with 16 tables at once 22 µs an action against 76.

- The statement: for 1 to 50 rows, ``unnest``, ``executemany`` (a Bind and an Execute a row)
  and ``copy_records_to_table`` (COPY's extra round trip) cost the loop about the same (within
  15%, no constant winner between the first two; COPY is dearer for one row). ``unnest`` is
  one statement for the server whatever the rows, and the only one of the three that can carry
  the fencing below in the same statement; the others would need an explicit transaction (a
  BEGIN, the lease query, a COMMIT: three more round trips and awaits).
- The loop: the writer runs on the caller's event loop, a single await a batch. On a thread of
  its own with its own loop (``thread=True``, kept for the benchmark) the loop's thread spends
  about half the CPU (78 µs a one-row commit) but the process more (229 µs), and as soon as the
  loop is busy with other work, the writer's thread waits for the GIL at each step: one
  table's commits fell to 4 a second against 1,300 here, 16 tables' to 69 against 12,000. A
  server's loop is busy exactly when commits matter, so the writer stays on it.

In a cluster (``fences``, lease_store.py) the statement first locks the tables' leases, exactly
as ``check_fences`` does on SQLAlchemy's path, and writes only the rows of tables whose token is
the one this process holds::

    WITH lease AS (SELECT table_id, token FROM table_leases WHERE table_id = ANY($10) FOR SHARE),
    written AS (INSERT INTO actions ... SELECT r.* FROM unnest(...) AS r
                JOIN lease ... JOIN unnest($10, $11) AS fence ... ON the token)
    SELECT table_id, token FROM lease

The share locks last until the statement's transaction ends, so a takeover (which updates the
lease) waits for this write and then sees it, or this write waits for the takeover and, reading
the lease's new version (READ COMMITTED re-checks a locked row), is refused. The leases read are
returned, and the tables they show lost are reported (``Store`` fails their rows with
``LeaseLost``): none of their rows was written.

Errors keep SQLAlchemy's path's meaning: a constraint (a duplicate event number, an unknown
table) raises SQLAlchemy's ``IntegrityError`` with nothing of the batch written, and the store
writes such a batch again one row at a time; a value its column refuses (an action longer than
the column) is a ``DataError``, anything else the server says an ``OperationalError``.

The connection is made on the first batch, and again on the next batch after it was closed
(a PostgreSQL restart, ``pg_terminate_backend``, a network cut). A batch that fails because the
connection died is retried once, on a fresh connection. Its first attempt may have been
committed with only the acknowledgement lost, so the retry must not write it twice, nor report
it failed: the primary key refuses a second copy, and on the retry a duplicate-key error is
checked against what is stored. When every row of the batch is there with exactly the content
being written (or, fenced, belongs to a table whose lease is lost since), the first attempt was
committed and the batch counts as written; any other difference is a real conflict and raises
``IntegrityError``. If the retry fails on its connection too, the batch raises ``InDoubt`` (the
store passes ``in_doubt`` on when it writes the rows again one at a time, so a row committed by
the lost attempt is recognised there too).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Final, TypeVar

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from .action_writer import COLUMNS, InDoubt
from .fencing import stale_tables

T = TypeVar("T")

APPLICATION_NAME: Final = "burraco-actions"
"""The writer's connection in ``pg_stat_activity``."""

_TYPES: Final = ("text", "int4", "int4", "int4", "int4", "text", "float8", "bool", "json")
_NAMES: Final = ", ".join(COLUMNS)
_ROWS: Final = (
    "unnest("
    + ", ".join(f"${i}::{kind}[]" for i, kind in enumerate(_TYPES, start=1))
    + f") AS r({_NAMES})"
)
_TABLES: Final = f"${len(COLUMNS) + 1}::text[]"
_TOKENS: Final = f"${len(COLUMNS) + 2}::int8[]"

INSERT: Final = f"INSERT INTO actions ({_NAMES}) SELECT * FROM {_ROWS}"
FENCED_INSERT: Final = (
    f"WITH lease AS (SELECT table_id, token FROM table_leases WHERE table_id = ANY({_TABLES})"
    " FOR SHARE),"
    f" written AS (INSERT INTO actions ({_NAMES}) SELECT r.* FROM {_ROWS}"
    " JOIN lease ON lease.table_id = r.table_id"
    f" JOIN unnest({_TABLES}, {_TOKENS}) AS fence(table_id, token)"
    " ON fence.table_id = r.table_id AND fence.token = lease.token RETURNING 1)"
    " SELECT table_id, token FROM lease"
)
_STORED: Final = (
    f"SELECT {', '.join('a.' + c for c in COLUMNS[:-1])}, a.clock::text FROM actions a"
    " JOIN unnest($1::text[], $2::int4[]) AS k(table_id, seq)"
    " ON a.table_id = k.table_id AND a.seq = k.seq"
)
_LEASES: Final = "SELECT table_id, token FROM table_leases WHERE table_id = ANY($1::text[])"

_CONNECTION_ERRORS: Final[tuple[type[BaseException], ...]] = (
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08, and "the connection was closed"
    asyncpg.AdminShutdownError,  # pg_terminate_backend, a server shutting down
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,  # a server starting or in recovery
    asyncpg.InterfaceError,  # "the connection is closed", and asyncpg's other client errors
    asyncpg.InternalClientError,  # a protocol still consuming the FATAL of a killed backend
    OSError,  # refused, reset, unreachable
    TimeoutError,
)


def lost_connection(error: BaseException) -> bool:
    """Whether ``error`` is a failure of the connection rather than of the batch: the
    connection is replaced and the batch tried again. (asyncpg's client-side errors about a
    value it cannot encode, or its configuration, are ``InterfaceError`` too, and
    ``ValueError``: the batch's own fault.)"""
    return isinstance(error, _CONNECTION_ERRORS) and not isinstance(error, ValueError)


_SQLALCHEMY_ONLY: Final = (
    "async_creator_fn",
    "prepared_statement_cache_size",
    "prepared_statement_name_func",
)


def connect_args(engine: AsyncEngine) -> dict[str, Any]:
    """asyncpg's ``connect`` arguments for the engine's database, as SQLAlchemy's dialect
    derives them from its URL for the engine's own connections (host, port, user, password,
    database, the URL's query options), less the options SQLAlchemy keeps for itself."""
    _, options = engine.dialect.create_connect_args(engine.url)
    options = dict(options)
    for key in _SQLALCHEMY_ONLY:
        options.pop(key, None)
    return options


Columns = list[list[Any]]


def columns(rows: Sequence[Mapping[str, Any]]) -> Columns:
    """The rows as one array a column, as SQLAlchemy would store them: the clock as JSON text
    (``json.dumps``, so None is JSON ``null``, as SQLAlchemy's ``JSON`` type writes it)."""
    return [
        [row["table_id"] for row in rows],
        [row["seq"] for row in rows],
        [row["match_no"] for row in rows],
        [row["number"] for row in rows],
        [row["seat"] for row in rows],
        [row["action"] for row in rows],
        [float(row["at"]) for row in rows],
        [bool(row["auto"]) for row in rows],
        [json.dumps(row["clock"]) for row in rows],
    ]


class PostgresActionWriter:
    """Writes batches of action rows to PostgreSQL (module doc). One batch at a time: the
    store's group-commit task is its only caller."""

    def __init__(
        self, connect: Mapping[str, Any], *, thread: bool = False, timeout: float = 10.0
    ) -> None:
        settings = dict(connect.get("server_settings") or {})
        settings.setdefault("application_name", APPLICATION_NAME)
        self._connect_args = {**connect, "server_settings": settings, "timeout": timeout}
        self._connection: Any = None
        self._insert: Any = None
        self._fenced: Any = None
        self.connections = 0
        """Connections made so far (a second one is a reconnection)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        if thread:
            loop = _new_loop()
            self._loop = loop
            self._thread = threading.Thread(
                target=loop.run_forever, name=f"{APPLICATION_NAME}-pg", daemon=True
            )
            self._thread.start()

    @classmethod
    def for_engine(cls, engine: AsyncEngine, *, thread: bool = False) -> PostgresActionWriter:
        """A writer to the engine's database (``postgresql+asyncpg``)."""
        return cls(connect_args(engine), thread=thread)

    async def write(
        self,
        rows: Sequence[Mapping[str, Any]],
        fences: Mapping[str, int] | None = None,
        *,
        in_doubt: bool = False,
    ) -> set[str]:
        """Insert ``rows`` in one transaction; returns once it is committed, with the tables
        whose lease is lost when ``fences`` are given (none of their rows written). Raises
        ``IntegrityError`` with nothing written on a duplicate event number or an unknown
        table, ``InDoubt`` when the connection failed twice. ``in_doubt``: an earlier attempt
        at these rows may have been committed (module doc)."""
        if self._loop is None:
            return await self._write(rows, fences, in_doubt)
        return await self._on_thread(self._write(rows, fences, in_doubt))

    async def close(self) -> None:
        if self._loop is None:
            await self._disconnect()
            return
        await self._on_thread(self._disconnect())
        self._loop.call_soon_threadsafe(self._loop.stop)
        assert self._thread is not None
        await asyncio.to_thread(self._thread.join)
        self._loop.close()
        self._loop = None

    async def backend_pid(self) -> int | None:
        """The server process of the writer's connection (None: not connected)."""
        connection = self._connection
        return None if connection is None else int(connection.get_server_pid())

    async def _on_thread(self, work: Coroutine[Any, Any, T]) -> T:
        assert self._loop is not None
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self._loop))

    # -- on the loop that owns the connection --

    async def _write(
        self, rows: Sequence[Mapping[str, Any]], fences: Mapping[str, int] | None, doubt: bool
    ) -> set[str]:
        values = columns(rows)
        tables = sorted(set(values[0]))
        for retry in (False, True):
            try:
                await self._connect()
            except Exception as error:
                if not lost_connection(error):  # a wrong password, a missing database
                    raise OperationalError(INSERT, None, error) from error
                if retry:
                    raise _failed(error, doubt) from error
                continue  # nothing was sent: the retry is a first attempt
            try:
                return await self._execute(values, tables, fences, verify=doubt)
            except Exception as error:
                if not lost_connection(error):
                    raise
                await self._drop()
                doubt = True  # perhaps committed, its acknowledgement lost
                if retry:
                    raise _failed(error, doubt) from error
        raise AssertionError("unreachable")  # pragma: no cover

    async def _execute(
        self,
        values: Columns,
        tables: list[str],
        fences: Mapping[str, int] | None,
        *,
        verify: bool,
    ) -> set[str]:
        try:
            if fences is None:
                await self._insert.fetch(*values)
                return set()
            tokens = [fences.get(table) for table in tables]
            leases = await self._fenced.fetch(*values, tables, tokens)
            return stale_tables(fences, tables, {r[0]: r[1] for r in leases})
        except asyncpg.IntegrityConstraintViolationError as error:
            if verify and isinstance(error, asyncpg.UniqueViolationError):
                lost = await self._already_written(values, tables, fences)
                if lost is not None:
                    return lost
            raise IntegrityError(INSERT, None, error) from error
        except asyncpg.DataError as error:
            # A value its column refuses (SQLSTATE class 22), or one asyncpg cannot encode.
            raise DataError(INSERT, None, error) from error
        except asyncpg.PostgresError as error:
            if lost_connection(error):
                raise
            raise OperationalError(INSERT, None, error) from error

    async def _already_written(
        self, values: Columns, tables: list[str], fences: Mapping[str, int] | None
    ) -> set[str] | None:
        """After an attempt whose commit is unknown: the lost tables if the batch is stored
        as it would be written now (every row there, identical, but those of tables whose
        lease is lost), else None (a real conflict)."""
        stored = {
            (r[0], r[1]): tuple(r) for r in await self._connection.fetch(_STORED, *values[:2])
        }
        lost: set[str] = set()
        if fences is not None:
            leases = await self._connection.fetch(_LEASES, tables)
            lost = stale_tables(fences, tables, {r[0]: r[1] for r in leases})
        for row in zip(*values, strict=True):
            found = stored.get((row[0], row[1]))
            if found == row:
                continue
            if found is None and row[0] in lost:
                continue
            return None
        return lost

    async def _connect(self) -> None:
        if self._connection is not None and not self._connection.is_closed():
            return
        await self._drop()
        connection = await asyncpg.connect(**self._connect_args)
        try:
            self._insert = await connection.prepare(INSERT)
            self._fenced = await connection.prepare(FENCED_INSERT)
        except BaseException:
            connection.terminate()
            raise
        self._connection = connection
        self.connections += 1

    async def _drop(self) -> None:
        """Forget a connection that failed (without waiting on it)."""
        connection, self._connection = self._connection, None
        self._insert = self._fenced = None
        if connection is not None:
            connection.terminate()

    async def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        self._insert = self._fenced = None
        if connection is not None:
            try:
                await connection.close(timeout=5)
            except Exception:
                connection.terminate()


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's when it is installed (as uvicorn picks it), else asyncio's."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def _failed(error: BaseException, doubt: bool) -> OperationalError:
    if doubt:
        return InDoubt(INSERT, None, error)
    return OperationalError(INSERT, None, error)
