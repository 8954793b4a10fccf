"""Slow-header clients (slowloris) are closed once their headers take too long, and the server
goes on answering everyone else (issue 19, M6). A real server process: it is uvicorn's
connection handling that is under test."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ._live import LiveServer, live_server

HEADER_TIMEOUT = 1.0
CLIENTS = 30


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(tmp_path, header_timeout=HEADER_TIMEOUT) as running:
        yield running


def test_slow_headers_are_cut_off(server: LiveServer) -> None:
    slow = []
    for _ in range(CLIENTS):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.append(sock)
    started = time.monotonic()
    closed = [False] * CLIENTS
    try:
        while not all(closed) and time.monotonic() - started < 15:
            for i, sock in enumerate(slow):
                if closed[i]:
                    continue
                try:
                    sock.sendall(b"X-Slow: 1\r\n")  # one more header line, never the end
                    sock.settimeout(0.01)
                    closed[i] = sock.recv(1) == b""
                except TimeoutError:
                    pass
                except OSError:  # reset by the server
                    closed[i] = True
            time.sleep(0.25)
        waited = time.monotonic() - started
        assert all(closed), f"{closed.count(False)} of {CLIENTS} still open after {waited:.1f} s"
        assert waited < HEADER_TIMEOUT + 5, waited
        # Everyone else is answered as usual, during and after.
        answer = httpx.get(f"{server.url}/api/info", timeout=5, trust_env=False)
        assert answer.status_code == 200
    finally:
        for sock in slow:
            sock.close()


def test_headers_that_arrive_in_time_are_served(server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"GET /api/info HTTP/1.1\r\n")
        time.sleep(HEADER_TIMEOUT / 3)
        sock.sendall(b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        sock.settimeout(5)
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
    assert data.startswith(b"HTTP/1.1 200")
