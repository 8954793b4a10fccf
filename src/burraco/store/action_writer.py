"""The action log's writer on SQLite: one thread, one plain ``sqlite3`` connection.

Every accepted action is committed before anyone hears of it (``Store.log_action``), so the
server commits hundreds of times a second at human pace, mostly one row at a time. Through
SQLAlchemy's async session over aiosqlite a one-row commit cost about 0.4 ms of the event loop's
CPU (a begin, an execute and a commit, each a hop to aiosqlite's thread and back, plus the
ORM's bookkeeping): a quarter of what the server spends on an action. Here a batch is one call
on this writer's own thread (one hop), with the same pragmas as the engine's connections, inside
the store's SQLite write lock, so that it never competes with the other writers.

PostgreSQL has a writer of its own (pg_action_writer.py: one asyncpg connection, one statement
a batch). An in-memory SQLite database keeps SQLAlchemy's path (``Store._commit_actions``): a
second connection could not see it; so does a SQLite file in a cluster (``Store.fences``), whose
writes check their fences through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from sqlalchemy.exc import IntegrityError, OperationalError

SQLITE_PRAGMAS: Final = (
    # WAL: readers do not block the writer; NORMAL: a commit survives a crash of the process.
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)

COLUMNS: Final = ("table_id", "seq", "match_no", "number", "seat", "action", "at", "auto", "clock")
_INSERT: Final = (
    f"INSERT INTO actions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
)


class InDoubt(OperationalError):
    """A batch whose commit is unknown: its connection failed while it was being written, and
    failed again on the retry (pg_action_writer.py). Rows of it may have been committed."""


def _values(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """A row as SQLAlchemy would store it: booleans as 0/1, the clock as JSON text."""
    clock = row["clock"]
    return (
        row["table_id"],
        row["seq"],
        row["match_no"],
        row["number"],
        row["seat"],
        row["action"],
        row["at"],
        int(bool(row["auto"])),
        None if clock is None else json.dumps(clock),
    )


class SqliteActionWriter:
    """Writes batches of action rows to the SQLite file at ``path`` (module doc)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="burraco-actions")
        self._connection: sqlite3.Connection | None = None
        """Made, used and closed on the executor's thread only."""

    async def write(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` in one transaction; returns once it is committed. A duplicate event
        number or an unknown table raises SQLAlchemy's ``IntegrityError``, as the SQLAlchemy
        path does, with nothing written."""
        values = [_values(row) for row in rows]
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._write, values)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(_INSERT, None, error) from error

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._executor, self._disconnect)
        self._executor.shutdown(wait=True)

    # -- on the writer's thread --

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None)  # explicit BEGIN below
            for pragma in SQLITE_PRAGMAS:
                connection.execute(pragma)
            self._connection = connection
        return self._connection

    def _write(self, values: list[tuple[Any, ...]]) -> None:
        connection = self._connect()
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.executemany(_INSERT, values)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
