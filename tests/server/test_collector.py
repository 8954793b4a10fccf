"""The server's garbage-collection policy (server/collector.py): freezes, sweeps, pause records."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from burraco.server.collector import YOUNG_THRESHOLD, Collector


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    callbacks = list(gc.callbacks)
    yield
    gc.callbacks[:] = callbacks
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


def start(collector: Collector) -> None:
    """Start a collector without its periodic task (``young_every=0``: no event loop needed);
    the fixture puts the process's collector back afterwards."""
    assert collector.young_every == 0
    collector.start()


def test_start_freezes_what_is_alive_and_close_gives_it_back() -> None:
    collector = Collector(young_every=0)
    thresholds = gc.get_threshold()
    seen: list[tuple[int, int]] = []

    async def main() -> None:
        collector.start()
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))
        await collector.close()

    asyncio.run(main())
    assert seen[0][0] == YOUNG_THRESHOLD
    assert collector.stats.frozen >= seen[0][1] > 1000
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


def test_a_cycle_that_dies_while_frozen_is_freed_by_a_sweep() -> None:
    collector = Collector(young_every=0)
    alive = [cycle() for _ in range(1000)]
    probes = [weakref.ref(node) for node in alive]
    start(collector)
    frozen = gc.get_freeze_count()
    del alive  # 1,000 cycles of two nodes die while frozen: only a sweep can free them
    gc.collect()
    assert all(probe() is not None for probe in probes)  # a collection does not see them
    collector.sweep()
    assert collector.stats.sweeps == 1
    assert collector.stats.last_sweep_found >= 2000
    assert all(probe() is None for probe in probes)
    # Not an exact figure: other threads of the test process (Playwright's, xdist's) may
    # allocate a few objects that the sweep freezes with the rest.
    assert gc.get_freeze_count() < frozen - 1500


def test_step_collects_young_cycles_and_freezes_the_survivors() -> None:
    collector = Collector(young_every=0)
    start(collector)
    try:
        dead = cycle()
        probe = weakref.ref(dead)
        del dead  # a young cycle: the step's young collection frees it
        alive = [Node() for _ in range(1000)]
        frozen = gc.get_freeze_count()
        young_before = collector.stats.collections[0]
        collector.step()
    finally:
        gc.callbacks.remove(collector._on_collection)
    assert collector.stats.collections[0] == young_before + 1
    assert probe() is None
    assert collector.stats.freezes == 1
    assert gc.get_freeze_count() >= frozen + len(alive)
    # What was young is frozen now: none of the survivors is in the young generation (other
    # threads of the test process may have allocated a few objects since: not a count).
    young = {id(o) for o in gc.get_objects(0)}
    assert not any(id(node) in young for node in alive)


def test_check_sweeps_only_when_frozen_objects_pile_up() -> None:
    collector = Collector(young_every=0, sweep_growth=1.5, sweep_floor=0)
    start(collector)
    collector.check()  # nothing new: a count, no sweep
    assert (collector.stats.checks, collector.stats.sweeps) == (1, 0)
    keep = [Node() for _ in range(gc.get_freeze_count())]  # the frozen population doubles
    collector.step()
    collector.check()
    assert (collector.stats.checks, collector.stats.sweeps) == (2, 1)
    assert len(keep) > 0


def test_pauses_are_recorded_per_generation() -> None:
    collector = Collector(young_every=0)
    start(collector)
    try:
        before = list(collector.stats.collections)
        gc.collect(0)
        gc.collect(2)
    finally:
        gc.callbacks.remove(collector._on_collection)
    assert collector.stats.collections[0] == before[0] + 1
    assert collector.stats.collections[2] == before[2] + 1
    assert collector.stats.longest_pause[2] > 0


def test_a_long_pause_is_recorded_with_its_cpu_time_and_what_it_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    collector = Collector(young_every=0)
    start(collector)
    monkeypatch.setattr("burraco.server.collector.LONG_PAUSE", 0.0)  # every pause is "long"
    gc.callbacks.append(collector._on_collection)
    try:
        dead = [cycle() for _ in range(100)]
        del dead
        gc.collect(0)
    finally:
        gc.callbacks.remove(collector._on_collection)
    record = collector.stats.as_json()["long_pauses"][-1]
    assert record["generation"] == 0
    assert record["collected"] >= 200
    assert 0 <= record["cpu_ms"] <= record["ms"] + 1


def test_the_periodic_task_collects_freezes_and_checks_while_the_loop_runs() -> None:
    collector = Collector(young_every=0.01, sweep_check_every=0.05)

    async def main() -> None:
        collector.start()
        await asyncio.sleep(0.3)
        await collector.close()

    asyncio.run(main())
    assert collector.stats.freezes >= 2
    assert collector.stats.collections[0] >= 2
    assert collector.stats.checks >= 1
    assert collector._on_collection not in gc.callbacks
