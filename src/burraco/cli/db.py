"""``burraco db upgrade``: bring the server's database to the latest schema (Alembic migrations).

The server migrates by itself when it starts; this command does it by hand (before starting
several server processes on one PostgreSQL database, say) and says what it did.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "db",
        help="manage the server's database (migrations)",
        description="Manage the server's database.",
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    upgrade = actions.add_parser(
        "upgrade",
        help="run the migrations up to the latest schema",
        description="Run the database migrations up to the latest schema (a no-op when the"
        " database is up to date).",
    )
    upgrade.add_argument(
        "--database-url",
        help="e.g. postgresql://user@host/db (default: SQLite in the data folder, as serve)",
    )
    upgrade.add_argument("--data-dir", type=Path, default=Path("data"), help="data folder (data)")
    upgrade.set_defaults(run=run_upgrade)


def run_upgrade(args: argparse.Namespace) -> int:
    from burraco.server.config import ServerConfig
    from burraco.store import migrate_database

    url = ServerConfig(database_url=args.database_url, data_dir=args.data_dir).database()
    try:
        report = asyncio.run(migrate_database(url))
    except Exception as error:  # unreachable server, no such database, a failed migration
        print(f"burraco db upgrade: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"database: {report.url}")
    if not report.applied:
        print(f"already up to date at revision {report.after}; nothing to do")
        return 0
    for step in report.applied:
        print(f"applied {step.revision}: {step.doc}")
    print(f"upgraded from {report.before or 'an empty database'} to revision {report.after}")
    return 0
