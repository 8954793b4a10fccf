"""The club manager's transactions: ``ClubStore`` opens them, ``ClubTx`` reads and writes in one
(its parts, one concern each: ``members``, ``calendar``, ``play``, ``ledger``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from ..store import Store
from .ledger import LedgerRows
from .members import MemberRows
from .play import PlayRows


class ClubStore:
    """The club manager's transactions on the platform's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @asynccontextmanager
    async def write(self) -> AsyncIterator[ClubTx]:
        """One transaction: committed at the end of the block, rolled back if it raises.

        PostgreSQL serialises two changes of one evening with a row lock (``evening(...,
        lock=True)``). SQLite cannot upgrade two concurrent readers to writers (one of them
        fails with "database is locked"), so on SQLite the club's write transactions of one
        process take turns with every other write of the store (``Store.exclusive``)."""
        async with self.store.write() as session:
            yield ClubTx(session)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[ClubTx]:
        async with self.store.sessions() as session:
            yield ClubTx(session)


class ClubTx(MemberRows, PlayRows, LedgerRows):
    """Reads and writes inside one transaction (see ``ClubStore``)."""
