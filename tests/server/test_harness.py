"""The in-process server's log is as watchful as a real server's: what its threads log at
WARNING and up (and any exception that escapes the app, as uvicorn logs it) is in its log, so
the tests' "the server logged no traceback" checks hold in process too; the test's own thread
is not the server."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from .inprocess import LOG, _LogErrors, app_server

SERVER_LOGGER = logging.getLogger("burraco.server")


async def _log_a_failure() -> None:
    try:
        raise RuntimeError("a failure in the server")
    except RuntimeError:
        SERVER_LOGGER.exception("something broke")


async def _log_from_its_executor() -> None:
    await asyncio.to_thread(SERVER_LOGGER.error, "a worker thread failed")


def test_the_server_log_has_what_its_threads_log_and_nothing_else(tmp_path: Path) -> None:
    with app_server(tmp_path) as server:
        assert server.traceback_free(), server.log()
        SERVER_LOGGER.error("the test's own thread")  # not the server's
        assert server.traceback_free(), server.log()
        server.call(_log_a_failure())
        assert not server.traceback_free()
        assert "Traceback" in server.log() and "a failure in the server" in server.log()
        start = server.log_size()
        server.call(_log_from_its_executor())
        assert server.log_text(start).startswith("ERROR burraco.server: a worker thread failed")


def test_an_exception_escaping_the_app_is_logged_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise ValueError("no handler")

    with pytest.raises(ValueError, match="no handler"):
        asyncio.run(_LogErrors(failing)({}, None, None))
    [record] = [r for r in caplog.records if r.name == LOG.name]
    assert record.levelno == logging.ERROR and record.exc_info is not None
