"""What the whole suite shares: its depth's Hypothesis profile, and the order of its run.

**Depth** (tests/depth.py): Hypothesis tests without a ``max_examples`` of their own take it from
the profile of ``BURRACO_TEST_DEPTH`` (``deep`` and ``soak``: Hypothesis's own default of 100;
``quick``: fewer).

**Order**: the slowest files (``SLOW``, seconds of a ``make test`` run at the quick depth) run
first, so that no worker starts one of them near the end of the run (``make test`` distributes
with ``--dist worksteal``: each worker starts with a contiguous share of the collection, and a
worker that runs out takes the end of another's share). Under xdist each worker's share begins
with its part of the slow files, dealt longest first to the share with the least so far; the
order is a pure function of the collection and the number of workers, as xdist requires (every
worker must collect the same list). A file keeps its tests together, in their own order
(module-scoped fixtures are set up once).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import defaultdict
from collections.abc import Generator, Iterator

import pytest
from hypothesis import settings

from tests.depth import DEPTH

QUICK_EXAMPLES = 25
"""Hypothesis examples per test at the quick depth when the test sets none of its own: a quarter
of Hypothesis's default of 100, as ``tests.depth.examples`` divides the others."""

settings.register_profile("deep", settings())
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)
settings.load_profile("quick" if DEPTH == "quick" else "deep")

SLOW: dict[str, float] = {
    # A fresh clone's make test at the quick depth, four workers on two cores, Python 3.12
    # (2026-12-07, tests/slow_files.py from its report):
    "tests/cluster/test_failures.py": 148.0,
    "tests/server/test_bot_connect_live.py": 121.0,
    "tests/server/test_same_cards.py": 74.0,
    "tests/web/test_accessibility.py": 73.0,
    "tests/server/test_crash.py": 73.0,
    "tests/cluster/test_leaders.py": 72.0,
    "tests/web/test_review_page.py": 71.0,
    "tests/web/test_fair_deals.py": 67.0,
    "tests/server/test_reviews.py": 59.0,
    "tests/web/test_table_face.py": 57.0,
    "tests/server/test_tournament_live.py": 54.0,
    "tests/server/test_http_fuzz.py": 53.0,
    "tests/engine/test_random_sim.py": 49.0,
    "tests/web/test_tournament_page.py": 48.0,
    "tests/web/test_ratings_page.py": 47.0,
    "tests/web/test_first_screen.py": 46.0,
    "tests/bots/test_review.py": 44.0,
    "tests/web/test_quickplay_page.py": 44.0,
    "tests/web/test_table.py": 44.0,
    "tests/web/test_play.py": 42.0,
    "tests/web/test_lesson.py": 37.0,
    "tests/web/test_screenshots.py": 36.0,
    "tests/web/test_friends_page.py": 33.0,
    "tests/cluster/test_proxy.py": 33.0,
}
"""Seconds a file takes in ``make test`` (quick depth), for the files worth starting first; the
order only needs them roughly right. ``python -m tests.slow_files REPORT.xml`` prints them from
a run's JUnit report."""


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _shares(total: int, workers: int) -> list[int]:
    """How many items xdist's worksteal scheduler first sends each worker (in order)."""
    sizes = []
    left = total
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def ordered(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The run's order: see the module's docstring."""
    by_file: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        by_file[_file(item)].append(item)
    slow = sorted((f for f in by_file if f in SLOW), key=lambda f: (-SLOW[f], f))
    rest = [item for item in items if _file(item) not in SLOW]
    if workers <= 1:
        return [item for f in slow for item in by_file[f]] + rest
    sizes = _shares(len(items), workers)
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for name in slow:
        room = [i for i in range(workers) if len(shares[i]) + len(by_file[name]) <= sizes[i]]
        target = min(room or range(workers), key=lambda i: (load[i], i))
        shares[target] += by_file[name]
        load[target] += SLOW[name]
    out: list[pytest.Item] = []
    for share, size in zip(shares, sizes, strict=True):
        take = max(0, size - len(share))
        out += share + rest[:take]
        del rest[:take]
    return out + rest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput else 1
    items[:] = ordered(items, workers)


def _drives_the_browser(item: pytest.Item) -> bool:
    return "playwright" in getattr(item, "fixturenames", ())


@contextlib.contextmanager
def _without_playwrights_loop() -> Iterator[None]:
    """No event loop of Playwright's in this thread meanwhile (see ``pytest_runtest_setup``)."""
    borrowed = asyncio._get_running_loop()
    if borrowed is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        if asyncio._get_running_loop() is None and not borrowed.is_closed():
            asyncio._set_running_loop(borrowed)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None]:
    """A test that does not drive the browser runs with no event loop of Playwright's in its
    thread. Playwright's sync API (the browser tests' session-wide ``playwright`` fixture) keeps
    its loop running in the test process's main thread between its calls, so that once a browser
    test has run in a worker, every ``asyncio.run`` of a later test in that worker failed
    ("cannot be called from a running event loop"): the browser tests used to come last in each
    worker; now the slow files come first and work is stolen, so any test may follow one."""
    if _drives_the_browser(item):
        return (yield)
    with _without_playwrights_loop():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None]:
    if _drives_the_browser(item):
        return (yield)
    with _without_playwrights_loop():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """The last test's teardown also ends the session's fixtures: after a test that does not
    drive the browser, the ``playwright`` fixture takes its loop back for its own end
    (tests/web/conftest.py); after a browser test, the databases' fixtures, which need no
    running loop, run their end in a thread of their own (tests/store/postgres.py)."""
    if _drives_the_browser(item):
        return (yield)
    with _without_playwrights_loop():
        return (yield)


UNTRACED: dict[str, str] = {
    # A prefix of test files, and why coverage does not trace them (measured, bench/README.md,
    # "make test, measured (issue 26)"): tracing doubled their time and added little, because
    # the in-process tests trace the same server code.
    "tests/web/": "Chromium drives the server: the in-process tests measure its routes",
    "tests/cluster/": "real server processes, HAProxy, SIGKILLs: the code is measured in process",
    "tests/server/test_crash.py": "SIGKILLed server processes: killed ones never write data",
    "tests/server/test_bot_connect_live.py": "real burraco bot-connect and serve processes",
    "tests/server/test_http_fuzz.py": "random draws for 5xx: each route's lines have their tests",
}
"""Test files run with coverage paused (their subprocesses too): the gates are measured on the
rest of the suite, which is stricter, never looser, than measuring everything."""

COVERAGE_CHILDREN = "COVERAGE_PROCESS_CONFIG"
"""What coverage's subprocess patch puts in the environment for the Python children it traces."""


def _untraced(item: pytest.Item) -> bool:
    return _file(item).startswith(tuple(UNTRACED))


@contextlib.contextmanager
def _coverage_paused() -> Iterator[None]:
    """Coverage stopped in this process (its threads started meanwhile stay untraced) and left
    out of the Python processes started meanwhile; no-op when the run measures nothing."""
    from coverage import Coverage

    measuring = Coverage.current()
    if measuring is None:
        yield
        return
    children = os.environ.pop(COVERAGE_CHILDREN, None)
    measuring.stop()
    try:
        yield
    finally:
        measuring.start()
        if children is not None:
            os.environ[COVERAGE_CHILDREN] = children


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """A file of ``UNTRACED`` runs its set-up, call and tear-down with coverage paused."""
    if not _untraced(item):
        return (yield)
    with _coverage_paused():
        return (yield)
