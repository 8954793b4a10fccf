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


def run_role(args: argparse.Namespace) -> int:
    """``burraco db role NAME ROLE``: the way the first administrator comes to be."""
    from datetime import UTC, datetime

    from burraco.server.config import ServerConfig
    from burraco.store import ModerationStore, Standing, Store

    url = ServerConfig(database_url=args.database_url, data_dir=args.data_dir).database()

    async def work() -> int:
        store = await Store.open(url)
        try:
            user = await store.user_by_name(args.name)
            if user is None or user.is_guest:
                print(f"burraco db role: no registered player {args.name!r}", file=sys.stderr)
                return 1
            moderation = ModerationStore(store)
            console = Standing(0, "command line", "admin", None, None, False)
            await moderation.sanction(
                console,
                "role",
                f"user:{user.name}",
                now=datetime.now(UTC),
                user_id=user.id,
                values={"role": args.role},
                details={"role": args.role},
            )
            print(f"{user.name} is now {args.role}")
            return 0
        finally:
            await store.close()

    return asyncio.run(work())
