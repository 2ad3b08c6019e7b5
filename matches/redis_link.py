"""The request path's Redis connection (throttle counters, the login guard, readiness), behind a
circuit breaker: Redis is an optimisation here, never a dependency.

Every call has a short timeout (`PEARLSITE_REDIS_TIMEOUT`, no retries). After a failure the
breaker opens: for `PEARLSITE_REDIS_RETRY_SECONDS` no call goes to Redis at all (callers get
`Unavailable` at once and use their fallback), then one call tries again and closes it if Redis
answers. So an outage costs one timeout per process and retry period, not one per request.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, TypeVar

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)
T = TypeVar("T")


class Unavailable(Exception):
    """Redis is not configured, failed just now, or failed recently (the breaker is open)."""


class Breaker:
    """Open after a failure for `retry_seconds`; then one caller (not all at once) tries again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._retry_at = 0.0          # monotonic time of the next try; 0: closed
        self.failures = 0             # calls that failed since the last success

    def allows(self) -> bool:
        with self._lock:
            if self._retry_at == 0.0:
                return True
            now = time.monotonic()
            if now < self._retry_at:
                return False
            self._retry_at = now + settings.REDIS_RETRY_SECONDS    # this caller is the one try
            return True

    def failed(self, error: Exception) -> None:
        with self._lock:
            first = self.failures == 0
            self.failures += 1
            self._retry_at = time.monotonic() + settings.REDIS_RETRY_SECONDS
        if first:
            log.warning("Redis unavailable (%s): rate limits %s until it answers again (tried every %s s)",
                        error, _fallback_words(), settings.REDIS_RETRY_SECONDS)

    def succeeded(self) -> None:
        with self._lock:
            was_down, self.failures, self._retry_at = self.failures > 0, 0, 0.0
        if was_down:
            log.warning("Redis answers again: rate limits are shared again")

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._retry_at != 0.0


def _fallback_words() -> str:
    return ("are not enforced" if settings.RATE_LIMITS_WITHOUT_REDIS == "open"
            else "are counted by each process alone")


breaker = Breaker()
_clients: dict[tuple[str, float], redis.Redis] = {}
_clients_lock = threading.Lock()


def client() -> redis.Redis:
    """This process's client for the configured URL (redis-py reconnects after a fork or a lost
    connection by itself)."""
    key = (settings.REDIS_URL, settings.REDIS_TIMEOUT)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = redis.Redis.from_url(key[0], socket_timeout=key[1], socket_connect_timeout=key[1],
                                                 retry=Retry(NoBackoff(), 0))
        return _clients[key]


def run(operation: Callable[[redis.Redis], T]) -> T:
    """`operation(client)`, or `Unavailable` (at once while the breaker is open)."""
    if not settings.REDIS_URL:
        raise Unavailable("REDIS_URL is not set")
    if not breaker.allows():
        raise Unavailable("Redis failed recently")
    try:
        result = operation(client())
    except redis.RedisError as exc:
        breaker.failed(exc)
        raise Unavailable(str(exc)) from exc
    breaker.succeeded()
    return result


def ping() -> bool:
    """Whether Redis answers now, asked directly (readiness: the breaker is neither used nor moved)."""
    try:
        return bool(client().ping())
    except redis.RedisError:
        return False
