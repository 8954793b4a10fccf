"""Who runs each table when several server processes share one database (docs/cluster.md).

A table is run by exactly one process at a time, which holds its *lease*. A lease is valid while
its process's heartbeat (``nodes.heartbeat_at``, renewed every second) is younger than the
time to live; after that any process may take it over. Every claim bumps the lease's *fencing
token*, and the owner's writes of the table's log check the token inside their own transaction
(``check_fences``, under ``FOR SHARE`` on PostgreSQL): a process that lost a table, however
late it wakes up, can never append to its log again. The leases live in PostgreSQL, next to the
log they protect, rather than in Redis: the check and the write are one transaction, which a
lease in another system could not give (a Redis lock can expire between its check and the
database's commit), and Redis keeps nothing here that PostgreSQL could not rebuild.

Times are the database's clock (seconds since the epoch), so machines need not agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, bindparam, text

from .fencing import LeaseLost, check_fences
from .store import Store

__all__ = ["LeaseLost", "LeaseStore", "NodeInfo", "Owner", "check_fences", "now_sql"]


@dataclass(frozen=True, slots=True)
class NodeInfo:
    id: str
    name: str
    address: str | None
    heartbeat_age: float
    """Seconds since its last heartbeat, by the database's clock."""
    draining: bool
    tables: int


@dataclass(frozen=True, slots=True)
class Owner:
    node: str | None
    """The owning node's id (None: released)."""
    token: int
    alive: bool
    """Whether the owner's heartbeat is fresh (a dead owner's tables may be taken over)."""
    address: str | None


def now_sql(dialect: str) -> str:
    """The database's clock in seconds since the epoch, as an SQL expression."""
    if dialect == "postgresql":
        return "extract(epoch from clock_timestamp())"
    return "((julianday('now') - 2440587.5) * 86400.0)"


class LeaseStore:
    def __init__(self, store: Store, *, ttl: float = 4.0) -> None:
        self.store = store
        self.ttl = ttl
        """Seconds without a heartbeat after which a node is dead and its leases free."""
        self._now = now_sql(store.dialect)

    # ------------------------------------------------------------------------ nodes

    async def heartbeat(
        self, node: str, *, name: str, address: str | None, tables: int, draining: bool
    ) -> None:
        """Say that ``node`` is alive (and its load); the first call registers it."""
        sql = text(
            f"INSERT INTO nodes (id, name, address, started_at, heartbeat_at, draining, tables)"
            f" VALUES (:id, :name, :address, {self._now}, {self._now}, :draining, :tables)"
            f" ON CONFLICT (id) DO UPDATE SET heartbeat_at = {self._now},"
            f" draining = :draining, tables = :tables, address = :address"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            await connection.execute(
                sql,
                {
                    "id": node,
                    "name": name,
                    "address": address,
                    "draining": draining,
                    "tables": tables,
                },
            )

    async def nodes(self) -> list[NodeInfo]:
        """Every registered node, the dead ones included (their ``heartbeat_age`` says)."""
        sql = text(
            f"SELECT id, name, address, {self._now} - heartbeat_at, draining, tables FROM nodes"
            " ORDER BY name, id"
        )
        async with self.store.engine.connect() as connection:
            rows = (await connection.execute(sql)).all()
        return [NodeInfo(r[0], r[1], r[2], float(r[3]), bool(r[4]), int(r[5])) for r in rows]

    async def live_nodes(self) -> list[NodeInfo]:
        return [n for n in await self.nodes() if n.heartbeat_age < self.ttl]

    async def forget_node(self, node: str) -> None:
        """A node that stops cleanly: its row goes, and any lease it still holds is released."""
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            await connection.execute(
                text(
                    f"UPDATE table_leases SET node = NULL, token = token + 1, since = {self._now}"
                    " WHERE node = :node"
                ),
                {"node": node},
            )
            await connection.execute(
                text(
                    f"UPDATE cluster_roles SET node = NULL, token = token + 1, since = {self._now}"
                    " WHERE node = :node"
                ),
                {"node": node},
            )
            await connection.execute(text("DELETE FROM nodes WHERE id = :node"), {"node": node})

    async def prune_nodes(self, older_than: float) -> int:
        """Delete the rows of nodes dead for ``older_than`` seconds that hold no lease."""
        sql = text(
            f"DELETE FROM nodes WHERE {self._now} - heartbeat_at > :age"
            " AND NOT EXISTS (SELECT 1 FROM table_leases WHERE table_leases.node = nodes.id)"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            result = await connection.execute(sql, {"age": older_than})
        return int(getattr(result, "rowcount", 0) or 0)

    # ----------------------------------------------------------------------- leases

    async def claim(self, table_id: str, node: str) -> int | None:
        """Take the table's lease for ``node`` if it is free (never claimed, released, or held
        by a node whose heartbeat is older than the time to live); returns the new fencing
        token, or None when a live node holds it. A node that already holds it keeps it with
        its token (a repeated claim changes nothing)."""
        sql = text(
            f"INSERT INTO table_leases (table_id, node, token, since)"
            f" VALUES (:table, :node, 1, {self._now})"
            f" ON CONFLICT (table_id) DO UPDATE SET node = :node, token = table_leases.token + 1,"
            f" since = {self._now}"
            " WHERE table_leases.node IS NULL OR (table_leases.node <> :node AND NOT EXISTS ("
            "   SELECT 1 FROM nodes WHERE nodes.id = table_leases.node"
            f"   AND {self._now} - nodes.heartbeat_at < :ttl))"
            " RETURNING token"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            row = (
                await connection.execute(sql, {"table": table_id, "node": node, "ttl": self.ttl})
            ).first()
            if row is not None:
                return int(row[0])
            held = (
                await connection.execute(
                    text("SELECT node, token FROM table_leases WHERE table_id = :table"),
                    {"table": table_id},
                )
            ).first()
        if held is not None and held[0] == node:
            return int(held[1])
        return None

    async def hand(self, table_id: str, node: str, to: str) -> int | None:
        """Give a table ``node`` holds to the node ``to`` at once (a draining process), with a
        new token; None if ``node`` did not hold it."""
        sql = text(
            f"UPDATE table_leases SET node = :to, token = token + 1, since = {self._now}"
            " WHERE table_id = :table AND node = :node RETURNING token"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            row = (
                await connection.execute(sql, {"table": table_id, "node": node, "to": to})
            ).first()
        return None if row is None else int(row[0])

    async def release(self, table_id: str, node: str) -> bool:
        """Let go of a table (it left the process's memory): any node may claim it at once."""
        sql = text(
            f"UPDATE table_leases SET node = NULL, token = token + 1, since = {self._now}"
            " WHERE table_id = :table AND node = :node"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            result = await connection.execute(sql, {"table": table_id, "node": node})
        return bool(getattr(result, "rowcount", 0))

    async def token_of(self, table_id: str, node: str) -> int | None:
        """The token of a lease ``node`` holds (one handed to it), else None."""
        sql = text("SELECT token FROM table_leases WHERE table_id = :table AND node = :node")
        async with self.store.engine.connect() as connection:
            row = (await connection.execute(sql, {"table": table_id, "node": node})).first()
        return None if row is None else int(row[0])

    async def owner(self, table_id: str) -> Owner | None:
        """Who holds the table's lease; None: it was never claimed."""
        sql = text(
            f"SELECT l.node, l.token, n.address, {self._now} - n.heartbeat_at"
            " FROM table_leases l LEFT JOIN nodes n ON n.id = l.node WHERE l.table_id = :table"
        )
        async with self.store.engine.connect() as connection:
            row = (await connection.execute(sql, {"table": table_id})).first()
        if row is None:
            return None
        alive = row[0] is not None and row[3] is not None and float(row[3]) < self.ttl
        return Owner(row[0], int(row[1]), alive, row[2])

    async def held_by(self, node: str) -> dict[str, int]:
        """The tables ``node`` holds, with their tokens."""
        sql = text("SELECT table_id, token FROM table_leases WHERE node = :node")
        async with self.store.engine.connect() as connection:
            rows = (await connection.execute(sql, {"node": node})).all()
        return {str(r[0]): int(r[1]) for r in rows}

    async def claim_role(self, role: str, node: str) -> int | None:
        """Hold ``role`` (free, released, or its holder dead); its token, or None when a live
        node holds it. As for tables, a repeated claim keeps the token."""
        sql = text(
            f"INSERT INTO cluster_roles (role, node, token, since)"
            f" VALUES (:role, :node, 1, {self._now})"
            f" ON CONFLICT (role) DO UPDATE SET node = :node, token = cluster_roles.token + 1,"
            f" since = {self._now}"
            " WHERE cluster_roles.node IS NULL OR (cluster_roles.node <> :node AND NOT EXISTS ("
            "   SELECT 1 FROM nodes WHERE nodes.id = cluster_roles.node"
            f"   AND {self._now} - nodes.heartbeat_at < :ttl AND NOT nodes.draining))"
            " RETURNING token"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            row = (
                await connection.execute(sql, {"role": role, "node": node, "ttl": self.ttl})
            ).first()
            if row is not None:
                return int(row[0])
            held = (
                await connection.execute(
                    text("SELECT node, token FROM cluster_roles WHERE role = :role"),
                    {"role": role},
                )
            ).first()
        if held is not None and held[0] == node:
            return int(held[1])
        return None

    async def role_holder(self, role: str) -> str | None:
        """The node holding ``role`` (None: nobody)."""
        sql = text("SELECT node FROM cluster_roles WHERE role = :role")
        async with self.store.engine.connect() as connection:
            row = (await connection.execute(sql, {"role": role})).first()
        return None if row is None or row[0] is None else str(row[0])

    async def release_role(self, role: str, node: str) -> None:
        sql = text(
            f"UPDATE cluster_roles SET node = NULL, token = token + 1, since = {self._now}"
            " WHERE role = :role AND node = :node"
        )
        async with self.store.exclusive(), self.store.engine.begin() as connection:
            await connection.execute(sql, {"role": role, "node": node})

    async def orphans(
        self, statuses: Sequence[str], *, limit: int = 100, unclaimed_after: float = 30.0
    ) -> list[str]:
        """Tables open or in play that no live node runs: released, or held by a dead node.
        These are what a live node takes over. A table never claimed is one only once it is
        ``unclaimed_after`` seconds old: a node creates the table, then claims it, and a
        table in between is its creator's, not an orphan (unless the creator died then)."""
        placeholders = ", ".join(f":s{i}" for i in range(len(statuses)))
        sql = text(
            "SELECT t.id FROM game_tables t"
            " LEFT JOIN table_leases l ON l.table_id = t.id"
            " LEFT JOIN nodes n ON n.id = l.node"
            f" WHERE t.status IN ({placeholders}) AND ("
            "   (l.table_id IS NULL AND t.created_at < :cutoff)"
            "   OR (l.table_id IS NOT NULL AND (l.node IS NULL OR n.id IS NULL"
            f"     OR {self._now} - n.heartbeat_at >= :ttl)))"
            " ORDER BY t.id LIMIT :limit"
        ).bindparams(
            # Typed as the column is: SQLite then gets the text SQLAlchemy stores, rather than
            # the sqlite3 module's own datetime adapter (deprecated since Python 3.12).
            bindparam("cutoff", type_=DateTime(timezone=True))
        )
        cutoff = datetime.now(UTC) - timedelta(seconds=unclaimed_after)
        params: dict[str, Any] = {f"s{i}": s for i, s in enumerate(statuses)}
        params |= {"ttl": self.ttl, "limit": limit, "cutoff": cutoff}
        async with self.store.engine.connect() as connection:
            rows = (await connection.execute(sql, params)).all()
        return [str(r[0]) for r in rows]
