"""Browser tests: a real server (``burraco serve`` on loopback, in a temporary data folder,
with predictable deals from ``--test-seed``) and Debian's Chromium driven by Playwright.

Chromium comes from the system (``apt-get install chromium``, which ``scripts/test`` does when it
is missing); Playwright never downloads a browser here."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

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


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path
    # HTTP clients a test opened against this server: closed with it, so that no pooled
    # connection is left for the garbage collector (a ResourceWarning, an error under -W error).
    clients: list[httpx.Client] = field(default_factory=list)

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    data_dir: Path, *, seed: int, bot_delay: float = 0.05, extra: Sequence[str] = ()
) -> Server:
    port = _free_port()
    log = data_dir / "server.log"
    command = [
        sys.executable,
        "-m",
        "burraco.cli.main",
        "serve",
        "--port",
        str(port),
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
    env = dict(os.environ, PYTHONHASHSEED="0")
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/info", timeout=1) as response:
                if response.status == 200:
                    return Server(url, process, log)
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start in 30 s")


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    marker = request.node.get_closest_marker("seed")
    seed = int(marker.args[0]) if marker else 1
    running = start_server(tmp_path, seed=seed)
    try:
        yield running
    finally:
        for client in running.clients:
            client.close()
        running.process.terminate()
        try:
            running.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            running.process.kill()
            running.process.wait()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/test (it installs Debian's chromium) or"
            " `apt-get install -y chromium`"
        )
    with sync_playwright() as p:
        yield p


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
