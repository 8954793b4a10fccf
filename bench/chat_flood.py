"""Chat stored per second by one account flooding from 16 sockets (issue 19, M5). One command:
``.venv/bin/python bench/chat_flood.py`` (about 20 s). The app runs in process on a temporary
SQLite database; 16 connections of one guest join one table and send chat lines as fast as the
table's actor takes them for ``--seconds``; the figure is the lines stored per second, with the
bytes the database grew by."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.inprocess import running_app

from burraco.server.protocol import ProtocolError
from burraco.server.table import commands


async def main(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with running_app(Path(folder)) as app:
            headers = await app.guest()
            me = (await app.http.get("/api/me", headers=headers)).json()
            user = await app.hub.store.user(me["id"])
            assert user is not None
            created = await app.http.post(
                "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0}, headers=headers
            )
            table = created.json()["id"]
            actor = await app.hub.table(table)
            conns = [app.hub.connect(user) for _ in range(16)]
            sockets = [c for c in conns if c is not None]
            for conn in sockets:
                await actor.call(commands.Join(conn))

            def size_now() -> int:  # the database and its write-ahead log
                return sum(f.stat().st_size for f in Path(folder).glob("burraco.db*"))

            size = size_now()
            tried = stored = 0
            started = time.monotonic()
            while time.monotonic() - started < seconds:
                conn = sockets[tried % len(sockets)]
                tried += 1
                try:
                    await actor.call(commands.Chat(conn, "spam " * 8))
                    stored += 1
                except ProtocolError:
                    pass
            elapsed = time.monotonic() - started
            _, _, chats = await app.hub.store.load_log(table, 1)
            grown = size_now() - size
    print(f"16 sockets of one account, {elapsed:.1f} s: {tried} chat lines sent")
    print(f"stored: {len(chats)} ({stored} accepted), {len(chats) / elapsed:.2f} per second")
    print(f"database grew by {grown} bytes")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=15.0)
    asyncio.run(main(parser.parse_args().seconds))
