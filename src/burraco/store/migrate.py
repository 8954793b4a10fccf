"""Alembic migrations, run from code: ``upgrade(connection)`` brings a database to the latest
schema. The server runs it at start; ``burraco db upgrade`` runs it by hand."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True, slots=True)
class Applied:
    """One migration that ran: its revision id and its one-line description."""

    revision: str
    doc: str


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The latest revision the migrations know."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the database behind ``connection`` is at (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, revision: str = "head") -> list[Applied]:
    """Upgrade the database behind ``connection`` (a synchronous connection); returns the
    migrations that ran, in order (none when it was already up to date)."""
    config = alembic_config(connection)
    applied: list[Applied] = []
    config.attributes["applied"] = applied
    command.upgrade(config, revision)
    return applied
