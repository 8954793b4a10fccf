"""How the server keeps CPython's cyclic garbage collector from pausing play.

A server holding a thousand tables and four thousand sockets has millions of long-lived objects.
CPython's full collection walks all of them: 0.4-1.8 s with the event loop stopped, during which
no table answers (bench/README.md measured it as the tail of the round-trip times). Reference
counting frees almost everything the server drops; the collector is only needed for reference
cycles. So:

* after start-up, and then every ``freeze_every`` seconds, a young collection runs and every
  object still alive is *frozen* (``gc.freeze``): moved where collections never look again. Each
  collection then only walks what was born since the last freeze, which keeps its pause short;
* young collections run every 10,000 new objects instead of 700, so that a table's state, alive
  for the seconds between two actions, is not promoted towards the oldest generation on the way;
* a frozen object is still freed by reference counting; only a frozen object that later becomes
  part of unreachable *cycle* stays, so the number of frozen objects is watched: when it has
  grown past ``sweep_growth`` times what the last sweep left (and past ``sweep_floor``), a full
  sweep unfreezes everything, collects, and freezes again. That one pause is the price of
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
    sweeps: int = 0
    last_sweep_pause: float = 0.0
    last_sweep_found: int = 0
    """Unreachable objects the last sweep freed (cycles that died while frozen)."""
    frozen: int = 0
    """Objects frozen after the last freeze or sweep."""
    long_pauses: deque[tuple[float, int, float]] = field(
        default_factory=lambda: deque(maxlen=LONG_PAUSES_KEPT)
    )
    """The latest collections that took ``LONG_PAUSE`` or more: (wall time, generation, seconds)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "collections": list(self.collections),
            "longest_pause_ms": [round(p * 1000, 3) for p in self.longest_pause],
            "freezes": self.freezes,
            "sweeps": self.sweeps,
            "last_sweep_pause_ms": round(self.last_sweep_pause * 1000, 3),
            "last_sweep_found": self.last_sweep_found,
            "frozen": self.frozen,
            "long_pauses": [
                {"at": at, "generation": generation, "ms": round(pause * 1000, 3)}
                for at, generation, pause in self.long_pauses
            ],
        }


class Collector:
    """The server's garbage-collection policy (module doc). One per server process."""

    def __init__(
        self,
        *,
        freeze_every: float = 30.0,
        sweep_growth: float = 2.0,
        sweep_floor: int = 500_000,
    ) -> None:
        self.freeze_every = freeze_every
        self.sweep_growth = sweep_growth
        self.sweep_floor = sweep_floor
        self.stats = CollectorStats()
        self._after_sweep = 0
        self._started: float | None = None
        self._task: asyncio.Task[None] | None = None

    # -- lifecycle --

    def start(self) -> None:
        """Collect and freeze what start-up built, tune the thresholds, and watch pauses."""
        gc.callbacks.append(self._on_collection)
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
        self._after_sweep = self.stats.frozen = gc.get_freeze_count()
        if self.freeze_every > 0:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="burraco-collector"
            )

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.freeze_every)
            self.step()

    # -- the policy --

    def step(self) -> None:
        """One round: a young collection, a freeze, and a sweep if frozen objects piled up."""
        gc.collect(1)
        gc.freeze()
        self.stats.freezes += 1
        frozen = self.stats.frozen = gc.get_freeze_count()
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
            return
        if self._started is None:
            return
        pause = time.perf_counter() - self._started
        self._started = None
        stats = self.stats
        stats.collections[generation] += 1
        stats.longest_pause[generation] = max(stats.longest_pause[generation], pause)
        if pause >= LONG_PAUSE:
            stats.long_pauses.append((time.time(), generation, pause))
