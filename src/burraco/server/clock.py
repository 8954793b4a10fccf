"""Time as an input of the server: every timer, deadline and timestamp the hub and its tables
use for play comes from one ``Clock`` (``hub.clock``), never from ``time`` or the event loop
directly.

``SystemClock`` is the real one. ``FakeClock`` is time that moves only when told to
(``advance``): tests (and simulations) check what happens at a deadline without waiting for it
in real time, and without failing when the machine is busy. Both live here, the only server
module that reads the wall clock for play, so that nothing else can drift from the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

__all__ = ["Clock", "FakeClock", "FastForwardClock", "SystemClock", "TimerHandle"]

_SAME_INSTANT = 1e-6
"""A fake timer this close to the clock's time is due: advancing 0.1 three times reaches a
timer set 0.3 ahead, and a deadline computed from epoch times (whose floats are 2.4e-7 apart
today) is reached by advancing its delay, whatever the floating-point rounding says."""

_PRUNE_AT = 4096
"""A fake clock drops its cancelled timers when it holds more than this many."""


class TimerHandle(Protocol):
    """A timer set with ``Clock.call_later``."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the server asks of time."""

    def now(self) -> float:
        """Wall time in epoch seconds (``time.time()``): stored and sent timestamps, the
        chess clock, away deadlines."""
        ...

    def utcnow(self) -> datetime:
        """``now()`` as an aware UTC datetime (moderation, tournaments, ratings)."""
        ...

    def monotonic(self) -> float:
        """Seconds that never go back (``time.monotonic()``): rate limits, elapsed times."""
        ...

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> TimerHandle:
        """Run ``callback(*args)`` on the running event loop after ``delay`` seconds (as
        ``loop.call_later``); call it from that loop."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (as ``asyncio.sleep``)."""
        ...


class SystemClock:
    """The real clock: ``time`` and the running asyncio loop."""

    def now(self) -> float:
        return time.time()

    def utcnow(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass(order=True)
class _Due:
    """A fake timer or sleeper: due at ``at`` (fake monotonic seconds), ties in setting order."""

    at: float
    order: int
    loop: asyncio.AbstractEventLoop = field(compare=False)
    callback: Callable[..., object] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True

    def run(self) -> None:
        """On its loop: a timer cancelled after it came due (before its loop ran it) still
        never fires, as with asyncio's own handles."""
        if not self.cancelled:
            self.callback(*self.args)


class FakeClock:
    """Time that moves only with ``advance``. It starts at ``start`` (epoch seconds; the
    monotonic clock starts at 0). Timers and sleepers run on the loop that set them, which need
    not be the thread calling ``advance``: a test drives an app running in a thread of its own.

    A timer set with no delay runs at once (on the next turn of its loop), as a real one would.
    A callback runs after ``advance`` has moved the clock to its end: a timer it sets counts
    from there, so a chain of timers moves one link per ``advance`` (advance in steps to follow
    one)."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self._start = start
        self._elapsed = 0.0
        self._due: list[_Due] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._start + self._elapsed

    def utcnow(self) -> datetime:
        return datetime.fromtimestamp(self.now(), UTC)

    def monotonic(self) -> float:
        return self._elapsed

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> TimerHandle:
        loop = asyncio.get_running_loop()
        if delay <= 0:  # due already: it runs soon, as the loop's own would, with no advance
            return loop.call_soon(callback, *args)
        with self._lock:
            due = _Due(self._elapsed + delay, next(self._order), loop, callback, args)
            heapq.heappush(self._due, due)
            if len(self._due) > _PRUNE_AT:  # timers set again and again (a table's chess clock)
                self._due = [d for d in self._due if not d.cancelled]
                heapq.heapify(self._due)
        return due

    async def sleep(self, seconds: float) -> None:
        await _sleep_on(self, seconds)

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` and hand every timer and sleeper now due to its
        loop, in deadline order (callable from any thread)."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._elapsed += seconds
            fired = []
            while self._due and self._due[0].at <= self._elapsed + _SAME_INSTANT:
                due = heapq.heappop(self._due)
                if not due.cancelled:
                    fired.append(due)
        for due in fired:
            if due.loop.is_closed():
                continue  # its app has stopped
            try:
                due.loop.call_soon_threadsafe(due.run)
            except RuntimeError:  # closed in the meantime
                continue

    def waiting(self, handle: object) -> bool:
        """Whether ``handle`` is a timer of this clock that only an ``advance`` will fire (set
        with a delay, not yet due, not cancelled). A timer set with no delay is not: it runs on
        its loop's next turn by itself."""
        return self.left(handle) is not None

    def left(self, handle: object) -> float | None:
        """The seconds an ``advance`` must pass for ``handle`` to fire, when it is ``waiting``;
        otherwise None."""
        with self._lock:
            if (
                isinstance(handle, _Due)
                and not handle.cancelled
                and handle.at > self._elapsed + _SAME_INSTANT
            ):
                return handle.at - self._elapsed
            return None

    def pending(self) -> list[float]:
        """The seconds from now to each timer and sleeper not yet due and not cancelled, soonest
        first: a test can wait until the app has set the timer it is about to pass."""
        with self._lock:
            live = sorted(d for d in self._due if not d.cancelled)
            return [d.at - self._elapsed for d in live]


class _Jumpable:
    """A ``FastForwardClock``'s timer: a real one, which a jump of the clock may bring forward."""

    def __init__(  # noqa: PLR0917 (made in one place, FastForwardClock.call_later)
        self,
        clock: FastForwardClock,
        at: float,
        loop: asyncio.AbstractEventLoop,
        callback: Callable[..., object],
        args: tuple[Any, ...],
        order: int,
    ) -> None:
        self.clock = clock
        self.at = at
        self.order = order
        self.loop = loop
        self.callback = callback
        self.args = args
        self.done = False
        self.real: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.done = True
        if self.real is not None:
            self.real.cancel()
        self.clock._forget(self)

    def fire(self) -> None:
        """On its loop: by the real timer or brought forward by a jump, whichever comes first."""
        if self.done:
            return
        self.cancel()
        self.callback(*self.args)


class FastForwardClock:
    """The system clock, which a test can move ahead: time flows as the machine's does, and
    ``fast_forward`` jumps it on, firing every timer and waking every sleeper the jump passes
    (Playwright's page clock does the same for a page). For a real server a browser test
    watches: its bots and its pace run in real time, and a pause of several seconds between
    smazzate is passed in an instant. Timers run on the loop that set them; ``fast_forward``
    may be called from any thread."""

    def __init__(self) -> None:
        self._offset = 0.0
        self._timers: set[_Jumpable] = set()
        self._order = itertools.count()
        self._lock = threading.Lock()

    def now(self) -> float:
        return time.time() + self._offset

    def utcnow(self) -> datetime:
        return datetime.fromtimestamp(self.now(), UTC)

    def monotonic(self) -> float:
        return time.monotonic() + self._offset

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> TimerHandle:
        loop = asyncio.get_running_loop()
        timer = _Jumpable(self, self.monotonic() + delay, loop, callback, args, next(self._order))
        with self._lock:
            self._timers.add(timer)
        timer.real = loop.call_later(max(0.0, delay), timer.fire)
        return timer

    async def sleep(self, seconds: float) -> None:
        await _sleep_on(self, seconds)

    def fast_forward(self, seconds: float) -> None:
        """Jump ``seconds`` ahead: what falls due in them runs now (on its own loop)."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._offset += seconds
            reached = self.monotonic() + _SAME_INSTANT
            due = sorted(
                (t for t in self._timers if t.at <= reached), key=lambda t: (t.at, t.order)
            )
        for timer in due:
            with contextlib.suppress(RuntimeError):  # its loop has closed: its app stopped
                timer.loop.call_soon_threadsafe(timer.fire)

    def _forget(self, timer: _Jumpable) -> None:
        with self._lock:
            self._timers.discard(timer)


async def _sleep_on(clock: Clock, seconds: float) -> None:
    """A test clock's ``sleep``: a timer of its own wakes the sleeper."""
    if seconds <= 0:
        await asyncio.sleep(0)  # a turn of the loop, as asyncio.sleep(0) gives
        return
    woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    handle = clock.call_later(seconds, _wake, woken)
    try:
        await woken
    finally:
        handle.cancel()  # a cancelled sleeper leaves nothing behind to fire


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)
