"""The server's ASGI app driven in process: no uvicorn, no port, no subprocess.

``running_app`` runs the app's lifespan (store, hub, tournaments) inside the test's event loop
and gives an ``httpx.AsyncClient`` over ``httpx.ASGITransport``; bots play without delay and
search bots decide in threads. Use it when a test needs the app's objects in its own loop.

``AppServer`` runs the same app in a thread of its own and is a ``harness.Server``: the tests
written for a real server (sync or async, HTTP or WebSocket) run against it unchanged. A real
process (``_live.LiveServer``) is for SIGKILL, uvicorn's own behaviour and load.

Both take a ``clock`` (server/clock.py): a test of a server timer gives a ``FakeClock``,
``advance``s it past the deadline and waits until the app has done what the timer posted
(``settle`` or ``wait_until``: polling for a condition, never a fixed sleep). The rate limits
of play (messages, joins, chat) refill only as that clock moves: such an app wants the tests'
generous limits (conftest.PLAY_SETTINGS).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import wsproto
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, WebSocketDisconnect, WebSocketNetworkError, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from burraco.server.app import create_app
from burraco.server.clock import Clock
from burraco.server.config import ServerConfig
from burraco.server.connection import Connection
from burraco.server.hub import Hub
from burraco.server.table import TableActor, TableStatus, commands
from burraco.store import UserInfo

from .harness import AsyncSocket, Closed, Frame, Server, Socket
from .template import seed_database

T = TypeVar("T")
LOG = logging.getLogger("tests.server.app")
STARTUP_SECONDS = 60.0
SETTLE_SECONDS = 30.0
"""How long ``settle`` and ``wait_until`` wait for the app to do what a fake clock's timers
posted (generous: a busy machine is slow, never wrong)."""
_numbers = itertools.count(1)
SERVER_POOLS = ("bot", "burraco-actions")
"""The thread name prefixes of the app's own executors (botrunner, action_writer)."""


@dataclass
class InProcess:
    app: FastAPI
    http: httpx.AsyncClient

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    async def guest(self) -> dict[str, str]:
        """A new guest's bearer header."""
        response = await self.http.post("/api/guest")
        assert response.status_code == 200, response.text
        self.http.cookies.clear()  # programs use the token, not the browser's cookie
        return {"Authorization": f"Bearer {response.json()['token']}"}

    async def until(
        self, check: Callable[[], Awaitable[bool]], *, timeout: float = 60, every: float = 0.02
    ) -> None:
        """Wait until ``check()`` is true (polling), failing after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while not await check():
                await asyncio.sleep(every)

    async def table_status(self, table: str) -> str:
        response = await self.http.get(f"/api/tables/{table}")
        assert response.status_code == 200, response.text
        status: str = response.json()["status"]
        return status


async def settle(check: Callable[[], bool], what: str, *, timeout: float = SETTLE_SECONDS) -> None:
    """Wait in the app's own loop (``running_app``, or a hub the test made) until ``check()``
    holds: what a fake clock's ``advance`` handed the loop has run."""
    try:
        async with asyncio.timeout(timeout):
            while not check():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def caught_up(actor: TableActor) -> None:
    """In the table's loop: the table has run every command posted so far, those of the
    timers a fake clock's ``advance`` has just handed the loop included (a check that nothing
    happened at a deadline needs that). The marker is a timer the table never set: a no-op."""
    await asyncio.sleep(0)  # the loop runs the timers' callbacks: their commands are queued
    await actor.call(commands.Timer("caught-up", commands.TimerPurpose.EVICT))


def wait_until(check: Callable[[], bool], what: str, *, timeout: float = SETTLE_SECONDS) -> None:
    """``settle`` from a thread that is not the app's (an ``AppServer``'s tests)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def sent_to(conn: Connection) -> list[dict[str, Any]]:
    """Every message waiting in ``conn``'s outbox (what its WebSocket writer would send),
    decoded; the outbox is left empty."""
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def play_seat(
    app: InProcess, table: str, user: UserInfo, *, seed: int = 0, timeout: float = 60
) -> None:
    """``user`` opens ``table`` (a connection of the actor's own) and plays his seat with
    legal actions drawn at random (seeded) until the match is over. (No bot plays for a player
    who leaves a casual table nobody else sits at: a test plays his turns.)"""
    actor = await app.hub.table(table)
    seat = actor.seat_of(user)
    assert seat is not None, f"{user.name} has no seat at {table}"
    conn = Connection(user)
    await actor.call(commands.Join(conn, None))
    choose = random.Random(seed).choice
    async with asyncio.timeout(timeout):
        while actor.status == TableStatus.PLAYING:
            state = actor.state
            if state is not None and not state.is_over and state.current == seat:
                action = choose(list(state.legal_actions()))
                await actor.call(commands.Act(conn, action.text()))
            else:
                await asyncio.sleep(0.005)
    await actor.call(commands.Leave(conn))


@contextlib.asynccontextmanager
async def running_app(data_dir: Path, **settings: Any) -> AsyncIterator[InProcess]:
    """The app with its lifespan in this loop; ``settings``: ``ServerConfig``'s, and ``clock``
    (a ``Clock``: taken from the settings so that callers may pass one dict of both)."""
    clock: Clock | None = settings.pop("clock", None)
    config = ServerConfig(
        data_dir=data_dir,
        **{"bot_delay": 0.0, "bot_workers": 0, "login_attempts_per_minute": 6000.0} | settings,
    )
    app = create_app(config, clock=clock)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://127.0.0.1", timeout=30
        ) as http:
            yield InProcess(app, http)


# ------------------------------------------------------------------- the app in a thread of its own


class _LogErrors:
    """What uvicorn does with an exception that escapes the app: log it with its traceback (so
    the tests' "the server logged no traceback" check sees it), then let it go on."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception:
            LOG.exception("Exception in ASGI application")
            raise


class _Records(logging.Handler):
    """The server's log: every record of WARNING and up logged by its threads, as text: the
    thread of its loop and those of its executor (named ``prefix``...), and the app's own pools
    (``SERVER_POOLS``). Other servers and tests of the same process log from other threads
    (a record of another app's pool would be counted too: stricter, never laxer)."""

    def __init__(self, prefix: str) -> None:
        super().__init__(logging.WARNING)
        names = (prefix, *SERVER_POOLS)
        self.addFilter(lambda record: (record.threadName or "").startswith(names))
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record) + "\n")  # list.append is atomic

    def text(self) -> str:
        return "".join(list(self.lines))


class AppServer(Server):
    """The ASGI app (``create_app``) with its lifespan in an event loop of its own thread, as
    uvicorn would run it, without sockets: HTTP through ``httpx.ASGITransport`` and WebSocket
    through ``httpx_ws``'s ASGI transport, both behind uvicorn's proxy-header middleware (it
    trusts ``X-Forwarded-For`` from 127.0.0.1, the address of every in-process client). Sync
    and async clients of any thread reach it through bridges; so the tests written for a real
    server run against it unchanged, in a fraction of the time."""

    url = "http://127.0.0.1"

    def __init__(self, data_dir: Path, **settings: Any) -> None:
        super().__init__(data_dir)
        self.clock: Clock | None = settings.pop("clock", None)
        """The app's clock (None: the real one), given with the settings (``clock=``)."""
        self.settings = {"bot_workers": 0} | settings  # search bots in threads, no process pool
        self.name = f"app-server-{next(_numbers)}"
        self.records = _Records(self.name)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._failure: BaseException | None = None
        self._transport: ASGIWebSocketTransport | None = None
        self._ws_http: httpx.AsyncClient | None = None
        self.app: FastAPI | None = None

    def start(self) -> None:
        if not self.settings.get("database_url"):
            seed_database(self.data_dir)  # a migrated copy: no migration at start-up
        logging.getLogger().addHandler(self.records)
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        self._ready.wait(STARTUP_SECONDS)
        if self._failure is not None or self._transport is None:
            self.stop()
            raise RuntimeError(f"the app did not start: {self._failure!r}\n{self.log()}")

    def stop(self) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop ended on its own
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(30)
            assert not self._thread.is_alive(), "the app's thread did not end"
            self._thread = None
        logging.getLogger().removeHandler(self.records)
        if self._failure is not None:
            raise RuntimeError("the app failed") from self._failure

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as failure:  # reported by start/stop in the test's thread
            self._failure = failure
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        executor = ThreadPoolExecutor(thread_name_prefix=f"{self.name}-worker")
        self._loop.set_default_executor(executor)  # its threads' records are the server's
        self._stopping = asyncio.Event()
        config = ServerConfig(data_dir=self.data_dir, **self.settings)
        self.app = create_app(config, clock=self.clock)
        wrapped = ProxyHeadersMiddleware(_LogErrors(self.app), trusted_hosts="127.0.0.1")
        async with (
            self.app.router.lifespan_context(self.app),
            ASGIWebSocketTransport(app=wrapped, client=("127.0.0.1", 50_000)) as transport,
            httpx.AsyncClient(transport=transport, base_url=self.url, timeout=30) as ws_http,
        ):
            self._transport, self._ws_http = transport, ws_http
            self._ready.set()
            await self._stopping.wait()

    @property
    def hub(self) -> Hub:
        assert self.app is not None
        hub: Hub = self.app.state.hub
        return hub

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._failure is None

    def log(self) -> str:
        return self.records.text()

    # -- reaching the app's loop from any thread --

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` in the app's loop and wait for it (from a thread without a loop)."""
        assert self._loop is not None, "not started"
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    async def acall(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` in the app's loop and await it (from another thread's loop)."""
        assert self._loop is not None, "not started"
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self._loop))

    async def forward(self, request: httpx.Request, body: bytes) -> httpx.Response:
        """One HTTP request to the app; the response read whole (raw, as it was sent)."""
        assert self._transport is not None
        sent = httpx.Request(request.method, request.url, headers=request.headers, content=body)
        response = await self._transport.handle_async_request(sent)
        raw = b"".join([part async for part in response.aiter_raw()])
        await response.aclose()
        return httpx.Response(response.status_code, headers=response.headers, content=raw)

    def http_transport(self) -> httpx.BaseTransport:
        return _SyncBridge(self)

    def async_http_transport(self) -> httpx.AsyncBaseTransport:
        return _AsyncBridge(self)

    def connect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None, origin: str | None = None
    ) -> Socket:
        sent = dict(headers or {}) | ({"Origin": origin} if origin else {})
        return _SyncSocket(self, self.call(self._open(path, sent)))

    async def aconnect(
        self, path: str = "/ws", *, headers: dict[str, str] | None = None
    ) -> AsyncSocket:
        return _AsyncSocket(self, await self.acall(self._open(path, dict(headers or {}))))

    async def _open(self, path: str, headers: dict[str, str]) -> _Held:
        """Open a WebSocket in a task of the app's loop that holds it until it is closed."""
        opened: asyncio.Future[_Held] = asyncio.get_running_loop().create_future()
        held = _Held(asyncio.Event())
        held.task = asyncio.create_task(self._hold(path, headers, held, opened))
        return await opened

    async def _hold(
        self, path: str, headers: dict[str, str], held: _Held, opened: asyncio.Future[_Held]
    ) -> None:
        assert self._ws_http is not None
        try:
            connecting: contextlib.AbstractAsyncContextManager[AsyncWebSocketSession]
            connecting = aconnect_ws(
                path, self._ws_http, headers=headers, max_message_size_bytes=1 << 22
            )
            session: AsyncWebSocketSession
            async with connecting as session:
                held.session = session
                opened.set_result(held)
                await held.done.wait()
        except BaseException as failure:
            if not opened.done():
                opened.set_exception(failure)
            elif not _closing_noise(failure):
                raise


def _closing_noise(failure: BaseException) -> bool:
    """An error of closing a socket the server had closed already (nothing to report)."""
    if isinstance(failure, BaseExceptionGroup):
        return all(_closing_noise(inner) for inner in failure.exceptions)
    return isinstance(
        failure, WebSocketDisconnect | WebSocketNetworkError | anyio.ClosedResourceError
    )


@dataclass
class _Held:
    done: asyncio.Event
    session: AsyncWebSocketSession | None = None
    task: asyncio.Task[None] | None = None

    async def send(self, frame: Frame) -> None:
        assert self.session is not None
        if isinstance(frame, bytes):
            await self.session.send_bytes(frame)
        else:
            await self.session.send_text(frame)

    async def recv(self, timeout: float) -> Frame:
        assert self.session is not None
        try:
            event = await self.session.receive(timeout)
        except WebSocketDisconnect as closed:
            raise Closed(closed.code, closed.reason or "") from None
        except WebSocketNetworkError:
            raise Closed(1006) from None
        if isinstance(event, wsproto.events.TextMessage):
            return event.data
        if isinstance(event, wsproto.events.BytesMessage):
            return bytes(event.data)
        raise AssertionError(f"unexpected WebSocket event {event!r}")

    async def close(self) -> None:
        self.done.set()
        if self.task is not None:
            await self.task


class _SyncSocket:
    def __init__(self, server: AppServer, held: _Held) -> None:
        self.server, self.held = server, held

    def send(self, frame: Frame) -> None:
        self.server.call(self.held.send(frame))

    def recv(self, timeout: float) -> Frame:
        return self.server.call(self.held.recv(timeout))

    def close(self) -> None:
        self.server.call(self.held.close())


class _AsyncSocket:
    def __init__(self, server: AppServer, held: _Held) -> None:
        self.server, self.held = server, held

    async def send(self, frame: Frame) -> None:
        await self.server.acall(self.held.send(frame))

    async def recv(self, timeout: float) -> Frame:
        return await self.server.acall(self.held.recv(timeout))

    async def close(self) -> None:
        await self.server.acall(self.held.close())


class _SyncBridge(httpx.BaseTransport):
    def __init__(self, server: AppServer) -> None:
        self.server = server

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.server.call(self.server.forward(request, request.read()))


class _AsyncBridge(httpx.AsyncBaseTransport):
    def __init__(self, server: AppServer) -> None:
        self.server = server

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.server.acall(self.server.forward(request, await request.aread()))


@contextlib.contextmanager
def app_server(data_dir: Path, **settings: Any) -> Iterator[AppServer]:
    """An ``AppServer`` for the block (its settings as ``ServerConfig``'s, and ``clock``)."""
    server = AppServer(data_dir, **settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()
