"""Fixed-window counters in the Django cache, shared by every web process when the cache is Redis
(REDIS_URL set); without it each process counts alone. The throttles and the per-account login
guard count with them."""
from __future__ import annotations

import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
clock = time.time      # tests replace it


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """'10/min' → (10, 60); None → None (no limit)."""
    if rate is None:
        return None
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[0]]


def window(period: int) -> tuple[int, float]:
    """The current window's number and the seconds until the next one starts."""
    now = clock()
    number = int(now // period)
    return number, (number + 1) * period - now


def increment(key: str, timeout: int) -> int:
    """Atomically count one more under `key` (created at 1 if absent or just expired)."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        # One round trip: INCR creates the key at 1; EXPIRE NX sets its lifetime only then.
        full_key = backend.make_and_validate_key(key)
        pipe = backend._cache.get_client(full_key, write=True).pipeline(transaction=False)
        pipe.incr(full_key)
        pipe.expire(full_key, timeout, nx=True)
        return pipe.execute()[0]
    try:
        return cache.incr(key)
    except ValueError:
        if cache.add(key, 1, timeout):
            return 1
        return cache.incr(key)       # another process created it meanwhile


def throttle_name(scope: str, ident: str) -> str:
    """The counter of a rate-limit scope for one client (`user:<id>` or `ip:<address>`), shared
    by the API's throttles and the web form's log-in limit."""
    return f"throttle:{scope}:{ident}"


def spend(name: str, limit: tuple[int, int]) -> tuple[bool, float]:
    """Count one more under `name` in the current window of `limit` (count, period): whether the
    count is still within it, and the seconds until the window ends."""
    count, period = limit
    number, remaining = window(period)
    return increment(f"{name}:{number}", timeout=period + 1) <= count, remaining


def spent(name: str, limit: tuple[int, int]) -> tuple[bool, float]:
    """Whether `name` has used up its count in the current window, and the seconds left in it."""
    count, period = limit
    number, remaining = window(period)
    return int(cache.get(f"{name}:{number}") or 0) >= count, remaining
