"""A request that is not valid HTTP/1.1 is refused with 400 ``bad_message`` in the documented
``{error, message}`` shape with the security headers, not uvicorn's plain-text ``Invalid HTTP
request received.``, and its connection is closed as uvicorn does (issue 19, by the black-box
test). A real server process: it is uvicorn's connection handling (``transport.HeaderDeadline``)
that is under test. Its heads may be 1 MiB here, so that a request target over 64 KB reaches the
parser (under the default 64 KiB limit it is a 431: test_big_headers.py)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from ._live import LiveServer, live_server
from .raw_http import Exchange, exchange, read_all, read_answer

LOGIN = "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
MALFORMED = {
    "garbage instead of a request line": b"GARBAGE\r\n\r\n",
    "a request target over 64 KB": (
        b"GET /api/tables/" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    ),
    "non-UTF-8 bytes in the path": b"GET /api/players/\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "a negative Content-Length": f"{LOGIN}Content-Length: -5\r\n\r\n".encode(),
    "two different Content-Lengths": (
        f"{LOGIN}Content-Length: 2\r\nContent-Length: 5\r\n\r\n{{}}".encode()
    ),
    # Refused in the body, once the app has the request: it sees a disconnect.
    "a chunk size that is not hexadecimal": (
        f"{LOGIN}Transfer-Encoding: chunked\r\n\r\nzz\r\n".encode()
    ),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("bad-requests")
    with live_server(data, max_header_bytes=1 << 20) as running:
        yield running
        assert running.traceback_free(), running.log()[-5000:]


@pytest.mark.parametrize("request_bytes", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_request_gets_400_in_the_documented_shape(
    server: LiveServer, request_bytes: bytes
) -> None:
    got = exchange(server.port, [request_bytes])
    body = got.refusal(400, "bad_message")
    assert "HTTP" in body["message"], body
    assert httpx.get(f"{server.url}/api/info", timeout=5, trust_env=False).status_code == 200


def test_a_malformed_request_after_a_good_one_on_the_connection(server: LiveServer) -> None:
    # The first request is answered as usual, the second one is refused.
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_answer(sock).startswith(b"HTTP/1.1 200 OK")
        sock.sendall(MALFORMED["two different Content-Lengths"])
        data, closed = read_all(sock, 10)
    Exchange(data, closed, 0).refusal(400, "bad_message")
