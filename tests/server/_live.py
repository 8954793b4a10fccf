"""A real server for tests: uvicorn in a child process on a loopback port, its own SQLite database.

``LiveServer`` binds a free port on 127.0.0.1 in the test process, hands the listening socket to
a child process that runs ``create_app`` under uvicorn (as ``burraco serve`` does), and waits
until it answers. The child's output (uvicorn's and the server's logs) goes to a file that tests
can read, e.g. to check that nothing logged a traceback. Run as a script, this file is the child.

This is the one harness of a real server process (for SIGKILL, uvicorn's own behaviour and
load); most tests use ``inprocess.AppServer`` instead, through the same ``harness.Server``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection as AsyncClientConnection
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

if __name__ == "__main__":  # run as the child: this folder is not a package then
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.server.harness import AsyncSocket, Closed, Frame, Peer, Server, Socket
from tests.server.spawn import Spawned
from tests.server.template import seed_database

__all__ = ["LiveServer", "Peer", "live_server"]

STARTUP_SECONDS = 30.0


class LiveConnections(Server):
    """A server listening on a loopback port (``port``): clients reach it over the network."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self.port = 0

    @property
    def url(self) -> str:  # type: ignore[override]
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http_transport(self) -> None:
        return None

    def async_http_transport(self) -> None:
        return None

    def connect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None, origin: str | None = None
    ) -> Socket:
        url = self.ws_url.removesuffix("/ws") + path
        opening = connect(
            url,
            additional_headers=headers,
            origin=Origin(origin) if origin else None,
            proxy=None,
            open_timeout=10,
        )
        return _LiveSocket(opening)

    async def aconnect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None
    ) -> AsyncSocket:
        url = self.ws_url.removesuffix("/ws") + path
        ws = await aconnect(url, additional_headers=headers, open_timeout=20, ping_interval=None)
        return _LiveAsyncSocket(ws)


class LiveServer(LiveConnections):
    """``create_app`` under uvicorn in a child process, on a listening socket it inherits."""

    def __init__(self, data_dir: Path, **config: Any) -> None:
        super().__init__(data_dir)
        self.config = config
        self.log_path = data_dir / "server.log"
        self._spawned = Spawned(self.log_path)

    @property
    def _process(self) -> subprocess.Popen[bytes] | None:
        """The child process (None before it starts)."""
        return self._spawned.process

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.config.get("database_url"):
            seed_database(self.data_dir)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(512)
        self.port = listener.getsockname()[1]
        options = json.dumps({"data_dir": str(self.data_dir), **self.config})
        self.log_path.write_bytes(b"")  # this process's log only (another may have run here)
        with listener:
            self._spawned.spawn(
                [sys.executable, __file__, str(listener.fileno()), options],
                pass_fds=[listener.fileno()],
            )
        try:
            self._spawned.ready(f"{self.url}/api/info", STARTUP_SECONDS)
        except RuntimeError:
            self.stop()
            raise

    def stop(self) -> None:
        self._spawned.stop(15)

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to save anything."""
        if self._spawned.alive():
            self._spawned.kill()

    @property
    def running(self) -> bool:
        return self.alive()

    def alive(self) -> bool:
        return self._spawned.alive()

    def log(self) -> str:
        return self._spawned.log()


class _LiveSocket:
    def __init__(self, opening: ClientConnection) -> None:
        self._stack = contextlib.ExitStack()  # websockets wants its connect() entered
        self.ws = self._stack.enter_context(opening)

    def send(self, frame: Frame) -> None:
        self.ws.send(frame)

    def recv(self, timeout: float) -> Frame:
        try:
            return self.ws.recv(timeout=timeout)
        except ConnectionClosed as closed:
            raise Closed(closed.rcvd.code if closed.rcvd else 1006) from None

    def close(self) -> None:
        self._stack.close()


class _LiveAsyncSocket:
    def __init__(self, ws: AsyncClientConnection) -> None:
        self.ws = ws

    async def send(self, frame: Frame) -> None:
        await self.ws.send(frame)

    async def recv(self, timeout: float) -> Frame:
        try:
            return await asyncio.wait_for(self.ws.recv(), timeout)
        except ConnectionClosed as closed:
            raise Closed(closed.rcvd.code if closed.rcvd else 1006) from None

    async def close(self) -> None:
        await self.ws.close()


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
    from burraco.server.transport import TransportLimits

    settings = json.loads(options)
    settings["data_dir"] = Path(settings["data_dir"])
    transport = {
        name: settings.pop(name)
        for name in (
            "header_timeout",
            "body_timeout",
            "max_body_bytes",
            "max_header_bytes",
            "max_headers",
        )
        if name in settings
    }
    app = create_app(ServerConfig(**settings))
    listener = socket.socket(fileno=fd)
    limits = TransportLimits(**transport)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="info",
            timeout_graceful_shutdown=3,
            **limits.uvicorn_options(),  # as `burraco serve`
        )
    )
    server.run(sockets=[listener])


if __name__ == "__main__":
    _child(int(sys.argv[1]), sys.argv[2])
