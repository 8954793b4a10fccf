"""Starting a real server process, one way for every test that needs one (``_live.LiveServer``,
``test_crash.py``, the cluster's nodes in ``tests/cluster/harness.py``).

A ``Spawned`` is one server process at a time (started again by its owner, e.g. after a kill):
its own session, so that SIGKILL to its group takes its bot and review workers with it; its
output appended to a log file of the test, each start marked with a ``---- start N`` line; a
start that waits until a URL of it answers 200 (``ready`` from a thread, ``aready`` from a
coroutine), failing with the log when it exits or does not answer in time; SIGKILL; and a
bounded SIGTERM.

``serve_command(...)`` is ``burraco serve`` with its options, in this interpreter.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx

__all__ = ["Spawned", "serve_command"]

STARTUP_SECONDS = 30.0
KILL_SECONDS = 10.0
POLL_SECONDS = 0.05


def serve_command(*options: str) -> list[str]:
    """``burraco serve OPTIONS`` run by this interpreter."""
    return [sys.executable, "-m", "burraco.cli.main", "serve", *options]


class Spawned:
    """One server process (see the module's docstring), its output in ``log_path``."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def spawn(
        self,
        command: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        pass_fds: Sequence[int] = (),
        note: str = "",
    ) -> None:
        """Start ``command`` (not waiting for it to answer: ``ready``/``aready``)."""
        assert not self.alive(), "the process is running already"
        self.starts += 1
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            log.write(f"---- start {self.starts}{': ' if note else ''}{note}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                list(command),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                pass_fds=tuple(pass_fds),
                start_new_session=True,
                env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
            )

    def _check(self, url: str, deadline: float) -> None:
        if not self.alive():
            raise RuntimeError(f"the server exited at startup:\n{self.log()[-20_000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer {url} in time:\n{self.log()}")

    def ready(self, url: str, timeout: float = STARTUP_SECONDS) -> None:
        """Wait until ``url`` answers 200 (from a thread)."""
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2, trust_env=False) as http:
            while True:
                self._check(url, deadline)
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(url).status_code == 200:
                        return
                time.sleep(POLL_SECONDS)

    async def aready(self, url: str, timeout: float = STARTUP_SECONDS) -> None:
        """Wait until ``url`` answers 200 (from a coroutine)."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2, trust_env=False) as http:
            while True:
                self._check(url, deadline)
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(url)).status_code == 200:
                        return
                await asyncio.sleep(POLL_SECONDS)

    def kill(self) -> None:
        """SIGKILL to the whole process group: no shutdown, no flush, nothing."""
        process = self.process
        assert process is not None and process.poll() is None, f"not running:\n{self.log()}"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(KILL_SECONDS)

    def signal_group_end(self) -> None:
        """SIGKILL to what is left of the process's group (after it exited, as systemd does)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def stop(self, timeout: float = 15.0, *, signalled: bool = False) -> None:
        """SIGTERM (unless ``signalled`` already) and wait up to ``timeout``; then SIGKILL to
        the group. Nothing if it is not running."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        if not signalled:
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(KILL_SECONDS)
