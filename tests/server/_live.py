"""A real server for tests: uvicorn in a child process on a loopback port, its own SQLite database.

``LiveServer`` binds a free port on 127.0.0.1 in the test process, hands the listening socket to
a child process that runs ``create_app`` under uvicorn (as ``burraco serve`` does), and waits
until it answers. The child's output (uvicorn's and the server's logs) goes to a file that tests
can read, e.g. to check that nothing logged a traceback. Run as a script, this file is the child.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

STARTUP_SECONDS = 30.0


class LiveServer:
    def __init__(self, data_dir: Path, **config: Any) -> None:
        self.data_dir = data_dir
        self.config = config
        self.log_path = data_dir / "server.log"
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "burraco.db"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(512)
        self.port = listener.getsockname()[1]
        options = json.dumps({"data_dir": str(self.data_dir), **self.config})
        with listener, self.log_path.open("wb") as log:
            self._process = subprocess.Popen(
                [sys.executable, __file__, str(listener.fileno()), options],
                pass_fds=[listener.fileno()],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"the server exited at startup:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                info = httpx.get(f"{self.url}/api/info", timeout=2, trust_env=False)
                if info.status_code == 200:
                    return
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start:\n{self.log()}")
            time.sleep(0.05)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the server's database directly (SQLite in WAL mode allows a second reader)."""
        with contextlib.closing(sqlite3.connect(self.db_path, timeout=10)) as db:
            return db.execute(sql, params).fetchall()

    # -- accounts, for tests --

    def guest(self) -> tuple[str, dict[str, Any]]:
        """A new guest: its bearer token and user."""
        answer = httpx.post(f"{self.url}/api/guest", timeout=10, trust_env=False)
        answer.raise_for_status()
        body = answer.json()
        return body["token"], body["user"]

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10, trust_env=False)

    def peer(self, token: str | None, **options: Any) -> Peer:
        """A WebSocket client authenticated by ``token`` (sent as a bearer header)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return Peer(self.ws_url, headers, **options)

    def traceback_free(self) -> bool:
        """Nothing in the server's log so far is a traceback or an error."""
        text = self.log()
        return "Traceback" not in text and not any(
            line.startswith(("ERROR", "CRITICAL")) for line in text.splitlines()
        )


class Peer:
    """A real WebSocket client (the ``websockets`` library, synchronous API) speaking JSON."""

    def __init__(self, url: str, headers: dict[str, str], **options: Any) -> None:
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            connect(url, additional_headers=headers, proxy=None, open_timeout=10, **options)
        )
        self.skipped: list[dict[str, Any]] = []
        """What arrived before the snapshot of the last ``join``."""
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome", self.welcome

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stack.close()

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv_raw(self, timeout: float = 10.0) -> str:
        frame = self.ws.recv(timeout=timeout)
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

    def ping(self) -> None:
        """A round trip: the connection is usable."""
        mark = time.time()
        self.send({"type": "ping", "t": mark})
        self.until(lambda m: m["type"] == "pong" and m["t"] == mark)


@contextlib.contextmanager
def live_server(data_dir: Path, **config: Any) -> Iterator[LiveServer]:
    server = LiveServer(data_dir, **config)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _child(fd: int, options: str) -> None:
    import logging

    import uvicorn

    from burraco.server.app import create_app
    from burraco.server.config import ServerConfig

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = json.loads(options)
    settings["data_dir"] = Path(settings["data_dir"])
    app = create_app(ServerConfig(**settings))
    listener = socket.socket(fileno=fd)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="info",
            ws_max_size=1 << 20,  # as `burraco serve`
            timeout_graceful_shutdown=3,
        )
    )
    server.run(sockets=[listener])


if __name__ == "__main__":
    _child(int(sys.argv[1]), sys.argv[2])
