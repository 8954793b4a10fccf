"""Request heads are bounded (issue 19): a request line and headers over 64 KiB, or more than
100 header lines, are refused with 431 ``headers_too_large`` as soon as the limit is passed
(nothing more of them is read), in the documented shape with the security headers, and the
connection is closed while everyone else is served. A WebSocket upgrade is a request like
another here. A real server process with the default limits: it is uvicorn's connection
handling (``transport.HeaderDeadline``) that is under test."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from ._live import LiveServer, Peer, live_server
from .raw_http import Exchange, exchange, read_all, read_answer

LIMIT = 64 * 1024
"""The default bound on a request line and its headers, in bytes."""
MAX_HEADERS = 100
"""The default bound on a request's header lines."""
UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("big-headers")) as running:
        yield running
        assert running.traceback_free(), running.log()[-5000:]


def _head(size: int, *, path: str = "/api/info", fields: str = "Connection: close\r\n") -> bytes:
    """A GET whose request line and headers, through the blank line, are ``size`` bytes: padding
    in header lines of at most 7000 bytes (websockets reads lines of up to 8 KiB)."""
    start = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{fields}".encode()
    room = size - len(start) - 2
    lines = -(-room // 7000)
    pads = [room // lines + (1 if i < room % lines else 0) for i in range(lines)]
    head = start
    for i, pad in enumerate(pads):
        name = b"X-Pad-%d: " % i
        head += name + b"a" * (pad - len(name) - 2) + b"\r\n"
    head += b"\r\n"
    assert len(head) == size, (len(head), size)
    return head


def _many(count: int, fields: str = "Connection: close\r\n") -> bytes:
    """A GET with ``count`` header lines in all (``Host`` and ``fields`` among them)."""
    start = f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n{fields}"
    left = count - start.count("\r\n") + 1
    return (start + "".join(f"X-{i}: 1\r\n" for i in range(left)) + "\r\n").encode()


def _served(server: LiveServer) -> None:
    assert httpx.get(f"{server.url}/api/info", timeout=5, trust_env=False).status_code == 200


def test_an_endless_header_line_is_refused_at_the_limit(server: LiveServer) -> None:
    # The black-box test's bytes: one header line that never ends, 64 KiB at a time.
    total = 16 << 20

    def chunks() -> Iterator[bytes]:
        yield b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: "
        for _ in range(total >> 16):
            yield b"a" * 65536
        yield b"\r\n\r\n"

    started = time.monotonic()
    got = exchange(server.port, chunks())
    body = got.refusal(431, "headers_too_large")
    assert str(LIMIT) in body["message"], body
    # Cut off once past the limit (what the sockets' buffers took meanwhile aside), not read to
    # the end nor left to the 10 s deadline of the headers.
    assert got.sent < total, got.sent
    assert time.monotonic() - started < 5
    _served(server)


def test_a_request_line_past_the_limit_is_refused(server: LiveServer) -> None:
    target = "/api/tables/" + "a" * 100_000
    got = exchange(server.port, [f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()])
    got.refusal(431, "headers_too_large")
    _served(server)


def test_a_head_of_the_limit_is_served_and_one_byte_more_refused(server: LiveServer) -> None:
    got = exchange(server.port, [_head(LIMIT)])
    assert got.status == 200 and got.json()["protocol"] == 1, got.data[:300]
    exchange(server.port, [_head(LIMIT + 1)]).refusal(431, "headers_too_large")
    # Arriving in pieces changes nothing.
    head = _head(LIMIT)
    got = exchange(server.port, [head[i : i + 1000] for i in range(0, len(head), 1000)])
    assert got.status == 200, got.data[:300]
    head = _head(LIMIT + 1)
    pieces = [head[i : i + 1000] for i in range(0, len(head), 1000)]
    exchange(server.port, pieces).refusal(431, "headers_too_large")


def test_header_lines_past_the_count_are_refused(server: LiveServer) -> None:
    got = exchange(server.port, [_many(MAX_HEADERS)])
    assert got.status == 200, got.data[:300]
    body = exchange(server.port, [_many(MAX_HEADERS + 1)]).refusal(431, "headers_too_large")
    assert str(MAX_HEADERS) in body["message"], body
    # The black-box test's 5000 short lines (about 40 KB: under the limit in bytes).
    exchange(server.port, [_many(5000)]).refusal(431, "headers_too_large")
    _served(server)


def test_a_second_request_on_a_connection_has_its_own_limit(server: LiveServer) -> None:
    # Keep-alive: the first request's head does not count against the second's.
    first = _head(LIMIT - 1000, fields="")
    for second, status in ((_head(LIMIT), 200), (_head(LIMIT + 1), 431)):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(first)
            assert read_answer(sock).startswith(b"HTTP/1.1 200 OK")
            sock.sendall(second)
            data, closed = read_all(sock, 10)
        got = Exchange(data, closed, len(first) + len(second))
        if status == 200:
            assert got.status == 200 and closed, data[:300]
        else:
            got.refusal(431, "headers_too_large")


def test_a_websocket_upgrade_is_bounded_too(server: LiveServer) -> None:
    token, _user = server.guest()
    path = f"/ws?token={token}"
    got = exchange(server.port, [_head(LIMIT + 1, path=path, fields=UPGRADE)])
    got.refusal(431, "headers_too_large")
    got = exchange(server.port, [_many(MAX_HEADERS + 1, fields=UPGRADE)])
    got.refusal(431, "headers_too_large")
    # At the limit, the upgrade goes on as before.
    got = exchange(server.port, [_head(LIMIT, path=path, fields=UPGRADE)], within=1)
    assert got.data.startswith(b"HTTP/1.1 101 "), got.data[:300]
    _served(server)


def test_a_websocket_under_the_limit_plays_as_before(server: LiveServer) -> None:
    token, _user = server.guest()
    padding = {f"X-Pad-{i}": "a" * 7000 for i in range(8)}  # about 56 KB of headers
    with Peer(server.connect(headers={"Authorization": f"Bearer {token}", **padding})) as peer:
        assert peer.welcome["user"]["name"].startswith("Ospite-"), peer.welcome
        peer.ping()
