"""Running one action of ``burraco club``: the database, the service, the handler; a refusal is
one sentence on standard error (exit 1) and nothing changed. Imported only when an action runs,
so building the parser imports neither the store nor the service."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path

from burraco.club.calendar import zone
from burraco.club.errors import ClubError, bad
from burraco.club.service import Actor, ClubService
from burraco.store import Store
from burraco.store.club import ClubInfo

Handler = Callable[["Ctx"], Awaitable[int]]


@dataclass
class Ctx:
    service: ClubService
    args: argparse.Namespace

    @property
    def actor(self) -> Actor:
        return Actor.of_console(self.args.as_ or "console")

    @property
    def lang(self) -> str:
        return str(self.args.lang)

    async def club(self) -> ClubInfo:
        return await self.service.find_club(self.args.club)

    async def season_id(self, club: ClubInfo, day: date | None = None) -> int:
        return await self.service.find_season(club.id, getattr(self.args, "season", None), day)

    async def evening_id(self) -> tuple[ClubInfo, int]:
        club = await self.club()
        return club, await self.service.find_evening(club.id, self.args.date)


def database(args: argparse.Namespace) -> str:
    from burraco.server.config import ServerConfig

    url = args.database_url or os.environ.get("BURRACO_DATABASE_URL")
    return ServerConfig(database_url=url, data_dir=args.data_dir).database()


def run(target: str, args: argparse.Namespace) -> int:
    """Run the handler ``target`` (``module:function`` of this package) on a fresh service:
    a refusal is one sentence on standard error and exit status 1."""
    module, _, name = target.partition(":")
    handler: Handler = getattr(importlib.import_module(f"{__package__}.{module}"), name)

    async def main() -> int:
        store = await Store.open(database(args))
        try:
            return await handler(Ctx(ClubService(store), args))
        finally:
            await store.close()

    try:
        return asyncio.run(main())
    except ClubError as error:
        hint = ""
        if error.code == "forbidden":
            hint = " (act as an officer with --as NAME or BURRACO_CLUB_AS)"
        print(f"burraco club: {error.message}{hint}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except OSError as error:
        print(f"burraco club: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


def write_file(path: Path, data: str | bytes) -> None:
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    print(f"wrote {path}")


def moment(text: str | None, day: date, tz_name: str) -> datetime | None:
    """``--at``: HH:MM on the evening's day in the club's zone, or a full ISO date and time."""
    if text is None:
        return None
    tz = zone(tz_name)
    try:
        if "T" in text or " " in text.strip():
            moment = datetime.fromisoformat(text.strip())
            return moment if moment.tzinfo else moment.replace(tzinfo=tz)
        return datetime.combine(day, time.fromisoformat(text.strip()), tz)
    except ValueError:
        raise bad(f"--at is HH:MM or an ISO date and time, not {text!r}") from None
