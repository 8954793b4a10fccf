"""Token buckets, for login attempts (per address and per name) and messages (per connection)."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class Bucket:
    rate: float
    """Tokens added per second."""
    burst: float
    tokens: float
    stamp: float

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        elapsed = max(0.0, now - self.stamp)  # a clock that goes back adds nothing
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.stamp = max(self.stamp, now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RateLimiter:
    """Many buckets by key (kept small: buckets that are full again are forgotten)."""

    def __init__(self, *, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, Bucket] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._prune(now)
            bucket = self._buckets[key] = Bucket(self.rate, self.burst, self.burst, now)
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        full = [
            k for k, b in self._buckets.items() if b.tokens + (now - b.stamp) * b.rate >= b.burst
        ]
        for key in full:
            del self._buckets[key]
