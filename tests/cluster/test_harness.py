"""The cluster harness itself: Redis missing fails a test (never skips it), and a cluster's
flush deletes its own keys and nobody else's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from .harness import Cluster, ensure_redis, redis_url


def test_an_unreachable_redis_fails_the_test() -> None:
    with pytest.raises(pytest.fail.Exception, match="unreachable"):
        asyncio.run(ensure_redis("redis://127.0.0.1:1/0"))  # (port 1: nothing listens)


def test_the_flush_deletes_the_clusters_keys_only(tmp_path: Path) -> None:
    ours = Cluster(tmp_path / "ours", "postgresql://unused")
    theirs = Cluster(tmp_path / "theirs", "postgresql://unused")
    try:
        asyncio.run(asyncio.wait_for(flush(ours, theirs), 30))
    finally:
        ours.close()
        theirs.close()


async def flush(ours: Cluster, theirs: Cluster) -> None:
    await ensure_redis(redis_url())
    client = aioredis.Redis.from_url(redis_url())
    try:
        await client.set(f"{ours.name}:lease:t1", "a", ex=60)
        await client.set(f"{ours.name}:node:a", "1", ex=60)
        await client.set(f"{theirs.name}:lease:t1", "b", ex=60)
        assert await ours.redis_flush() == 2
        assert await client.exists(f"{ours.name}:lease:t1", f"{ours.name}:node:a") == 0
        assert await client.get(f"{theirs.name}:lease:t1") == b"b"
        assert await theirs.redis_flush() == 1
    finally:
        await client.aclose()
