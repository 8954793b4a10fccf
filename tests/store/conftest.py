"""Store tests run twice: on SQLite (a temporary file) and on the real PostgreSQL server.

The PostgreSQL database is created for the test session (one per xdist worker), migrated once,
emptied before each test and dropped at the end (see ``postgres.py`` for when it is required).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from burraco.store import Store

from . import postgres

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, with the schema, dropped at the end."""
    with postgres.temporary_database() as url:

        async def migrate() -> None:
            store = await Store.open(url)
            await store.close()

        asyncio.run(migrate())
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty store (schema in place, no rows) on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("postgres_database")
    postgres.truncate_all(url)
    return url


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a database with nothing in it, not even the schema, on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    with postgres.temporary_database() as url:
        yield url
