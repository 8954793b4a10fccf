"""A real server in a thread of the test process: uvicorn on a loopback port, no new interpreter.

``ThreadedServer`` builds the app as ``burraco serve`` does (``create_app(ServerConfig(...))``,
uvicorn with the same ``TransportLimits.uvicorn_options()``) and runs ``uvicorn.Server`` in a
daemon thread with an event loop of its own, on a listening socket bound before it starts, so
its URL is known at once and a browser (Chromium) can reach it. Its data folder starts with a
copy of the migrated template database (template.py). Starting one costs a few tenths of a
second, against seconds for a child process that imports the app and migrates its database.

Its log goes to ``data_dir/server.log``, as a child's output would: the records of WARNING and
up (``log_level``) logged by its own threads (the loop's, its default executor's) and by the
worker threads of its app's pools; a record of another server of the same process never lands
there (see ``_Owned``).

The three kinds of ``harness.Server``: ``inprocess.AppServer`` (no socket: most server tests),
this one (a socket, in process: the browser tests), ``_live.LiveServer`` (a child process:
SIGKILL, uvicorn's own process, the cluster).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from burraco.server.app import create_app
from burraco.server.clock import Clock
from burraco.server.config import ServerConfig
from burraco.server.hub import Hub
from burraco.server.transport import TransportLimits

from ._live import LiveConnections
from .template import seed_database

__all__ = ["ThreadedServer", "threaded_server"]

STARTUP_SECONDS = 60.0
STOP_SECONDS = 30.0
TRANSPORT = frozenset(TransportLimits.__dataclass_fields__)
"""The settings that are uvicorn's (``TransportLimits``), not the app's (``ServerConfig``)."""
POOL_PREFIXES = ("bot", "burraco-actions", "review")
"""The thread name prefixes of the app's own pools (botrunner, action_writer, reviews)."""
_numbers = itertools.count(1)
_running: list[ThreadedServer] = []
"""The threaded servers of this process now running (those a pool's record may belong to)."""


class _Started(uvicorn.Server):
    """uvicorn's server, telling a waiting thread when its startup is over (with or without
    success: ``started`` says which)."""

    def __init__(self, config: uvicorn.Config, done: threading.Event) -> None:
        super().__init__(config)
        self.done = done

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().startup(sockets)
        finally:
            self.done.set()


class ThreadedServer(LiveConnections):
    """``create_app`` under uvicorn in a thread of this process, on a loopback port.

    Its settings: ``config`` and ``limits`` as given (``burraco serve``'s, from its options),
    or ``settings``: ``ServerConfig`` fields, and ``TransportLimits`` fields (header_timeout,
    max_body_bytes, ...) for uvicorn. ``log_level``: of ``server.log`` (as ``--log-level``).
    ``clock``: the app's (``create_app``), the system's by default."""

    def __init__(
        self,
        data_dir: Path,
        *,
        config: ServerConfig | None = None,
        limits: TransportLimits | None = None,
        log_level: str = "warning",
        clock: Clock | None = None,
        **settings: Any,
    ) -> None:
        super().__init__(data_dir)
        self.log_path = data_dir / "server.log"
        self.name = f"threaded-server-{next(_numbers)}"
        self.level: int = logging.getLevelNamesMapping()[log_level.upper()]
        transport = {name: settings.pop(name) for name in list(settings) if name in TRANSPORT}
        self.limits = limits or TransportLimits(**transport)
        self.config = config or ServerConfig(data_dir=data_dir, **settings)
        self.clock = clock
        """The app's clock (None: the system's); a test fast-forwards a ``FastForwardClock``."""
        self.app: FastAPI | None = None
        self._uvicorn: _Started | None = None
        self._thread: threading.Thread | None = None
        self._listener: socket.socket | None = None
        self._handler: logging.FileHandler | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._failure: BaseException | None = None

    @property
    def hub(self) -> Hub:
        assert self.app is not None, "not started"
        hub: Hub = self.app.state.hub
        return hub

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.config.database_url:
            seed_database(self.data_dir)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(512)
        self._listener = listener
        self.port = listener.getsockname()[1]
        handler = logging.FileHandler(self.log_path, encoding="utf-8")
        handler.setLevel(self.level)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        handler.addFilter(_Owned(self))
        self._handler = handler
        logging.getLogger().addHandler(handler)
        _running.append(self)
        self.app = create_app(self.config, clock=self.clock)
        done = threading.Event()
        self._uvicorn = _Started(
            uvicorn.Config(
                self.app,
                log_config=None,  # the process's logging stays as it is: records reach the file
                log_level=self.level,
                timeout_graceful_shutdown=3,
                **self.limits.uvicorn_options(),  # as `burraco serve`
            ),
            done,
        )
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        if not done.wait(STARTUP_SECONDS) or not self._uvicorn.started:
            failure = self._failure
            with contextlib.suppress(RuntimeError):  # the failure is told here
                self.stop()
            raise RuntimeError(f"the server did not start: {failure!r}\n{self.log()}") from failure

    def _run(self) -> None:
        assert self._uvicorn is not None and self._listener is not None
        try:
            asyncio.run(self._serve(self._uvicorn, self._listener))
        except BaseException as failure:  # reported by start/stop in the test's thread
            self._failure = failure
            logging.getLogger("tests.server.threaded").exception("the server's thread failed")
        finally:
            self._uvicorn.done.set()

    async def _serve(self, server: uvicorn.Server, listener: socket.socket) -> None:
        self._loop = asyncio.get_running_loop()
        # Its threads' names say whose they are (the log's filter).
        self._loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix=f"{self.name}-"))
        await server.serve(sockets=[listener])

    def stop(self) -> None:
        """Stop as uvicorn does on SIGTERM (the app's shutdown runs); fail if it does not."""
        thread, self._thread = self._thread, None
        try:
            if thread is not None:
                assert self._uvicorn is not None
                self._uvicorn.should_exit = True
                thread.join(STOP_SECONDS)
                if thread.is_alive():
                    raise RuntimeError(f"the server did not stop in {STOP_SECONDS} s")
        finally:
            if self in _running:
                _running.remove(self)
            if self._listener is not None:
                self._listener.close()
                self._listener = None
            if self._handler is not None:
                logging.getLogger().removeHandler(self._handler)
                self._handler.close()
                self._handler = None
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise RuntimeError(f"the server failed:\n{self.log()}") from failure

    def call(self, work: Any) -> Any:
        """Run a coroutine in the server's loop and wait for its result."""
        assert self._loop is not None, "not started"
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(30)

    def reseed(self, seed: int) -> None:
        """Deal from ``seed`` again, as a server just started with ``--test-seed seed``."""

        async def reseed() -> None:
            assert self.hub.test_random is not None, "not a test server (test_seed)"
            self.hub.test_random.seed(seed)

        self.call(reseed())

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._failure is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def pool_threads(self) -> set[threading.Thread]:
        """The worker threads of this server's app's pools (bots, action writer, reviews)."""
        hub = None if self.app is None else getattr(self.app.state, "hub", None)
        if hub is None:
            return set()
        found: set[threading.Thread] = set()
        executors = [
            getattr(hub.bots, "_threads", None),
            getattr(getattr(hub.store, "_action_writer", None), "_executor", None),
            getattr(hub.reviews, "_pool", None),
        ]
        for executor in executors:
            found.update(getattr(executor, "_threads", ()))
        reader = getattr(hub.reviews, "_reader", None)
        if isinstance(reader, threading.Thread):
            found.add(reader)
        return found


class _Owned(logging.Filter):
    """Lets through the records of ``server``'s threads: its loop's and executor's (by name),
    and its app's pool workers (by the pools' threads). A pool record whose owner cannot be
    told goes to every running server's log (stricter, never laxer)."""

    def __init__(self, server: ThreadedServer) -> None:
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        name = record.threadName or ""
        if name == self.server.name or name.startswith(f"{self.server.name}-"):
            return True
        if not name.startswith(POOL_PREFIXES):
            return False
        current = threading.current_thread()
        owners = [s for s in list(_running) if current in s.pool_threads()]
        return self.server in owners if owners else True


@contextlib.contextmanager
def threaded_server(data_dir: Path, **settings: Any) -> Iterator[ThreadedServer]:
    server = ThreadedServer(data_dir, **settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()
