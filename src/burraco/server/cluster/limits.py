"""Limits shared by every process of a cluster: the same token buckets as ``ratelimit.py``,
kept in Redis and updated by one Lua script, so that an account's chat lines or an address's
logins count once however many processes they reach.

The script reads Redis's own clock (``TIME``), so the machines' clocks need not agree. It
stores the stamp to the microsecond (Lua's ``tostring`` keeps 14 digits: 100 µs of a stamp in
seconds since 1970, rounded up as often as down, which refused a burst of logins a limit of
millions a minute should have let through: the cluster benchmark's guests). A bucket
is an expiring hash: Redis keeps nothing that matters for long (a full bucket needs no key).
When Redis cannot be reached the process falls back to its own buckets for that while (each
process then limits on its own: looser, never open), and says so once in its log.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import RedisError

from ..ratelimit import RateLimiter

log = logging.getLogger("burraco.cluster")

_SCRIPT = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local saved = redis.call('HMGET', KEYS[1], 't', 's')
local tokens = tonumber(saved[1]) or burst
local stamp = tonumber(saved[2]) or now
if now > stamp then
  tokens = math.min(burst, tokens + (now - stamp) * rate)
  stamp = now
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 's', string.format('%.6f', stamp))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return allowed
"""


class SharedLimiter:
    def __init__(self, redis: Any, prefix: str, *, rate: float, burst: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.rate = rate
        self.burst = burst
        self.local = RateLimiter(rate=rate, burst=burst)
        """Used while Redis is away."""
        self._script = redis.register_script(_SCRIPT)
        self._away = False

    async def check(self, key: str) -> bool:
        try:
            allowed = await self._script(
                keys=[f"{self.prefix}:{key}"], args=[repr(self.rate), repr(self.burst)]
            )
        except (RedisError, OSError) as error:
            if not self._away:
                log.warning("shared limits: Redis away (%s); limiting in this process", error)
                self._away = True
            return self.local.allow(key)
        self._away = False
        return bool(allowed)
