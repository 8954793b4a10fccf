"""Browser tests: a real server (``burraco serve``'s app under uvicorn on loopback, in a thread
of the test process: ``tests.server.threaded``; a temporary data folder, predictable deals from
``--test-seed``) and Debian's Chromium driven by Playwright.

``server`` is the test's server: its own, started for it, for a test marked ``seed(n)`` (its
deals depend on the order the server dealt in: a fresh server with ``--test-seed n`` deals
them); otherwise, in a module that says ``SHARED_SERVER = True`` (its tests need no empty site
and no setting of their own, and none of them depends on another), the module's server,
reseeded with the default seed before each test; otherwise its own.

Chromium comes from the system (``apt-get install chromium``, which ``scripts/test`` does when it
is missing); Playwright never downloads a browser here."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from burraco.cli.main import build_parser
from burraco.cli.serve import server_config, transport_limits
from burraco.server.clock import Clock, FakeClock, FastForwardClock
from tests.server.threaded import ThreadedServer

CHROMIUM = os.environ.get("BURRACO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_SEED = 1


@dataclass
class Server:
    url: str
    running: ThreadedServer
    log: Path
    # HTTP clients a test opened against this server: closed with it, so that no pooled
    # connection is left for the garbage collector (a ResourceWarning, an error under -W error).
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def data_dir(self) -> Path:
        return self.running.data_dir

    def client(self, *, base_url: str, token: str) -> httpx.Client:
        """A client signed in with a session token (as a header and as the browser's cookie)."""
        opened = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}"},
            cookies={"burraco_session": token},
            timeout=30,
            trust_env=False,
        )
        self.clients.append(opened)
        return opened

    def close_clients(self) -> None:
        while self.clients:
            self.clients.pop().close()

    def stop(self) -> None:
        """Close the test's clients and stop the server (failing if it does not stop)."""
        self.close_clients()
        self.running.stop()


def start_server(
    data_dir: Path,
    *,
    seed: int,
    bot_delay: float = 0.05,
    extra: Sequence[str] = (),
    clock: Clock | None = None,
) -> Server:
    """``burraco serve --data-dir data_dir --bot-delay .. --test-seed seed --log-level warning
    *extra`` in a thread of this process: its settings are what those options give; ``clock``:
    the app's (a ``FastForwardClock`` that the test moves on), the system's by default."""
    args = build_parser("serve").parse_args(
        [
            "serve",
            "--data-dir",
            str(data_dir),
            "--bot-delay",
            str(bot_delay),
            "--test-seed",
            str(seed),
            "--log-level",
            "warning",
            *extra,
        ]
    )
    running = ThreadedServer(
        data_dir,
        config=server_config(args),
        limits=transport_limits(args),
        log_level=args.log_level,
        clock=clock,
    )
    running.start()
    return Server(running.url, running, running.log_path)


def _seed_of(request: pytest.FixtureRequest) -> int | None:
    marker = request.node.get_closest_marker("seed")
    return int(marker.args[0]) if marker else None


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server of a module whose tests share one (``SHARED_SERVER``)."""
    running = start_server(tmp_path_factory.mktemp("shared-server"), seed=DEFAULT_SEED)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    seed = _seed_of(request)
    if request.node.get_closest_marker("frozen_clock") is not None:
        # Its own server, on a clock that moves only when the test says (``server.running
        # .clock.advance``): no turn timer runs out while the page plays, however busy the
        # machine; its bots play at once (a bot's delay would wait for the clock too).
        running = start_server(
            tmp_path,
            seed=DEFAULT_SEED if seed is None else seed,
            bot_delay=0,
            clock=FakeClock(start=time.time()),
        )
        try:
            yield running
        finally:
            running.stop()
        return
    if request.node.get_closest_marker("fast_forward") is not None:
        # Its own server, on a clock the test jumps on (``server.running.clock``).
        running = start_server(
            tmp_path, seed=DEFAULT_SEED if seed is None else seed, clock=FastForwardClock()
        )
        try:
            yield running
        finally:
            running.stop()
        return
    if seed is None and getattr(request.module, "SHARED_SERVER", False):
        shared: Server = request.getfixturevalue("module_server")
        shared.running.reseed(DEFAULT_SEED)
        try:
            yield shared
        finally:
            shared.close_clients()
        return
    running = start_server(tmp_path, seed=DEFAULT_SEED if seed is None else seed)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/test (it installs Debian's chromium) or"
            " `apt-get install -y chromium`"
        )
    with sync_playwright() as p:
        loop = asyncio._get_running_loop()  # Playwright's: it runs between the API's calls
        yield p
        # The session's last teardown runs without it (tests/conftest.py): its own end needs it.
        asyncio._set_running_loop(loop)


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    found = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield found
    found.close()


class Pages:
    """New browser contexts (each one a separate person: own cookies and storage)."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def new(self, *, width: int = 1280, height: int = 860, touch: bool = False) -> Page:
        context = self.browser.new_context(
            base_url=self.base_url,
            viewport={"width": width, "height": height},
            reduced_motion="reduce",
            has_touch=touch,
            locale="it-IT",
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: (
                self.errors.append(message.text) if "missing message" in message.text else None
            ),
        )
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[Pages]:
    made = Pages(browser, server.url)
    yield made
    made.close()
    assert not made.errors, f"errors in the page: {made.errors}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "seed(n): the server's --test-seed for this test")
    config.addinivalue_line(
        "markers",
        "fast_forward: the test's own server runs on a FastForwardClock (server.running.clock)",
    )
    config.addinivalue_line(
        "markers",
        "frozen_clock: the test's own server runs on a FakeClock (server.running.clock), its"
        " bots without delay",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test shows the end of its server's log (warnings, errors and their
    tracebacks), so that a failure seen only in CI can be read there."""
    report = yield
    if not report.failed:
        return report
    funcargs = getattr(item, "funcargs", {})
    running = funcargs.get("server")
    if isinstance(running, Server) and running.log.exists():
        tail = running.log.read_text(errors="replace")[-6000:]
        report.sections.append(("server log (last 6000 characters)", tail or "(empty)"))
    made = funcargs.get("pages")
    if report.when == "call" and isinstance(made, Pages):
        for number, context in enumerate(made.contexts):
            for page in context.pages:
                try:
                    shown = page.evaluate("() => document.body.innerText.slice(0, 1500)")
                except PlaywrightError as error:  # a closed page: say so, keep the report
                    shown = f"(not readable: {error.message})"
                report.sections.append((f"page {number} at {page.url}", shown))
    return report
