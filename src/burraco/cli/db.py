"""``burraco db upgrade``: bring the server's database to the latest schema (Alembic migrations).

The server migrates by itself when it starts; this command does it by hand (before starting
several server processes on one PostgreSQL database, say) and says what it did.
"""

from __future__ import annotations

import argparse
import asyncio
import sys


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
