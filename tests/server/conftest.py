"""Fixtures of the server's play tests.

``play_server`` is the real server: ``python -m burraco.cli.main serve`` under uvicorn on a free
loopback port with its own data folder (one per test process), bots without delay, a disconnect
grace of one second, and rate limits opened up for test clients that play at full speed. Each
test that uses it gets the part of the server's log written during the test attached to its
report when it fails, and fails if the server logged a traceback or died.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from .support import ServerProcess

SERVER_LOG = pytest.StashKey[tuple[ServerProcess, int]]()
LOG_SHOWN = 40_000
"""Characters of the server's log shown with a failure (the end of it)."""


@pytest.fixture(scope="session")
def _play_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("play-server"), disconnect_grace=1.0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def play_server(
    request: pytest.FixtureRequest, _play_server_process: ServerProcess
) -> Iterator[ServerProcess]:
    server = _play_server_process
    assert server.alive(), f"the server is not running:\n{server.log_text()[-LOG_SHOWN:]}"
    start = server.log_size()
    request.node.stash[SERVER_LOG] = (server, start)
    yield server
    text = server.log_text(start)
    assert server.alive(), f"the server died during the test:\n{text[-LOG_SHOWN:]}"
    assert "Traceback" not in text, f"the server logged an error:\n{text[-LOG_SHOWN:]}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and SERVER_LOG in item.stash:
        server, start = item.stash[SERVER_LOG]
        report.sections.append(("server log", server.log_text(start)[-LOG_SHOWN:]))
    return report
