"""Token buckets, for login attempts (per address, and per address and name) and messages (per
connection); the growing delay of a name that keeps failing to log in.

A bucket reads the hub's clock (``monotonic``, given by whoever makes it: server/clock.py), so
that a test with a fake clock refills it by advancing time rather than waiting."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Bucket:
    rate: float
    """Tokens added per second."""
    burst: float
    tokens: float
    stamp: float
    monotonic: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    """The clock ``take`` reads when not told the time (the hub's: ``Clock.monotonic``)."""

    def take(self, now: float | None = None) -> bool:
        now = self.monotonic() if now is None else now
        elapsed = max(0.0, now - self.stamp)  # a clock that goes back adds nothing
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.stamp = max(self.stamp, now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token, as of the last ``take`` (0 when one is there): what a
        refusal tells the client to wait before it sends again."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else float("inf")


class RateLimiter:
    """Many buckets by key (kept small: buckets that are full again are forgotten)."""

    def __init__(
        self, *, rate: float, burst: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.monotonic = monotonic
        self._buckets: dict[str, Bucket] = {}

    async def check(self, key: str) -> bool:
        """``allow`` as the cluster's shared limiters are asked (``cluster/limits.py``)."""
        return self.allow(key)

    def allow(self, key: str, now: float | None = None) -> bool:
        now = self.monotonic() if now is None else now
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._prune(now)
            bucket = self._buckets[key] = Bucket(
                self.rate, self.burst, self.burst, now, self.monotonic
            )
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        full = [
            k for k, b in self._buckets.items() if b.tokens + (now - b.stamp) * b.rate >= b.burst
        ]
        for key in full:
            del self._buckets[key]


class Limiter(Protocol):
    """A limit by key: this process's own (``RateLimiter``) or a cluster's (in Redis)."""

    async def check(self, key: str) -> bool: ...


class FailureDelay:
    """Failed logins per name, from anywhere: a name that keeps failing is answered ever more
    slowly (never refused), so a spread-out guessing attack is slowed while the owner, from
    his own address, still gets in (issue 19, M8). A name's count is forgotten after a quiet
    ``memory`` seconds, or on a successful login."""

    def __init__(self, *, free: int = 5, first: float = 0.5, most: float = 4.0) -> None:
        self.free = free
        """Failures that cost nothing."""
        self.first = first
        self.most = most
        self.memory = 900.0
        self._failures: dict[str, tuple[int, float]] = {}

    def delay(self, key: str, now: float | None = None) -> float:
        """Seconds to wait before checking a login of ``key``: 0 for the first ``free``
        failures, then doubling from ``first`` up to ``most``."""
        count = self._count(key, time.monotonic() if now is None else now)
        if count < self.free:
            return 0.0
        return float(min(self.most, self.first * 2 ** (count - self.free)))

    def failed(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if len(self._failures) > 10_000:
            self._failures = {k: v for k, v in self._failures.items() if now - v[1] < self.memory}
        self._failures[key] = (self._count(key, now) + 1, now)

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)

    def _count(self, key: str, now: float) -> int:
        count, stamp = self._failures.get(key, (0, now))
        return count if now - stamp < self.memory else 0
