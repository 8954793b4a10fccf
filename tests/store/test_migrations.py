"""Migrations on both backends: an empty database upgraded to the head has exactly the models'
schema (Alembic's autogenerate comparison finds nothing to change), a second upgrade does
nothing, the migrations go down and up again, and ``burraco db upgrade`` reports what it did."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import DateTime, bindparam, inspect, text
from sqlalchemy.engine import Connection

from burraco.cli.main import main
from burraco.store import Store, migrate_database
from burraco.store.migrate import alembic_config, current_revision, head_revision
from burraco.store.models import Base
from burraco.store.store import make_engine


def schema_differences(url: str) -> tuple[list[Any], set[str], str | None]:
    """What autogenerate would change, the tables present, and the database's revision."""

    def read(connection: Connection) -> tuple[list[Any], set[str], str | None]:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        return (
            list(differences),
            set(inspect(connection).get_table_names()),
            current_revision(connection),
        )

    async def run() -> tuple[list[Any], set[str], str | None]:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(read)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def with_connection(url: str, work: Any) -> None:
    async def run() -> None:
        engine = make_engine(url)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(work)
        finally:
            await engine.dispose()

    asyncio.run(run())


MODEL_TABLES = set(Base.metadata.tables)


def test_the_migrations_form_one_line_to_the_head() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert scripts.get_heads() == [head_revision()]
    revisions = list(scripts.walk_revisions())
    assert revisions[-1].down_revision is None  # one base
    assert all(r.doc for r in revisions)


def test_upgrade_of_an_empty_database_reaches_the_models_schema(empty_db_url: str) -> None:
    differences, tables, revision = schema_differences(empty_db_url)
    assert tables == set() and revision is None
    report = asyncio.run(migrate_database(empty_db_url))
    assert (report.before, report.after) == (None, head_revision())
    assert [step.revision for step in report.applied][-1] == head_revision()
    differences, tables, revision = schema_differences(empty_db_url)
    assert differences == []
    assert tables == MODEL_TABLES | {"alembic_version"}
    assert revision == head_revision()


def test_a_second_upgrade_changes_nothing(empty_db_url: str) -> None:
    async def fill() -> None:
        store = await Store.open(empty_db_url)
        await store.create_user("Ilaria", "hash")
        await store.close()

    async def read() -> str | None:
        store = await Store.open(empty_db_url)  # the server's start: migrates again
        user = await store.user_by_name("ilaria")
        await store.close()
        return None if user is None else user.name

    asyncio.run(fill())
    report = asyncio.run(migrate_database(empty_db_url))
    assert report.applied == () and report.before == report.after == head_revision()
    assert asyncio.run(read()) == "Ilaria"
    differences, _, revision = schema_differences(empty_db_url)
    assert differences == [] and revision == head_revision()


def test_downgrade_to_nothing_and_up_again(empty_db_url: str) -> None:
    asyncio.run(migrate_database(empty_db_url))
    with_connection(empty_db_url, lambda c: command.downgrade(alembic_config(c), "base"))
    differences, tables, revision = schema_differences(empty_db_url)
    assert tables <= {"alembic_version"} and revision is None
    assert differences  # everything would have to be created
    report = asyncio.run(migrate_database(empty_db_url))
    assert report.after == head_revision() and report.applied
    assert schema_differences(empty_db_url)[0] == []


def test_db_upgrade_command(empty_db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "upgrade", "--database-url", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert "applied 0001: initial schema" in out and f"applied {head_revision()}: " in out
    assert f"upgraded from an empty database to revision {head_revision()}" in out
    assert main(["db", "upgrade", "--database-url", empty_db_url]) == 0
    out = capsys.readouterr().out
    assert f"already up to date at revision {head_revision()}; nothing to do" in out
    assert schema_differences(empty_db_url)[0] == []


def test_db_upgrade_default_database_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    assert main(["db", "upgrade", "--data-dir", str(data)]) == 0
    assert (data / "burraco.db").is_file()
    assert "upgraded from an empty database" in capsys.readouterr().out
    bad = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}"
    assert main(["db", "upgrade", "--database-url", bad]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("burraco db upgrade: ") and captured.out == ""


def test_0010_keeps_the_rows_and_leaves_invitation_mails_off(empty_db_url: str) -> None:
    """Issue 16's invitations by mail on a database that has accounts: the preference is off
    for everybody, the mails already logged have no inviter; down again, the rows stay."""
    created = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    at = bindparam("at", type_=DateTime(timezone=True))

    def before(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "0009_recurring_events")
        connection.execute(
            text(
                "INSERT INTO users (name, name_key, is_guest, created_at, email, mail_standings,"
                " role, banned) VALUES ('Anna', 'anna', false, :at, 'a@x.org', true,"
                " 'player', false)"
            ).bindparams(at),
            {"at": created},
        )
        connection.execute(
            text(
                "INSERT INTO mail_sent (email, user_id, purpose, at)"
                " SELECT 'a@x.org', id, 'verify', :at FROM users"
            ).bindparams(at),
            {"at": created},
        )

    def after(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "head")
        row = connection.execute(text("SELECT mail_standings, mail_invitations FROM users"))
        assert [tuple(r) for r in row] == [(True, False)]
        sent = connection.execute(text("SELECT purpose, sender_id FROM mail_sent"))
        assert [tuple(r) for r in sent] == [("verify", None)]

    def down(connection: Connection) -> None:
        command.downgrade(alembic_config(connection), "0009_recurring_events")
        assert "mail_invitations" not in {
            c["name"] for c in inspect(connection).get_columns("users")
        }
        assert "sender_id" not in {c["name"] for c in inspect(connection).get_columns("mail_sent")}
        assert connection.execute(text("SELECT count(*) FROM mail_sent")).scalar() == 1
        assert connection.execute(text("SELECT name FROM users")).scalar() == "Anna"

    with_connection(empty_db_url, before)
    with_connection(empty_db_url, after)
    with_connection(empty_db_url, down)
    asyncio.run(migrate_database(empty_db_url))
    assert schema_differences(empty_db_url)[0] == []


def test_0015_gives_existing_accounts_their_skeletons_oldest_first(empty_db_url: str) -> None:
    """Issue 19, M9: accounts made before names were compared by how they read keep their
    names; the oldest of two that read alike holds the skeleton, the other none."""
    created = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    at = bindparam("at", type_=DateTime(timezone=True))

    def before(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "0014_fair_seeds")
        for name in ("Giulia", "Arnold", "GiuIia"):
            connection.execute(
                text(
                    "INSERT INTO users (name, name_key, is_guest, created_at, mail_standings,"
                    " mail_invitations, role, banned) VALUES (:name, :key, false, :at, false,"
                    " false, 'player', false)"
                ).bindparams(at),
                {"name": name, "key": name.casefold(), "at": created},
            )

    def after(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "head")
        rows = connection.execute(text("SELECT name, name_skeleton FROM users ORDER BY id"))
        assert [tuple(r) for r in rows] == [
            ("Giulia", "Giulia"),
            ("Arnold", "Amold"),
            ("GiuIia", None),
        ]

    with_connection(empty_db_url, before)
    with_connection(empty_db_url, after)
    assert schema_differences(empty_db_url)[0] == []
