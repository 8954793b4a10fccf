"""``burraco bot-connect`` started before (or while) its server can answer: it asks again with
the socket's backoff instead of dying on its first request (a connector started with its server,
or under load, exited with a traceback and never came online). A refused token still stops it
at once. The server here is a stub on 127.0.0.1 whose answers the test chooses."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from burraco.server.botclient import BotClient, Settings


class Stub(BaseHTTPRequestHandler):
    answers: ClassVar[list[tuple[int, dict[str, object]]]] = []

    def do_GET(self) -> None:
        status, body = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture
def port() -> Iterator[int]:
    yield free_port()


def serve_later(
    port: int, delay: float, answers: list[tuple[int, dict[str, object]]]
) -> list[ThreadingHTTPServer]:
    """Start the stub on ``port`` after ``delay`` seconds (nothing listens before)."""
    started: list[ThreadingHTTPServer] = []

    def run() -> None:
        handler = type("Answers", (Stub,), {"answers": list(answers)})
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        started.append(server)
        server.serve_forever(poll_interval=0.05)

    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()
    return started


def client(port: int, said: list[str]) -> BotClient:
    settings = Settings(server=f"http://127.0.0.1:{port}", token="t", command="true")
    return BotClient(settings, say=said.append)


def test_the_connector_waits_for_a_server_that_is_not_up_or_overloaded(port: int) -> None:
    said: list[str] = []
    me = {"name": "PaolaBot", "bot": True}
    servers = serve_later(
        port, 0.8, [(503, {"error": "unavailable"}), (429, {"error": "rate_limited"}), (200, me)]
    )
    try:
        found = asyncio.run(asyncio.wait_for(client(port, said)._whoami(), 30))
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    assert found == me
    retries = [line for line in said if "does not answer yet" in line]
    assert len(retries) >= 3, said  # refused connection(s), then 503, then 429
    assert "ConnectionRefusedError" in retries[0] or "URLError" in retries[0], retries[0]
    assert "503" in retries[-2] and "429" in retries[-1], retries


def test_a_refused_token_stops_the_connector_at_once(port: int) -> None:
    said: list[str] = []
    servers = serve_later(port, 0.0, [(401, {"error": "unauthorized", "message": "bad token"})])
    try:
        asyncio.run(asyncio.sleep(0.3))
        found = asyncio.run(asyncio.wait_for(client(port, said)._whoami(), 30))
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    assert found is None
    assert said == ["the server refused the token: 401 unauthorized: bad token"], said
