"""What every server test talks to, in process or in a real process alike.

A ``Server`` is ``inprocess.AppServer`` (the ASGI app in a thread of the test process, no port:
the default), ``threaded.ThreadedServer`` (uvicorn in a thread of the test process on a loopback
port: the browser tests) or ``_live.LiveServer`` (uvicorn in a child process on a loopback port:
for SIGKILL, uvicorn's own process and load). All give HTTP clients (httpx, sync and async),
WebSocket connections (``Socket`` / ``AsyncSocket``: text or bytes frames, a receive timeout, the
close code as ``Closed``), the server's log, and its SQLite database; so the same test code runs
against either.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import httpx

Frame = str | bytes


class Closed(Exception):
    """The server closed the WebSocket (``code`` is its close code)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed with {code} {reason}".strip())
        self.code = code
        self.reason = reason


class Socket(Protocol):
    """A synchronous WebSocket connection."""

    def send(self, frame: Frame) -> None: ...

    def recv(self, timeout: float) -> Frame:
        """The next frame; ``TimeoutError`` if none in time, ``Closed`` if the server closed."""
        ...

    def close(self) -> None: ...


class AsyncSocket(Protocol):
    """An asyncio WebSocket connection (the same as ``Socket``, awaited)."""

    async def send(self, frame: Frame) -> None: ...

    async def recv(self, timeout: float) -> Frame: ...

    async def close(self) -> None: ...


class Server(ABC):
    """A running server with its own data folder (``data_dir``, SQLite ``burraco.db``)."""

    url: str
    """The base URL of HTTP requests (and the ``Origin`` of the server's own pages)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    @property
    def db_path(self) -> Path:
        return self.data_dir / "burraco.db"

    # -- what each kind provides --

    @abstractmethod
    def http_transport(self) -> httpx.BaseTransport | None:
        """The transport of sync clients (None: the network)."""

    @abstractmethod
    def async_http_transport(self) -> httpx.AsyncBaseTransport | None:
        """The transport of async clients (None: the network)."""

    @abstractmethod
    def connect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None, origin: str | None = None
    ) -> Socket:
        """Open a WebSocket at ``path`` (with its query) and wait until it is accepted."""

    @abstractmethod
    async def aconnect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None
    ) -> AsyncSocket:
        """``connect`` from a coroutine."""

    @abstractmethod
    def log(self) -> str:
        """Everything the server logged so far (records of WARNING and up in process)."""

    @abstractmethod
    def alive(self) -> bool: ...

    # -- shared --

    def client(self, token: str | None = None, **options: Any) -> httpx.Client:
        """A sync HTTP client (a bearer header with ``token``)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        settings: dict[str, Any] = {"headers": headers, "timeout": 20} | options
        return httpx.Client(
            base_url=self.url, transport=self.http_transport(), trust_env=False, **settings
        )

    def async_client(self, **options: Any) -> httpx.AsyncClient:
        settings: dict[str, Any] = {"timeout": 30} | options
        return httpx.AsyncClient(
            base_url=self.url, transport=self.async_http_transport(), trust_env=False, **settings
        )

    def guest(self) -> tuple[str, dict[str, Any]]:
        """A new guest: its bearer token and user."""
        with self.client() as client:
            answer = client.post("/api/guest")
        answer.raise_for_status()
        body = answer.json()
        return body["token"], body["user"]

    def peer(self, token: str | None) -> Peer:
        """A WebSocket client authenticated by ``token`` (sent as a bearer header)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return Peer(self.connect(headers=headers))

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the server's database directly (SQLite in WAL mode allows a second reader)."""
        with contextlib.closing(sqlite3.connect(self.db_path, timeout=10)) as db:
            return db.execute(sql, params).fetchall()

    def log_size(self) -> int:
        return len(self.log())

    def log_text(self, since: int = 0) -> str:
        return self.log()[since:]

    def traceback_free(self) -> bool:
        """Nothing in the server's log so far is a traceback or an error."""
        text = self.log()
        return "Traceback" not in text and not any(
            line.startswith(("ERROR", "CRITICAL")) for line in text.splitlines()
        )


class Peer:
    """A synchronous WebSocket client speaking JSON (in process or to a real server)."""

    def __init__(self, socket: Socket) -> None:
        self.ws = socket
        self.skipped: list[dict[str, Any]] = []
        """What arrived before the snapshot of the last ``join``."""
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome", self.welcome

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.ws.close()

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv_raw(self, timeout: float = 10.0) -> str:
        frame = self.ws.recv(timeout)
        assert isinstance(frame, str), "the server sends text frames"
        return frame

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(self.recv_raw(timeout))
        assert isinstance(message, dict) and isinstance(message.get("type"), str), message
        return message

    def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Read until a message matches: it, and the messages read before it."""
        deadline = time.monotonic() + timeout
        before: list[dict[str, Any]] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; got {before!r}")
            message = self.recv(left)
            if predicate(message):
                return message, before
            before.append(message)

    def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Everything that arrives within ``seconds``."""
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                got.append(self.recv(left))
            except TimeoutError:
                break
        return got

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next ``error`` (events that happen to arrive first are skipped)."""
        message, _ = self.until(lambda m: m["type"] == "error", timeout)
        return message

    def join(self, table: str, last_seq: int | None = None) -> dict[str, Any]:
        """Join (or re-join) a table; its snapshot."""
        message: dict[str, Any] = {"type": "join", "table": table}
        if last_seq is not None:
            message["last_seq"] = last_seq
        self.send(message)
        snapshot, self.skipped = self.until(
            lambda m: m["type"] == "snapshot" and m["table"] == table
        )
        return snapshot

    def play(self, table: str, *, seed: int = 0, timeout: float = 90.0) -> dict[str, Any]:
        """Join ``table`` as its seated player and play every turn with a legal action drawn
        at random (seeded) until the match ends: its ``match_end`` event. (No bot plays for a
        player who leaves a casual table nobody else sits at: a test plays his turns.)"""
        choose = random.Random(seed).choice
        deadline = time.monotonic() + timeout
        message = self.join(table)
        refs = 0
        while True:
            legal = message.get("legal")
            if message.get("table", table) == table and legal:
                refs += 1
                time.sleep(0.06)  # within the connection's 20 messages a second
                self.send(
                    {"type": "act", "table": table, "action": choose(legal), "ref": f"p{refs}"}
                )
            if message.get("type") == "event" and message.get("kind") == "match_end":
                return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the match at {table} did not end in {timeout} s")
            message = self.recv(left)

    def ping(self) -> None:
        """A round trip: the connection is usable."""
        mark = time.time()
        self.send({"type": "ping", "t": mark})
        self.until(lambda m: m["type"] == "pong" and m["t"] == mark)


def closed_code(server: Server, path: str = "/ws", **options: Any) -> int:
    """Open a socket and return the code it is closed with (0: not closed, got a message)."""
    socket = server.connect(path, **options)
    try:
        socket.recv(10)
    except Closed as closed:
        return closed.code
    finally:
        socket.close()
    return 0
