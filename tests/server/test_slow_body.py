"""Request bodies are bounded (issue 19): one longer than the limit is refused with 413
``too_large`` (before it is read when ``Content-Length`` says so, as soon as a chunked body grows
past it), one that trickles in slower than the deadline with 408 ``too_slow``, and the
connection is closed either way while everyone else is served. A real server process: it is
uvicorn's connection handling (``transport.HeaderDeadline``) that is under test."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from ._live import LiveServer, live_server
from .raw_http import read_all

BODY_TIMEOUT = 1.0
MAX_BODY = 1 << 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("slow-body")
    with live_server(data, body_timeout=BODY_TIMEOUT, max_body_bytes=MAX_BODY) as running:
        yield running


def _refusal(data: bytes) -> tuple[int, dict[str, str]]:
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"connection: close" in head.lower(), head
    return status, json.loads(body)


def _login_head(extra: str) -> bytes:
    return (
        "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{extra}\r\n"
    ).encode()


def test_a_slow_body_is_cut_off_while_others_are_served(server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as slow:
        slow.sendall(_login_head("Content-Length: 1000\r\n") + b"{")
        started = time.monotonic()
        for _ in range(3):  # a byte now and then, never the whole body
            time.sleep(BODY_TIMEOUT / 4)
            # A normal client is served meanwhile.
            info = httpx.get(f"{server.url}/api/info", timeout=5, trust_env=False)
            assert info.status_code == 200
            if time.monotonic() - started > BODY_TIMEOUT / 2:
                # On a busy machine the normal client's answer can take most of the deadline: a
                # byte sent now would race the cut-off (a broken pipe once the server closed).
                break
            slow.sendall(b" ")
        data, closed = read_all(slow, BODY_TIMEOUT + 5)
        waited = time.monotonic() - started
    assert closed, f"still open after {waited:.1f} s"
    assert waited < BODY_TIMEOUT + 3, waited
    status, body = _refusal(data)
    assert status == 408
    assert body["error"] == "too_slow" and body["message"], body
    assert httpx.get(f"{server.url}/api/info", timeout=5, trust_env=False).status_code == 200


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        # Only the headers: the refusal comes without waiting for the 2 MiB announced.
        sock.sendall(_login_head(f"Content-Length: {2 * MAX_BODY}\r\n"))
        data, closed = read_all(sock, 5)
    assert closed
    status, body = _refusal(data)
    assert status == 413
    assert body["error"] == "too_large" and str(MAX_BODY) in body["message"], body


def test_a_whole_oversize_body_gets_413(server: LiveServer) -> None:
    answer = httpx.post(
        f"{server.url}/api/login", content=b"x" * (2 * MAX_BODY), timeout=10, trust_env=False
    )
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_large" and answer.json()["message"]
    assert answer.headers["x-frame-options"] == "DENY"  # the app's headers, below the app too
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_chunked_body_that_grows_past_the_limit_is_refused(server: LiveServer) -> None:
    chunk = b"x" * 65536
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(_login_head("Transfer-Encoding: chunked\r\n"))
        sent = 0
        try:
            while sent <= 2 * MAX_BODY:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:  # closed by the server past the limit
            pass
        data, closed = read_all(sock, 5)
    assert closed
    status, body = _refusal(data)
    assert status == 413 and body["error"] == "too_large", body


def test_a_body_under_the_limit_is_served(server: LiveServer) -> None:
    # A readable login (a wrong one) and a body just under the limit reach the app.
    wrong = httpx.post(
        f"{server.url}/api/login",
        json={"name": "nobody", "password": "wrong-password"},
        timeout=5,
        trust_env=False,
    )
    assert wrong.status_code == 401 and wrong.json()["error"] == "bad_login"
    padded = b'{"name": "nobody", "password": "wrong-password"}' + b" " * (MAX_BODY - 100)
    answer = httpx.post(
        f"{server.url}/api/login",
        content=padded,
        headers={"Content-Type": "application/json"},
        timeout=10,
        trust_env=False,
    )
    assert answer.status_code == 401 and answer.json()["error"] == "bad_login"
    # A slow body that arrives within the deadline is served too.
    body = b'{"name": "nobody", "password": "wrong-password"}'
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(_login_head(f"Content-Length: {len(body)}\r\nConnection: close\r\n"))
        sock.sendall(body[:10])
        time.sleep(BODY_TIMEOUT / 3)
        sock.sendall(body[10:])
        data, closed = read_all(sock, 5)
    assert closed
    assert data.startswith(b"HTTP/1.1 401"), data[:200]
