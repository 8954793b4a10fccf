"""How the server keeps CPython's cyclic garbage collector from pausing play.

A server holding a thousand tables and four thousand sockets has millions of long-lived objects.
CPython's full collection walks all of them: 0.4-1.8 s with the event loop stopped, during which
no table answers (bench/README.md measured it as the tail of the round-trip times). Even its
*young* collections were slow: CPython counts allocations minus deallocations, and a server in a
steady state frees about as many old objects as it makes new ones, so the young generation kept
growing between two automatic collections (40,000-70,000 objects, 30-60 ms of CPU each, measured
at 1,000 tables). Reference counting frees almost everything the server drops; the collector is
only needed for reference cycles, and play makes almost none (the benchmark's server found none
in a 30 s window). So:

* every ``young_every`` seconds (0.1) a young collection runs, then every object still alive is
  *frozen* (``gc.freeze``): moved where collections never look again. A collection thus walks
  only what was born in the last tenth of a second (a few milliseconds), and objects never reach
  the older generations whose collections walk everything;
* automatic young collections stay as a safety net, every 10,000 new objects instead of 700;
* a frozen object is still freed by reference counting; only a frozen object that later becomes
  part of an unreachable *cycle* stays. Every ``sweep_check_every`` seconds (300) the frozen
  objects are counted (a walk of all of them: tens of milliseconds, hence rarely); when they
  have grown past ``sweep_growth`` times what the last sweep left (and past ``sweep_floor``), a
  full sweep unfreezes everything, collects, and freezes again. That one pause is the price of
  bounded memory; it is logged with its duration and what it found.

``gc.callbacks`` records every collection's pause, so the figures are there to be read
(``CollectorStats``) rather than guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("burraco.server.collector")

YOUNG_THRESHOLD = 10_000
"""Net new container objects between two young collections (CPython's default is 700)."""
LONG_PAUSE = 0.020
"""Collections at least this long (seconds) are remembered one by one."""
LONG_PAUSES_KEPT = 1000


@dataclass
class CollectorStats:
    """What the collector did since start-up (pauses in seconds)."""

    collections: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Collections per generation."""
    longest_pause: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    """Longest pause per generation."""
    freezes: int = 0
    checks: int = 0
    """Counts of the frozen objects (for the sweep decision)."""
    sweeps: int = 0
    last_sweep_pause: float = 0.0
    last_sweep_found: int = 0
    """Unreachable objects the last sweep freed (cycles that died while frozen)."""
    frozen: int = 0
    """Frozen objects at the last check or sweep."""
    long_pauses: deque[tuple[float, int, float, float, int]] = field(
        default_factory=lambda: deque(maxlen=LONG_PAUSES_KEPT)
    )
    """The latest collections that took ``LONG_PAUSE`` or more: (wall time, generation, seconds,
    CPU seconds of the collecting thread, unreachable objects found). A pause much longer than
    its CPU time was the thread waiting for a core, not the collector working."""

    def as_json(self) -> dict[str, Any]:
        return {
            "collections": list(self.collections),
            "longest_pause_ms": [round(p * 1000, 3) for p in self.longest_pause],
            "freezes": self.freezes,
            "checks": self.checks,
            "sweeps": self.sweeps,
            "last_sweep_pause_ms": round(self.last_sweep_pause * 1000, 3),
            "last_sweep_found": self.last_sweep_found,
            "frozen": self.frozen,
            "long_pauses": [
                {
                    "at": at,
                    "generation": generation,
                    "ms": round(pause * 1000, 3),
                    "cpu_ms": round(cpu * 1000, 3),
                    "collected": collected,
                }
                for at, generation, pause, cpu, collected in self.long_pauses
            ],
        }


class Collector:
    """The server's garbage-collection policy (module doc). One per server process."""

    def __init__(
        self,
        *,
        young_every: float = 0.1,
        sweep_check_every: float = 300.0,
        sweep_growth: float = 2.0,
        sweep_floor: int = 500_000,
    ) -> None:
        self.young_every = young_every
        self.sweep_check_every = sweep_check_every
        self.sweep_growth = sweep_growth
        self.sweep_floor = sweep_floor
        self.stats = CollectorStats()
        self._after_sweep = 0
        self._started: float | None = None
        self._started_cpu = 0.0
        self._thresholds = gc.get_threshold()
        self._task: asyncio.Task[None] | None = None

    # -- lifecycle --

    def start(self) -> None:
        """Collect and freeze what start-up built, tune the thresholds, and watch pauses."""
        gc.callbacks.append(self._on_collection)
        self._thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
        self._after_sweep = self.stats.frozen = gc.get_freeze_count()
        if self.young_every > 0:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="burraco-collector"
            )

    async def close(self) -> None:
        """Stop, and give the process back to CPython's own policy (for a process that goes on
        after the app, as the tests do): thresholds restored, everything unfrozen."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)
            gc.set_threshold(*self._thresholds)
            gc.unfreeze()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_check = loop.time() + self.sweep_check_every
        while True:
            await asyncio.sleep(self.young_every)
            self.step()
            if self.sweep_check_every > 0 and loop.time() >= next_check:
                next_check = loop.time() + self.sweep_check_every
                self.check()

    # -- the policy --

    def step(self) -> None:
        """A young collection, then a freeze of every survivor."""
        gc.collect(0)
        gc.freeze()
        self.stats.freezes += 1

    def check(self) -> None:
        """Count the frozen objects; sweep if they have piled up since the last sweep."""
        frozen = self.stats.frozen = gc.get_freeze_count()
        self.stats.checks += 1
        if frozen > max(self.sweep_floor, self.sweep_growth * self._after_sweep):
            self.sweep()

    def sweep(self) -> None:
        """Unfreeze, collect everything, freeze again (the one long pause, made rare)."""
        start = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        pause = time.perf_counter() - start
        stats = self.stats
        stats.sweeps += 1
        stats.last_sweep_pause = pause
        stats.last_sweep_found = found
        self._after_sweep = stats.frozen = gc.get_freeze_count()
        log.info(
            "full garbage sweep: %.0f ms, %d unreachable objects freed, %d objects frozen",
            pause * 1000,
            found,
            stats.frozen,
        )

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
            return
        if self._started is None:
            return
        pause = time.perf_counter() - self._started
        self._started = None
        stats = self.stats
        stats.collections[generation] += 1
        stats.longest_pause[generation] = max(stats.longest_pause[generation], pause)
        if pause >= LONG_PAUSE:
            cpu = time.thread_time() - self._started_cpu
            stats.long_pauses.append((time.time(), generation, pause, cpu, info["collected"]))
