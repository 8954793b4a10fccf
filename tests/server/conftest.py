"""Fixtures of the server's play tests.

``play_server`` is the server's app in process (``inprocess.AppServer``: its own data folder,
one per test process, bots without delay, a disconnect grace of one second, and rate limits
opened up for test clients that play at full speed). With ``BURRACO_TEST_SERVER=live`` it is a
real server instead (``_live.LiveServer``: uvicorn in a child process on a loopback port, the
same settings): the same tests, over real sockets. ``live_play_server`` is always the real one.
``timed_server`` is an ``AppServer`` with the same settings on a fake clock (server/clock.py),
one per test module: its tests move the clock through the server's timers instead of waiting.

Each test that uses them gets the part of the server's log written during the test attached to
its report when it fails, and fails if the server logged a traceback or died.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from typing import Any

import pytest

from burraco.server.clock import FakeClock

from ._live import LiveServer
from .harness import Server
from .inprocess import AppServer

SERVER_LOG = pytest.StashKey[tuple[Server, int]]()
LOG_SHOWN = 40_000
"""Characters of the server's log shown with a failure (the end of it)."""

PLAY_SETTINGS: dict[str, Any] = {
    "bot_delay": 0.0,
    "disconnect_grace": 1.0,
    # A departure is news after 0.2 s here, not the 2 s of a real server (the quiet time has a
    # test of its own: test_presence.py), so the scenarios see their away notices quickly.
    "presence_quiet_seconds": 0.2,
    "messages_per_second": 1000.0,
    "login_attempts_per_minute": 100_000.0,
    # Test clients chat and rejoin at full speed (the limits have tests of their own).
    "chats_per_minute_per_account": 100_000.0,
    "chats_per_minute_per_table": 100_000.0,
    "joins_per_minute": 100_000.0,
    "joins_per_minute_per_account": 100_000.0,
}


def _serve(server: AppServer | LiveServer) -> Iterator[Server]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def _play_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("play-server")
    if os.environ.get("BURRACO_TEST_SERVER", "app") == "live":
        yield from _serve(LiveServer(folder, **PLAY_SETTINGS))
    else:
        yield from _serve(AppServer(folder, bot_workers=0, **PLAY_SETTINGS))


@pytest.fixture(scope="session")
def _live_play_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _serve(LiveServer(tmp_path_factory.mktemp("live-play-server"), **PLAY_SETTINGS))


def _watched(request: pytest.FixtureRequest, server: Server) -> Iterator[Server]:
    assert server.alive(), f"the server is not running:\n{server.log_text()[-LOG_SHOWN:]}"
    start = server.log_size()
    request.node.stash[SERVER_LOG] = (server, start)
    yield server
    text = server.log_text(start)
    assert server.alive(), f"the server died during the test:\n{text[-LOG_SHOWN:]}"
    assert "Traceback" not in text, f"the server logged an error:\n{text[-LOG_SHOWN:]}"


@pytest.fixture
def play_server(request: pytest.FixtureRequest, _play_server_process: Server) -> Iterator[Server]:
    yield from _watched(request, _play_server_process)


@pytest.fixture
def live_play_server(
    request: pytest.FixtureRequest, _live_play_server_process: Server
) -> Iterator[Server]:
    yield from _watched(request, _live_play_server_process)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and SERVER_LOG in item.stash:
        server, start = item.stash[SERVER_LOG]
        report.sections.append(("server log", server.log_text(start)[-LOG_SHOWN:]))
    return report


@pytest.fixture(scope="module")
def _timed_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("timed-server"), clock=FakeClock(), **PLAY_SETTINGS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def timed_server(
    request: pytest.FixtureRequest, _timed_server_process: AppServer
) -> Iterator[AppServer]:
    for server in _watched(request, _timed_server_process):
        assert server is _timed_server_process
        yield _timed_server_process
