"""HTTP/1.1 written byte for byte on a socket, for the tests of uvicorn's own connection
handling (``transport.HeaderDeadline``) in a real server process: what no well-behaved client
would send, and the answer exactly as the server wrote it."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "content-security-policy": "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}
"""The headers every answer carries (docs/protocol.md)."""


def read_all(sock: socket.socket, within: float) -> tuple[bytes, bool]:
    """Everything the server sends until it closes (``True``) or ``within`` seconds pass."""
    data = b""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except OSError:  # reset by the server
            return data, True
        if not chunk:
            return data, True
        data += chunk
    return data, False


def read_answer(sock: socket.socket, within: float = 10.0) -> bytes:
    """One whole answer (its head, and its body by ``Content-Length``) on a connection that
    stays open."""
    data = b""
    sock.settimeout(within)
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {data[:300]!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(Exchange(head, closed=False, sent=0).headers["content-length"])
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {data[:300]!r}"
        body += chunk
    return head + b"\r\n\r\n" + body


@dataclass(frozen=True)
class Exchange:
    """What one connection got: the answer's bytes, whether the server closed the connection,
    and how many bytes it took before it stopped taking them."""

    data: bytes
    closed: bool
    sent: int

    @property
    def status(self) -> int:
        return int(self.data.split(b" ", 2)[1])

    @property
    def headers(self) -> dict[str, str]:
        head = self.data.partition(b"\r\n\r\n")[0].decode("latin-1")
        fields = (line.partition(":") for line in head.split("\r\n")[1:])
        return {name.strip().lower(): value.strip() for name, _, value in fields}

    def json(self) -> Any:
        return json.loads(self.data.partition(b"\r\n\r\n")[2])

    def refusal(self, status: int, code: str) -> dict[str, Any]:
        """Check that this is the documented refusal (``{error, message}``, the security
        headers, the connection closed) and return its body."""
        assert self.data, "no answer"
        assert self.status == status, self.data[:300]
        headers = self.headers
        assert headers["content-type"] == "application/json", headers
        assert headers["connection"] == "close", headers
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name) == value, (name, headers)
        body = self.json()
        assert body["error"] == code and isinstance(body["message"], str), body
        assert body["message"], body
        assert self.closed, "the connection stayed open"
        return dict(body)


def exchange(port: int, chunks: Iterable[bytes], within: float = 10.0) -> Exchange:
    """Send ``chunks`` in order on a new connection until the server stops taking them (it
    closed the connection), then read what it answers until it closes or ``within`` seconds
    pass."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=within) as sock:
        try:
            for chunk in chunks:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:  # closed (or reset) by the server
            pass
        data, closed = read_all(sock, within)
    return Exchange(data, closed, sent)
