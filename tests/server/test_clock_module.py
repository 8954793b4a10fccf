"""The server's clock (server/clock.py): the fake one fires its timers and wakes its sleepers in
deadline order when advanced, from the loop's thread or another, and never a cancelled one."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime

import pytest

from burraco.server.clock import Clock, FakeClock, FastForwardClock, SystemClock


async def _turns(count: int = 5) -> None:
    """Let the loop run what ``advance`` handed it."""
    for _ in range(count):
        await asyncio.sleep(0)


def test_the_fake_clock_starts_where_told_and_moves_only_when_advanced() -> None:
    clock = FakeClock(start=1_000.0)
    assert (clock.now(), clock.monotonic()) == (1_000.0, 0.0)
    assert clock.utcnow() == datetime.fromtimestamp(1_000.0, UTC)
    clock.advance(2.5)
    assert (clock.now(), clock.monotonic()) == (1_002.5, 2.5)
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_timers_fire_in_deadline_order_once_due() -> None:
    asyncio.run(_timers_fire_in_deadline_order_once_due())


async def _timers_fire_in_deadline_order_once_due() -> None:
    clock = FakeClock()
    fired: list[str] = []
    clock.call_later(3, fired.append, "c")
    clock.call_later(1, fired.append, "a")
    clock.call_later(2, fired.append, "b1")
    clock.call_later(2, fired.append, "b2")  # same deadline: in the order they were set
    clock.call_later(0, fired.append, "now")  # due already: no advance needed
    await _turns()
    assert fired == ["now"]
    fired.clear()
    clock.advance(0.5)
    await _turns()
    assert fired == []
    assert clock.pending() == [0.5, 1.5, 1.5, 2.5]
    clock.advance(1.5)
    await _turns()
    assert fired == ["a", "b1", "b2"]
    clock.advance(10)
    await _turns()
    assert fired == ["a", "b1", "b2", "c"]
    assert clock.pending() == []


def test_steps_reach_a_deadline_their_float_sum_falls_short_of() -> None:
    asyncio.run(_steps_reach_a_deadline())


async def _steps_reach_a_deadline() -> None:
    clock = FakeClock()
    clock.advance(0.7)
    fired: list[str] = []
    clock.call_later(0.3, fired.append, "due")  # at 1.0; 0.7 + 3 x 0.1 is 0.9999999999999999
    for _ in range(3):
        clock.advance(0.1)
    await _turns()
    assert fired == ["due"]


def test_a_cancelled_timer_never_fires_even_once_due() -> None:
    asyncio.run(_a_cancelled_timer_never_fires_even_once_due())


async def _a_cancelled_timer_never_fires_even_once_due() -> None:
    clock = FakeClock()
    fired: list[int] = []
    before = clock.call_later(1, fired.append, 1)
    after = clock.call_later(1, fired.append, 2)
    before.cancel()
    clock.advance(1)  # ``after`` is handed to the loop ...
    after.cancel()  # ... and cancelled before the loop ran it
    await _turns()
    assert fired == []
    assert clock.pending() == []


def test_waiting_tells_a_timer_only_an_advance_fires() -> None:
    asyncio.run(_waiting_tells_a_timer_only_an_advance_fires())


async def _waiting_tells_a_timer_only_an_advance_fires() -> None:
    clock = FakeClock()
    later = clock.call_later(2, lambda: None)
    at_once = clock.call_later(0, lambda: None)  # runs by itself: nothing to advance through
    cancelled = clock.call_later(2, lambda: None)
    cancelled.cancel()
    assert clock.waiting(later)
    assert not clock.waiting(at_once) and not clock.waiting(cancelled)
    assert not clock.waiting(None)
    assert clock.left(later) == 2
    assert clock.left(at_once) is None and clock.left(cancelled) is None
    clock.advance(0.5)
    assert clock.left(later) == 1.5
    clock.advance(1.5)
    assert not clock.waiting(later)  # due now
    assert clock.left(later) is None
    await _turns()


def test_sleep_wakes_when_the_clock_passes_its_deadline() -> None:
    asyncio.run(_sleep_wakes_when_the_clock_passes_its_deadline())


async def _sleep_wakes_when_the_clock_passes_its_deadline() -> None:
    clock = FakeClock()
    woke: list[float] = []

    async def sleeper(seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(seconds)

    tasks = [asyncio.create_task(sleeper(s)) for s in (2.0, 1.0)]
    await _turns()
    clock.advance(1.0)
    await _turns()
    assert woke == [1.0]
    clock.advance(1.0)
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert woke == [1.0, 2.0]
    await asyncio.wait_for(clock.sleep(0), 5)  # no wait at all


def test_a_cancelled_sleep_leaves_no_timer() -> None:
    asyncio.run(_a_cancelled_sleep_leaves_no_timer())


async def _a_cancelled_sleep_leaves_no_timer() -> None:
    clock = FakeClock()
    task = asyncio.create_task(clock.sleep(5))
    await _turns()
    assert clock.pending() == [5.0]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.pending() == []


def test_advance_from_another_thread_runs_the_callbacks_on_their_loop() -> None:
    clock = FakeClock()
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    seen: list[tuple[str, bool]] = []
    done = threading.Event()

    async def app() -> None:
        def note(name: str) -> None:
            seen.append((name, threading.current_thread() is thread))
            if name == "slept":
                done.set()

        clock.call_later(2, note, "second")
        clock.call_later(1, note, "first")
        ready.set()
        await clock.sleep(3)
        note("slept")

    thread = threading.Thread(target=loop.run_until_complete, args=(app(),))
    thread.start()
    try:
        assert ready.wait(5)
        clock.advance(1.5)
        clock.advance(1.5)
        assert done.wait(5)
    finally:
        thread.join(5)
        loop.close()
    assert seen == [("first", True), ("second", True), ("slept", True)]
    clock.advance(10)  # nothing left to fire, and a closed loop is no error


def test_the_system_clock_is_the_real_time() -> None:
    asyncio.run(_the_system_clock_is_the_real_time())


async def _the_system_clock_is_the_real_time() -> None:
    clock: Clock = SystemClock()
    assert abs(clock.now() - time.time()) < 1
    assert abs(clock.monotonic() - time.monotonic()) < 1
    assert clock.utcnow().tzinfo is UTC
    fired = asyncio.Event()
    clock.call_later(0.01, fired.set)
    cancelled = clock.call_later(0.01, fired.clear)
    cancelled.cancel()
    await asyncio.wait_for(fired.wait(), 5)
    await clock.sleep(0.01)
    assert fired.is_set()


def test_a_fast_forward_clock_flows_in_real_time_and_jumps() -> None:
    asyncio.run(_a_fast_forward_clock_flows_in_real_time_and_jumps())


async def _a_fast_forward_clock_flows_in_real_time_and_jumps() -> None:
    clock = FastForwardClock()
    assert abs(clock.now() - time.time()) < 1
    fired: list[str] = []
    soon = asyncio.get_running_loop().create_future()
    clock.call_later(0.01, soon.set_result, None)  # real time runs it
    clock.call_later(30, fired.append, "b")
    clock.call_later(20, fired.append, "a")
    cancelled = clock.call_later(25, fired.append, "cancelled")
    far = clock.call_later(60, fired.append, "far")
    cancelled.cancel()
    await asyncio.wait_for(soon, 10)
    before = clock.monotonic()
    # From another thread, as a test does while the app runs in its own.
    jump = threading.Thread(target=clock.fast_forward, args=(30,))
    jump.start()
    jump.join()
    await _turns()
    assert fired == ["a", "b"]
    assert clock.monotonic() - before >= 30
    far.cancel()
    woke = asyncio.get_running_loop().create_task(clock.sleep(100))
    await _turns()
    clock.fast_forward(100)
    await asyncio.wait_for(woke, 10)
    assert fired == ["a", "b"]
    with pytest.raises(ValueError):
        clock.fast_forward(-1)
