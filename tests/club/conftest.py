"""Club manager tests run on SQLite (a temporary file) and, for the store parts, on the real
PostgreSQL server (tests/store/postgres.py: a fresh database per session, emptied per test)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from burraco.store import Store

from ..store import postgres


@pytest.fixture(scope="session")
def club_postgres_database() -> Iterator[str]:
    with postgres.temporary_database("burraco_club_test") as url:

        async def migrate() -> None:
            store = await Store.open(url)
            await store.close()

        asyncio.run(migrate())
        yield url


def _url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'club.db'}"
    url: str = request.getfixturevalue("club_postgres_database")
    postgres.truncate_all(url)
    return url


@pytest.fixture(params=("sqlite", "postgresql"))
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store on each backend."""
    return _url(request, tmp_path)


@pytest.fixture(params=("sqlite",))
def sqlite_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _url(request, tmp_path)
