"""The real PostgreSQL server for the tests: fresh databases on it, created and dropped here.

``BURRACO_TEST_POSTGRES_URL`` is the administrative connection (default: the local server,
``postgresql://postgres@127.0.0.1:5432/postgres``); test databases are created beside it as
``burraco_test_<random>`` and dropped afterwards. When the server cannot be reached the
PostgreSQL tests are skipped, unless ``BURRACO_REQUIRE_POSTGRES=1`` (as ``.ci/run`` sets it):
then they FAIL, so CI can never pass without having run them against a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.engine import make_url

from burraco.store.models import Base

T = TypeVar("T")

ADMIN_URL_ENV = "BURRACO_TEST_POSTGRES_URL"
REQUIRE_ENV = "BURRACO_REQUIRE_POSTGRES"
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def admin_url() -> str:
    return os.environ.get(ADMIN_URL_ENV) or DEFAULT_ADMIN_URL


def required() -> bool:
    return os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0")


def _dsn(url: str) -> str:
    """A libpq-style URL for asyncpg (no SQLAlchemy driver suffix)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def database_url(name: str) -> str:
    """The URL of database ``name`` on the test server (plain ``postgresql://``)."""
    return make_url(_dsn(admin_url())).set(database=name).render_as_string(hide_password=False)


async def _execute(url: str, *statements: str) -> None:
    connection = await asyncpg.connect(_dsn(url), timeout=10)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


@functools.cache
def _unreachable() -> str | None:
    """Why the server cannot be used (None: it answers)."""
    try:
        _run(_execute(admin_url(), "SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def ensure_available() -> None:
    """Skip the test when PostgreSQL is unreachable, or fail it when it is required."""
    reason = _unreachable()
    if reason is None:
        return
    shown = make_url(admin_url()).render_as_string(hide_password=True)
    message = f"PostgreSQL at {shown} is unreachable ({reason})"
    if required():
        pytest.fail(f"{message}, and {REQUIRE_ENV}=1 requires the PostgreSQL tests to run")
    pytest.skip(f"{message}; set {ADMIN_URL_ENV} to test against PostgreSQL")


@contextlib.contextmanager
def temporary_database(prefix: str = "burraco_test") -> Iterator[str]:
    """A new empty database on the test server, dropped afterwards; yields its URL."""
    ensure_available()
    name = f"{prefix}_{secrets.token_hex(6)}"
    _run(_execute(admin_url(), f'CREATE DATABASE "{name}"'))
    try:
        yield database_url(name)
    finally:
        _run(_execute(admin_url(), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def truncate_all(url: str) -> None:
    """Empty every table of the schema (between tests sharing one database)."""
    tables = ", ".join(f'"{name}"' for name in Base.metadata.tables)
    _run(_execute(url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))


def _run(work: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(work)``, in a thread of its own when this thread has a running loop: the
    session's last teardown may follow a browser test, with Playwright's loop running in the
    main thread (tests/conftest.py)."""
    if asyncio._get_running_loop() is None:
        return asyncio.run(work)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()
