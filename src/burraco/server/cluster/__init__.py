"""Several server processes on one PostgreSQL and one Redis (docs/cluster.md): leases and
takeover (``node``), the bus between processes (``bus``), clients of other processes at this
process's tables (``remote``), HTTP requests run where their table is (``forward``). Only
``notowner`` is imported by the rest of the server: a single process never loads Redis's
client."""

from .notowner import RECONNECT, NotOwner

__all__ = ["RECONNECT", "NotOwner"]
