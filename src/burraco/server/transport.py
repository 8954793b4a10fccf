"""uvicorn's settings for a server that faces the Internet (issue 19, M6), in one place for
``burraco serve`` and the real-process test harness.

uvicorn bounds idle keep-alive connections, but not a request whose headers never finish: a
client sending one header line every few seconds (slowloris) held its connection for ever.
``HeaderDeadline`` is uvicorn's own httptools protocol with a deadline for each request's
headers; ``limit_concurrency`` answers 503 past a number of connections and tasks, so that such
clients cannot take every descriptor either.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeaderDeadline(HttpToolsProtocol):
    """A request's headers must arrive within ``header_timeout`` seconds of its first byte (of
    the connection, for the first request); a connection past it is closed."""

    header_timeout = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection whose request headers took too long")
            self.transport.close()


@dataclass(frozen=True, kw_only=True)
class TransportLimits:
    """What one connection may hold (documented in docs/operations.md and docs/protocol.md)."""

    header_timeout: float = 10.0
    """Seconds a request's headers may take to arrive."""
    keep_alive: float = 5.0
    """Seconds an idle keep-alive connection stays open."""
    max_connections: int = 2000
    """Connections and requests in progress at once; more are answered 503."""
    ws_max_size: int = 64 * 1024
    """Bytes of one WebSocket frame read at all (larger: the socket is closed with 1009). Four
    times the protocol's own limit (``protocol.MAX_FRAME``, 16 KiB), which a frame between the
    two is refused by with a ``too_large`` error: a client that sends a little too much hears
    why, and nobody makes the server read a megabyte to refuse it (issue 19)."""
    ws_ping: float = 20.0
    """Seconds between WebSocket pings, and to wait for the pong."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Addresses of the proxies whose ``X-Forwarded-For`` names the client (docs/cluster.md);
    from anyone else the header is ignored, so a client cannot pose as another address to
    the per-address limits. Empty: no proxy is trusted."""

    def uvicorn_options(self) -> dict[str, Any]:
        protocol = type(
            "HeaderDeadline", (HeaderDeadline,), {"header_timeout": self.header_timeout}
        )
        return {
            "http": protocol,
            "timeout_keep_alive": self.keep_alive,
            "limit_concurrency": self.max_connections,
            "ws_max_size": self.ws_max_size,
            "ws_ping_interval": self.ws_ping,
            "ws_ping_timeout": self.ws_ping,
            "proxy_headers": bool(self.forwarded_allow_ips),
            "forwarded_allow_ips": list(self.forwarded_allow_ips) or None,
        }
