"""Time is an input (issue 26): the table reads one injected clock, and the tests wait for
conditions, not for the wall clock.

* Nothing under ``burraco/server/table/`` reads ``time``, ``datetime.now()``, the event loop's
  timers or ``asyncio.sleep``: every instant and timer comes from ``hub.clock``
  (``burraco/server/clock.py``), which tests replace with a ``FakeClock``.
* No test sleeps for more than 0.5 s of real time (``time.sleep``, ``asyncio.sleep`` or a page's
  ``wait_for_timeout``), except the waits listed in ``WALL_CLOCK_WAITS`` with their reason: each
  is a real process, a real proxy or a database whose own clock no fake reaches. A sleep whose
  length is not a constant is listed too (what it waits for is then said there).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "src" / "burraco" / "server" / "table"
TESTS = ROOT / "tests"
LONGEST_SLEEP = 0.5
"""Seconds: a fixed wait longer than this waits on the wall clock for something a fake clock or
a condition should tell."""

WALL_CLOCK_WAITS: dict[tuple[str, str], str] = {
    # Real server processes (SIGKILL, the cluster), a real HAProxy, PostgreSQL's own clock.
    ("tests/cluster/test_failures.py", "asyncio.sleep(2)"): (
        "the cluster's processes play for a while before the restart, the Redis stop or the"
        " drop (real processes: their clocks are the machine's)"
    ),
    ("tests/cluster/test_failures.py", "asyncio.sleep(2.5)"): (
        "PostgreSQL's connections are dropped every 2.5 s of play (real processes)"
    ),
    ("tests/cluster/test_failures.py", "asyncio.sleep(1)"): (
        "a SIGKILLed process stays down for 1 s before it starts again (the chaos' pace)"
    ),
    (
        "tests/cluster/test_failures.py",
        "asyncio.sleep(rng.uniform(0.5, 1) if kills < 3 else rng.uniform(2, 4))",
    ): "the chaos' pace between kills of real processes (its long form is make soak's)",
    ("tests/cluster/test_leaders.py", "asyncio.sleep(2)"): (
        "the processes play for a while before one is paused with SIGSTOP (real processes)"
    ),
    ("tests/cluster/test_proxy.py", "asyncio.sleep(1)"): (
        "requests go on through the real HAProxy for 1 s after a process is killed: the"
        " measured window"
    ),
    ("tests/server/test_crash.py", "asyncio.sleep(1.0)"): (
        "the clients of a real server stop acting for 1 s before it is killed mid-turn"
    ),
    ("tests/server/test_crash.py", "asyncio.sleep(self.next_send - now)"): (
        "a client paces its messages under the real server's limit (PACE per message)"
    ),
    ("tests/store/test_leases.py", "asyncio.sleep(0.7)"): (
        "a lease's age is measured by PostgreSQL's now(), which no fake clock reaches"
    ),
    ("tests/server/inprocess.py", "asyncio.sleep(every)"): (
        "the poll of InProcess.until (20 ms by default): a wait for a condition"
    ),
    ("tests/server/support.py", "asyncio.sleep(self.think)"): (
        "a test player's thinking time, set by the tests that use it (a fraction of a second)"
    ),
}
"""(file, call as written) -> why it waits on the wall clock."""

_SLEEPS = {("time", "sleep"), ("asyncio", "sleep"), ("anyio", "sleep")}


def _constants(tree: ast.Module) -> dict[str, object]:
    """The module's constant names (``PACE = 0.05``), to read ``sleep(PACE)``."""
    found: dict[str, object] = {}
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                try:
                    found[target.id] = _evaluate(value, found)
                except (ValueError, TypeError, KeyError, ZeroDivisionError):
                    continue
    return found


def _evaluate(node: ast.expr, names: dict[str, object]) -> object:
    """A constant expression of numbers and known names (``BODY_TIMEOUT / 4``)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _evaluate(node.operand, names)
        if isinstance(value, int | float):
            return -value
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, names), _evaluate(node.right, names)
        if isinstance(left, int | float) and isinstance(right, int | float):
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.Div):
                return left / right
    raise ValueError(ast.unparse(node))


def _wait_seconds(call: ast.Call, names: dict[str, object]) -> float | None:
    """How long a fixed wait lasts, None when it is not a constant; not a wait: -1."""
    function = call.func
    if not isinstance(function, ast.Attribute) or not call.args:
        return -1
    if function.attr == "wait_for_timeout":
        scale = 0.001  # Playwright's milliseconds
    elif isinstance(function.value, ast.Name) and (function.value.id, function.attr) in _SLEEPS:
        scale = 1.0
    else:
        return -1  # e.g. a FakeClock's sleep: no wall time passes
    try:
        value = _evaluate(call.args[0], names)
    except (ValueError, KeyError, ZeroDivisionError):
        return None
    return float(value) * scale if isinstance(value, int | float) else None


def wall_clock_waits() -> list[tuple[str, str, int]]:
    """Every wait in tests/ longer than LONGEST_SLEEP or of no constant length."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                seconds = _wait_seconds(node, names)
                if seconds is None or seconds > LONGEST_SLEEP:
                    found.append(
                        (path.relative_to(ROOT).as_posix(), ast.unparse(node), node.lineno)
                    )
    return found


def test_no_test_waits_on_the_wall_clock_but_the_listed_ones() -> None:
    found = wall_clock_waits()
    unlisted = [
        f"{file}:{line}: {call}"
        for file, call, line in found
        if (file, call) not in WALL_CLOCK_WAITS
    ]
    assert unlisted == [], (
        "a test waits on the wall clock: wait for a condition, or drive a fake clock"
        " (burraco.server.clock.FakeClock, a page's clock), or list it with its reason"
    )
    stale = set(WALL_CLOCK_WAITS) - {(file, call) for file, call, _ in found}
    assert stale == set(), "listed waits that are no longer in the tests"


def test_the_scan_sees_a_long_sleep_and_a_page_wait() -> None:
    """The scan itself: it finds what it must (a check that cannot fail proves nothing)."""
    tree = ast.parse(
        "import time\nPACE = 2\ntime.sleep(PACE / 2)\npage.wait_for_timeout(800)\n"
        "time.sleep(0.2)\nclock.sleep(30)\nasyncio.sleep(delay)\n"
    )
    names = _constants(tree)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert [_wait_seconds(c, names) for c in calls] == [1.0, 0.8, 0.2, -1, None]


def test_the_table_reads_time_only_through_its_clock() -> None:
    readers = (
        "time.time(",
        "time.monotonic(",
        "datetime.now(",
        "asyncio.sleep(",
        "loop.call_later(",
    )
    found = []
    for path in sorted(TABLE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        imports = [
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        ] + [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        if "time" in imports:
            found.append(f"{path.name}: imports time")
        found += [f"{path.name}: {reader}" for reader in readers if reader in text]
    assert found == [], "the table reads time past hub.clock (burraco/server/clock.py)"
