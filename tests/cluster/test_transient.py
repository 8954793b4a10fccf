"""What the cluster's heartbeat and background tasks treat as PostgreSQL or Redis being away
(a warning, retried at the next beat) and what as a bug (logged with its traceback)."""

from __future__ import annotations

from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from burraco.server.cluster.node import transient


def test_lost_connections_are_transient_and_bugs_are_not() -> None:
    assert transient(OperationalError("SELECT 1", {}, Exception("server closed")))
    invalidated = DBAPIError("SELECT 1", {}, Exception("terminated"), connection_invalidated=True)
    assert transient(invalidated)
    assert transient(RedisConnectionError("Connection refused"))
    assert transient(ConnectionRefusedError())
    assert not transient(IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not transient(KeyError("table"))
    assert not transient(AssertionError())
