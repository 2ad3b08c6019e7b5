"""Fixed-window counters, shared by every web process in Redis (REDIS_URL set), else per process.
The throttles and the per-account login guard count with them.

Redis is an optimisation, not a dependency (matches/redis_link.py: short timeouts and a circuit
breaker): while it is down or recovering, `PEARLSITE_RATE_LIMITS_WITHOUT_REDIS` decides. `local`
(the default) counts in this process's memory, so each limit still holds per process (a client
spread over N processes gets up to N times its budget); `open` lets every request through. Either
way a warning is logged when Redis fails and when it answers again (docs/security.md)."""
from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import caches

from matches import redis_link

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PREFIX = "pearlsite:counter:"
_LOCAL = "default"          # the Django cache: per-process memory (settings.CACHES)
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


def _shared_increment(client, key: str, timeout: int) -> int:
    # One round trip: INCR creates the key at 1; EXPIRE NX sets its lifetime only then.
    pipe = client.pipeline(transaction=False)
    pipe.incr(_PREFIX + key)
    pipe.expire(_PREFIX + key, timeout, nx=True)
    return pipe.execute()[0]


def _local_increment(key: str, timeout: int) -> int:
    local = caches[_LOCAL]
    try:
        return local.incr(key)
    except ValueError:
        if local.add(key, 1, timeout):
            return 1
        return local.incr(key)       # another thread created it meanwhile


def increment(key: str, timeout: int) -> int | None:
    """Atomically count one more under `key` (created at 1 if absent or just expired); None when
    Redis is unavailable and the fallback is `open` (nothing counted)."""
    if settings.COUNTERS_IN_REDIS:
        try:
            return redis_link.run(lambda client: _shared_increment(client, key, timeout))
        except redis_link.Unavailable:
            if settings.RATE_LIMITS_WITHOUT_REDIS == "open":
                return None
    return _local_increment(key, timeout)


def current(key: str) -> int | None:
    """The count under `key` (0 if none); None when Redis is unavailable and the fallback is `open`."""
    if settings.COUNTERS_IN_REDIS:
        try:
            return int(redis_link.run(lambda client: client.get(_PREFIX + key)) or 0)
        except redis_link.Unavailable:
            if settings.RATE_LIMITS_WITHOUT_REDIS == "open":
                return None
    return int(caches[_LOCAL].get(key) or 0)


def throttle_name(scope: str, ident: str) -> str:
    """The counter of a rate-limit scope for one client (`user:<id>` or `ip:<address>`), shared
    by the API's throttles and the web form's log-in limit."""
    return f"throttle:{scope}:{ident}"


def spend(name: str, limit: tuple[int, int]) -> tuple[bool, float]:
    """Count one more under `name` in the current window of `limit` (count, period): whether the
    count is still within it, and the seconds until the window ends."""
    count, period = limit
    number, remaining = window(period)
    used = increment(f"{name}:{number}", timeout=period + 1)
    return used is None or used <= count, remaining


def spent(name: str, limit: tuple[int, int]) -> tuple[bool, float]:
    """Whether `name` has used up its count in the current window, and the seconds left in it."""
    count, period = limit
    number, remaining = window(period)
    used = current(f"{name}:{number}")
    return used is not None and used >= count, remaining
