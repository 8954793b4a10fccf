"""The cluster's message bus: Redis pub/sub between the server processes (docs/cluster.md).

Each process listens on its own channel (``{cluster}:node:{id}``) and on the broadcast channel
(``{cluster}:all``). Messages are small JSON objects with a kind (``"k"``); what a process sends
to another within one turn of the event loop goes out as one pipelined batch, so a table event
fanned out to a hundred remote watchers costs one round trip to Redis, not a hundred.

Pub/sub keeps nothing: a message published while a process is unsubscribed (Redis restarting)
is lost. So the bus tells its owner when it has reconnected (``on_reconnect``), and the cluster
then makes every remote watcher resynchronise (a reconnect, then the events it missed or a
snapshot, as after any dropped socket). Nothing the cluster needs to be correct lives only in
Redis: leases, logs and tables are in PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, cast

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

log = logging.getLogger("burraco.cluster")

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class Bus:
    def __init__(self, url: str, *, cluster: str, node: str) -> None:
        self.url = url
        self.cluster = cluster
        self.node = node
        self.redis: redis.Redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self._handlers: dict[str, Handler] = {}
        self._outgoing: dict[str, list[bytes]] = defaultdict(list)
        self._flushing = False
        self._listener: asyncio.Task[None] | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.connected = asyncio.Event()
        """Set while subscribed (cleared while Redis is away)."""
        self.on_reconnect: list[Callable[[], Awaitable[None] | None]] = []
        self.on_loss: list[Callable[[set[str | None]], None]] = []
        """Told, once Redis takes messages again, to which processes some were not sent
        (None: a broadcast): their receivers resynchronise (``Cluster._lost_messages``)."""
        self._nodes: dict[str, str | None] = {}
        self._lost: set[str | None] = set()
        self.sent = 0
        self.received = 0
        self.dropped = 0
        """Messages that could not be published (Redis away): their receivers resync."""

    def channel(self, node: str | None) -> str:
        return f"{self.cluster}:all" if node is None else f"{self.cluster}:node:{node}"

    def key(self, *parts: str) -> str:
        """A Redis key of this cluster (every key is prefixed by the cluster's name)."""
        return ":".join((self.cluster, *parts))

    def handle(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(self._listen(), name="cluster bus")
        self._flusher = loop.create_task(self._flush_forever(), name="cluster bus out")
        await asyncio.wait_for(self.connected.wait(), 10)

    async def close(self) -> None:
        for task in (self._listener, self._flusher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self._flush_once()
        await self.redis.aclose()

    # ------------------------------------------------------------------------ sending

    def send(self, node: str | None, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node`` (None: every process, this one included); it goes
        out with the others of this turn of the event loop."""
        channel = self.channel(node)
        self._nodes[channel] = node
        self._outgoing[channel].append(orjson.dumps(message))
        self._wake.set()

    async def _flush_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._flush_once()

    async def _flush_once(self) -> None:
        if not self._outgoing:
            return
        batch, self._outgoing = self._outgoing, defaultdict(list)
        # Several messages to one process travel as one JSON array.
        payloads = [
            (channel, messages[0] if len(messages) == 1 else b"[" + b",".join(messages) + b"]")
            for channel, messages in batch.items()
        ]
        for attempt in (1, 2):
            try:
                if len(payloads) == 1:  # the usual case (two processes): no pipeline's cost
                    await self.redis.publish(*payloads[0])
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, payload in payloads:
                            pipe.publish(channel, payload)
                        await pipe.execute()
                break
            except (RedisError, OSError) as error:
                # Once more at once: after a Redis restart the pool's first connection is
                # a dead one, which the failure has discarded.
                if attempt == 2:
                    count = sum(len(m) for m in batch.values())
                    self.dropped += count
                    self._lost.update(self._nodes.get(c) for c in batch)
                    log.warning("cluster bus: %d messages not sent (%s)", count, error)
                    return
        self.sent += sum(len(m) for m in batch.values())
        if self._lost:
            lost, self._lost = self._lost, set()
            for callback in self.on_loss:
                callback(lost)

    # ---------------------------------------------------------------------- receiving

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.node), self.channel(None))
                self.connected.set()
                if not first:
                    log.info("cluster bus: reconnected to Redis")
                    for callback in self.on_reconnect:
                        result = callback()
                        if result is not None:
                            await result
                first = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    await self._deliver(message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await _close(pubsub)
                raise
            except (RedisError, OSError) as error:
                self.connected.clear()
                log.warning("cluster bus: Redis is away (%s); retrying", error)
                with contextlib.suppress(Exception):
                    await _close(pubsub)
                await asyncio.sleep(0.5)

    async def _deliver(self, data: bytes) -> None:
        decoded = orjson.loads(data)
        for message in decoded if isinstance(decoded, list) else [decoded]:
            self.received += 1
            handler = self._handlers.get(message.get("k", ""))
            if handler is None:
                log.warning("cluster bus: no handler for %r", message.get("k"))
                continue
            try:
                result = handler(message)
                if result is not None:
                    await result
            except Exception:  # one bad message must not stop the bus
                log.exception("cluster bus: handling %r failed", message.get("k"))


async def _close(pubsub: Any) -> None:
    """``PubSub.aclose``: typed from redis-py 8.2 on, untyped before (a cast, not a
    ``type: ignore`` that one of the two versions would call unused)."""
    close = cast(Callable[[], Awaitable[None]], pubsub.aclose)
    await close()
