"""The threaded server (threaded.py): a real socket in process. Two run at once, each on its own
port with its own database (a copy of the migrated template), log file and deal source; what a
server's threads log lands in its own ``server.log`` only; stopping it ends its thread and closes
its port."""

from __future__ import annotations

import asyncio
import logging
import random
import socket
from pathlib import Path

import httpx

from burraco.store.migrate import head_revision

from .threaded import ThreadedServer, threaded_server

SERVER_LOGGER = logging.getLogger("burraco.server")


async def _log_error(text: str) -> None:
    SERVER_LOGGER.error(text)


async def _log_from_its_executor(text: str) -> None:
    await asyncio.to_thread(SERVER_LOGGER.error, text)


async def _fail(text: str) -> None:
    try:
        raise RuntimeError(text)
    except RuntimeError:
        SERVER_LOGGER.exception("something broke")


def _draw(server: ThreadedServer) -> float:
    async def draw() -> float:
        assert server.hub.test_random is not None
        return server.hub.test_random.random()

    drawn: float = server.call(draw())
    return drawn


def test_two_servers_at_once_each_with_its_socket_database_log_and_deals(tmp_path: Path) -> None:
    with (
        threaded_server(tmp_path / "a", test_seed=3) as first,
        threaded_server(tmp_path / "b", test_seed=3) as second,
    ):
        assert first.port != second.port
        for server in (first, second):
            with httpx.Client(base_url=server.url, trust_env=False) as client:
                assert client.get("/api/info").status_code == 200
            token, user = server.guest()
            with server.peer(token) as peer:
                assert peer.welcome["user"]["name"] == user["name"]
            [(revision,)] = server.query("SELECT version_num FROM alembic_version")
            assert revision == head_revision()
        # Deals: each server's own source, whatever the other drew.
        expected = random.Random(3)
        assert _draw(first) == expected.random()
        assert _draw(first) == expected.random()
        assert _draw(second) == random.Random(3).random()
        first.reseed(3)
        assert _draw(first) == random.Random(3).random()
        # Logs: each server's threads (its loop, its executor) in its own file only.
        SERVER_LOGGER.error("the test's own thread")
        first.call(_log_error("from the first server's loop"))
        second.call(_log_from_its_executor("from the second server's executor"))
        first.call(_fail("a failure in the first server"))
        assert "from the first server's loop" in first.log()
        assert "Traceback" in first.log() and "a failure in the first server" in first.log()
        assert "from the second server's executor" in second.log()
        assert "the first" not in second.log() and "second" not in first.log()
        assert "the test's own thread" not in first.log() + second.log()
        assert second.traceback_free(), second.log()
    for server in (first, second):
        assert not server.alive()
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", server.port)) != 0, "the port is still open"
    assert (tmp_path / "a" / "server.log").read_text() == first.log()


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    (tmp_path / "burraco.db").write_text("not a database")
    server = ThreadedServer(tmp_path)
    try:
        server.start()
    except RuntimeError as failure:
        assert "did not start" in str(failure)
    else:
        server.stop()
        raise AssertionError("a server on a broken database started")
    assert not server.alive()
