"""uvicorn's settings for a server that faces the Internet (issue 19, M6), in one place for
``burraco serve`` and the real-process test harness.

uvicorn bounds idle keep-alive connections, but not a request whose headers never finish: a
client sending one header line every few seconds (slowloris) held its connection for ever.
``HeaderDeadline`` is uvicorn's own httptools protocol with a deadline for each request's
headers; ``limit_concurrency`` answers 503 past a number of connections and tasks, so that such
clients cannot take every descriptor either.

Nor did uvicorn bound request bodies: a 16 MB body was read in full, and a body sent one byte
every few seconds held its connection for ever (issue 19). ``HeaderDeadline`` also refuses a
body over ``max_body_bytes`` (413 ``too_large``: before reading it when ``Content-Length`` says
so, or as soon as a chunked body grows past it) and a body that does not arrive within
``body_timeout`` seconds of its headers (408 ``too_slow``); either way the connection is closed.
WebSocket upgrades have no body and are untouched.

Nor did uvicorn bound request heads: httptools keeps a header line whole until it ends, so one
50 MB line was read and answered, and a few connections sending such lines took hundreds of MB
(issue 19). ``HeaderDeadline`` feeds the parser at most ``max_header_bytes`` of a request's line
and headers, and refuses a longer head, or one of more than ``max_headers`` header lines, with
431 ``headers_too_large`` without reading the rest; a WebSocket upgrade is a request like another
until its headers end. A request the parser cannot read (garbage, a bad or doubled
``Content-Length``, a target it cannot parse) is 400 ``bad_message`` in the same shape, not
uvicorn's plain-text 400. Every such answer carries the security headers and closes the
connection.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from burraco.errors import ErrorCode
from burraco.server.errors import http_body, http_status
from burraco.server.headers import SECURITY_HEADERS


class HeaderDeadline(HttpToolsProtocol):
    """A request's headers must arrive within ``header_timeout`` seconds of its first byte (of
    the connection, for the first request); a connection past it is closed. Its line and
    headers must be at most ``max_header_bytes`` long and have at most ``max_headers`` header
    lines (else 431 ``headers_too_large``). Its body must be at most ``max_body_bytes`` long
    (else 413 ``too_large``) and arrive within ``body_timeout`` seconds of the headers (else 408
    ``too_slow``). A request the parser cannot read is 400 ``bad_message``. The connection is
    closed after any of these refusals."""

    header_timeout = 10.0
    body_timeout = 10.0
    max_body_bytes = 1 << 20
    max_header_bytes = 64 * 1024
    max_headers = 100
    _deadline: asyncio.TimerHandle | None = None
    _body_deadline: asyncio.TimerHandle | None = None
    _body_bytes = 0
    _in_head = True
    """What arrives now is a request's line or headers (or the start of the next request)."""
    _head_bytes = 0
    """Bytes of the current head fed to the parser (``data_received``)."""
    _header_count = 0
    _messages = 0
    """Requests parsed to their end on this connection."""
    _refused = False
    """Set once a request is refused: the connection is closing, nothing more is parsed."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """uvicorn's, except that a head reaches the parser ``max_header_bytes`` at most (a
        piece at a time, since httptools keeps a header line until it ends) and is refused once
        past that, and that a request the parser cannot read is answered in the documented shape.

        A head that begins a read, as every request's does unless the client pipelines, is
        counted exactly. One that begins inside a read, behind the end of the request before it,
        is counted from the next piece on: it can take one read more (at most 256 KiB)."""
        if self._refused:
            return
        self._unset_keepalive_if_required()
        rest = memoryview(data)
        while rest and not self._refused:
            in_head, messages = self._in_head, self._messages
            if in_head:
                room = self.max_header_bytes - self._head_bytes
                if room <= 0:
                    self._refuse(ErrorCode.HEADERS_TOO_LARGE, self._head_bytes_message())
                    return
                piece, rest = rest[:room], rest[room:]
            else:  # a body: the body's own limits apply
                piece, rest = rest, rest[:0]
            try:
                self.parser.feed_data(piece)
            except httptools.HttpParserUpgrade:
                if self._refused:
                    return
                if self._should_upgrade():  # as uvicorn does
                    self.handle_websocket_upgrade()
                else:
                    self._unsupported_upgrade_warning()
                return
            except httptools.HttpParserError as error:
                self._malformed(error)
                return
            if in_head and self._in_head and self._messages == messages:
                self._head_bytes += len(piece)
                if self._head_bytes >= self.max_header_bytes and not self._refused:
                    self._refuse(ErrorCode.HEADERS_TOO_LARGE, self._head_bytes_message())
                    return

    def on_message_begin(self) -> None:
        if self._refused:
            return
        super().on_message_begin()
        self._body_bytes = 0
        self._header_count = 0
        self._arm()

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._refused:
            return
        self._header_count += 1
        if self._header_count > self.max_headers:
            message = f"A request may have at most {self.max_headers} header lines."
            self._refuse(ErrorCode.HEADERS_TOO_LARGE, message)
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._in_head = False
        self._disarm()
        if self.parser.should_upgrade() and self._should_upgrade():
            super().on_headers_complete()  # a WebSocket: no body, no deadline
            return
        length = self._content_length()
        if length is not None and length > self.max_body_bytes:
            self._refuse(ErrorCode.TOO_LARGE, self._too_large_message(), started=False)
            return
        super().on_headers_complete()
        self._body_deadline = self.loop.call_later(self.body_timeout, self._body_too_slow)

    def on_body(self, body: bytes) -> None:
        if self._refused:
            return
        self._body_bytes += len(body)
        if self._body_bytes > self.max_body_bytes:
            self._refuse(ErrorCode.TOO_LARGE, self._too_large_message(), started=True)
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        self._disarm_body()
        self._in_head, self._head_bytes = True, 0
        self._messages += 1
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._disarm_body()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _disarm_body(self) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection whose request headers took too long")
            self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_deadline = None
        if not self.transport.is_closing():
            message = f"The request body did not arrive within {self.body_timeout:g} seconds."
            self._refuse(ErrorCode.TOO_SLOW, message, started=True)

    def _too_large_message(self) -> str:
        return f"A request body may have at most {self.max_body_bytes} bytes."

    def _head_bytes_message(self) -> str:
        return f"A request's line and headers may have at most {self.max_header_bytes} bytes."

    def _malformed(self, error: httptools.HttpParserError) -> None:
        """The parser could not read the request (or a callback failed while it did)."""
        if self._refused:
            return
        cause = error.__context__ if isinstance(error, httptools.HttpParserCallbackError) else error
        cycle = self.cycle
        started = cycle is not None and cycle.scope is self.scope  # this request's own
        if isinstance(cause, httptools.HttpParserError):
            reason = str(cause)[:200]
            self.logger.warning("Invalid HTTP request received: %s", reason)
            message = f"The request is not valid HTTP/1.1: {reason}."
            self._refuse(ErrorCode.BAD_MESSAGE, message, started=started)
        else:  # not the request's fault
            self.logger.error("HTTP parser callback failed", exc_info=cause)
            self._refuse(ErrorCode.SERVER_ERROR, "Internal server error.", started=started)

    def _content_length(self) -> int | None:
        for name, value in self.headers:
            if name == b"content-length":
                try:
                    return int(value)
                except ValueError:
                    return None  # httptools refuses it itself
        return None

    def _refuse(self, code: ErrorCode, message: str, *, started: bool = False) -> None:
        """Answer ``code`` (if no answer is under way) and close the connection. ``started``:
        this request's cycle (and its app task) exists already; it sees a disconnect."""
        self._refused = True
        self.logger.info("refusing a request (%s) and closing its connection", code)
        self._disarm()
        self._disarm_body()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if started and cycle is not None:
            answer = not cycle.response_started
            cycle.disconnected = True  # the app's answer, if any, is dropped
            cycle.keep_alive = False
            cycle.message_event.set()
        else:  # no cycle for this request; an earlier one may still be answering
            answer = cycle is None or cycle.response_complete
        if answer:
            self.transport.write(_raw_response(code, message))
        self.transport.close()


def _raw_response(code: ErrorCode, message: str) -> bytes:
    """A whole HTTP/1.1 response in the documented shape, written below the app."""
    status = http_status(code)
    body = json.dumps(http_body(code, message)).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n"
        + "".join(f"{name.decode()}: {value.decode()}\r\n" for name, value in SECURITY_HEADERS)
        + "\r\n"
    )
    return head.encode("ascii") + body


@dataclass(frozen=True, kw_only=True)
class TransportLimits:
    """What one connection may hold (documented in docs/operations.md and docs/protocol.md)."""

    header_timeout: float = 10.0
    """Seconds a request's headers may take to arrive."""
    body_timeout: float = 10.0
    """Seconds a request's body may take to arrive after its headers (else 408 ``too_slow``)."""
    max_body_bytes: int = 1 << 20
    """Bytes of one request's body (more: 413 ``too_large``, unread past the limit)."""
    max_header_bytes: int = 64 * 1024
    """Bytes of one request's line and headers, through the blank line that ends them (more:
    431 ``headers_too_large``, unread past the limit)."""
    max_headers: int = 100
    """Header lines of one request (more: 431 ``headers_too_large``)."""
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
            "HeaderDeadline",
            (HeaderDeadline,),
            {
                "header_timeout": self.header_timeout,
                "body_timeout": self.body_timeout,
                "max_body_bytes": self.max_body_bytes,
                "max_header_bytes": self.max_header_bytes,
                "max_headers": self.max_headers,
            },
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
