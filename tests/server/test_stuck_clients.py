"""A WebSocket client that never reads is dropped, and its seat counts as away (issue 19, M7).

A real server process (the kernel's socket buffers are what fill up): the stuck client, seated
at a table, shrinks its receive buffer, asks for snapshot after snapshot and reads none. Once a
message has waited past the send deadline, the server drops the connection (the account's
socket slot is free again) and the seat is away, so the usual deadline and substitute apply.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ._live import LiveServer, live_server

DEADLINE = 1.0
JOINS = 900
"""Snapshots asked for: some 18 MB, more than the sockets' buffers hold, and fewer than the
connection's outbox (1000): the server's writer stalls while its reader waits for a frame."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(
        tmp_path,
        bot_delay=60.0,  # the bot never moves during the test: only the snapshots flow
        send_deadline_seconds=DEADLINE,
        messages_per_second=100_000.0,
        joins_per_minute=6_000_000.0,
        joins_per_minute_per_account=6_000_000.0,
        chats_per_minute_per_account=6_000_000.0,
        chats_per_minute_per_table=6_000_000.0,
        disconnect_grace=600.0,
    ) as running:
        yield running


class _RawSocket:
    """A WebSocket client that writes frames and never reads a byte (a library client reads
    in the background, answering pings: this one is the stuck client of the finding)."""

    def __init__(self, port: int, token: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:  # the handshake's answer is all it ever reads
            answer += self.sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 101"), answer

    def send(self, text: str) -> None:
        payload = text.encode()
        assert len(payload) < 1 << 16
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        if len(payload) < 126:
            length = bytes([0x80 | len(payload)])
        else:
            length = bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        self.sock.sendall(b"\x81" + length + mask + masked)

    def close(self) -> None:
        self.sock.close()


def _stats(server: LiveServer) -> dict[str, int]:
    answer = httpx.get(f"{server.url}/api/server/stats", timeout=10, trust_env=False)
    stats: dict[str, int] = answer.json()
    return stats


def test_a_client_that_never_reads_is_dropped_and_its_seat_is_away(server: LiveServer) -> None:
    token, _user = server.guest()
    with server.client(token) as client:
        created = client.post(
            "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0, "bots": {"1": "greedy"}}
        )
        assert created.status_code == 201, created.text
        table = created.json()["id"]

    raw = _RawSocket(server.port, token)
    try:
        join = json.dumps({"type": "join", "table": table})
        raw.send(join)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the first answers are read: the seat is connected
            with server.client(token) as client:
                seat = client.get(f"/api/tables/{table}").json()["seats"][0]
            if seat["connected"]:
                break
            time.sleep(0.05)
        assert seat["connected"] and not seat["away"], seat
        # Fifty long chat lines make every snapshot some 20 kB (the chat it carries).
        for n in range(50):
            raw.send(json.dumps({"type": "chat", "table": table, "text": f"{n:03d}" + "x" * 290}))
        # Now it asks once for many snapshots, then neither reads nor writes again: nothing it
        # sends will wake the server's reader up, only the stalled writer can end it.
        for _ in range(JOINS):  # fewer answers than the outbox holds: only the deadline can act
            raw.send(join)
        started = time.monotonic()
        while time.monotonic() - started < 60 and _stats(server)["connections"] > 0:
            time.sleep(0.2)
        waited = time.monotonic() - started
        assert _stats(server)["connections"] == 0, "the stuck client is still connected"
        assert waited < 30, waited
    finally:
        raw.close()
    with server.client(token) as client:
        seat = client.get(f"/api/tables/{table}").json()["seats"][0]
    assert not seat["connected"] and seat["away"], seat
    deadline = time.monotonic() + 10
    while "took no message" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "took no message" in server.log()
