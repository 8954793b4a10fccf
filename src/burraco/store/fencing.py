"""Fencing: the check every write of a table's log makes when several processes share the
database (``lease_store`` explains the leases)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection


class LeaseLost(Exception):
    """A write for a table whose lease this process no longer holds: nothing was written."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the lease of table {table_id} is held by another process")
        self.table_id = table_id


async def check_fences(
    connection: AsyncConnection, fences: Mapping[str, int], table_ids: Iterable[str]
) -> set[str]:
    """Inside a write transaction: the tables among ``table_ids`` whose lease token is not the
    one this process holds (``fences``). On PostgreSQL the lease rows stay share-locked until
    the transaction ends, so a takeover (which updates them) waits for this write and then
    sees it, or this write waits for the takeover and is refused."""
    wanted = sorted(set(table_ids))
    if not wanted:
        return set()
    placeholders = ", ".join(f":t{i}" for i in range(len(wanted)))
    lock = " FOR SHARE" if connection.dialect.name == "postgresql" else ""
    sql = text(f"SELECT table_id, token FROM table_leases WHERE table_id IN ({placeholders}){lock}")
    rows = (await connection.execute(sql, {f"t{i}": t for i, t in enumerate(wanted)})).all()
    return stale_tables(fences, wanted, {str(r[0]): int(r[1]) for r in rows})


def stale_tables(
    fences: Mapping[str, int], wanted: Iterable[str], current: Mapping[str, int]
) -> set[str]:
    """The tables among ``wanted`` this process no longer holds: missing from its ``fences``,
    or whose lease's token (``current``, read from ``table_leases``) is not the one it holds."""
    return {t for t in wanted if t not in fences or current.get(t) != fences[t]}
