"""A migrated SQLite database, made once per test process and copied into each test server's
data folder: a server then finds its database at the head revision and runs no migration
(Alembic still checks the revision at start-up: a few milliseconds instead of the 15
migrations' second or more).

``seed_database(data_dir)`` copies it to ``data_dir/burraco.db`` unless a database is already
there (a test that prepared one keeps it). PostgreSQL databases are made by their tests
(``CREATE DATABASE``) and migrated by the server as before.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import threading
from pathlib import Path

from burraco.store import Store

__all__ = ["migrated_database", "seed_database"]

_lock = threading.Lock()
_made: Path | None = None


def migrated_database() -> Path:
    """This process's template: an SQLite file with every migration applied (made the first
    time it is asked for, by ``Store.open`` as a server opens its database)."""
    global _made  # noqa: PLW0603 (made once per process)
    with _lock:
        if _made is None:
            folder = Path(tempfile.mkdtemp(prefix="burraco-template-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = folder / "burraco.db"
            # In a thread of its own: the caller may be inside a running event loop.
            worker = threading.Thread(target=asyncio.run, args=(_migrate(path),))
            worker.start()
            worker.join()
            if not path.exists() or Path(f"{path}-wal").exists():
                raise RuntimeError(f"the template database {path} was not made whole")
            _made = path
        return _made


async def _migrate(path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    await store.close()  # the last connection closed: the WAL is checkpointed into the file


def seed_database(data_dir: Path) -> None:
    """Put a copy of the template at ``data_dir/burraco.db`` (nothing if one is there)."""
    target = data_dir / "burraco.db"
    if target.exists():
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_database(), target)
