"""Rate limits on every endpoint: one budget per anonymous client address, one per account, and
scoped budgets for the expensive or guessable operations (logging in, registering, challenging,
asking for analysis, moving).

Counters are fixed windows kept in the Django cache with an atomic increment: with Redis as the
cache (REDIS_URL set) every web process shares them; without it each process counts alone. The
rates come from settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, from the environment
variables `PEARLSITE_THROTTLE_<SCOPE>`); a rate of None switches that budget off.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

# Scopes an operation may name in its view's `throttle_scopes` ({"POST": "moves"}).
SCOPES = ("login", "registration", "challenge", "analysis", "moves")
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_clock = time.time      # tests replace it


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """'10/min' → (10, 60); None → None (no limit)."""
    if rate is None:
        return None
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[0]]


class _WindowThrottle(BaseThrottle, ABC):
    """At most N requests per fixed window of the scope's period, counted per client."""

    @abstractmethod
    def scope_for(self, request: Request, view) -> str | None:
        """The rate's scope for this request, or None when it is not limited here."""

    def ident_for(self, request: Request) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"user:{user.pk}"
        return f"ip:{self.get_ident(request)}"

    def allow_request(self, request: Request, view) -> bool:
        scope = self.scope_for(request, view)
        limit = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(scope)) if scope else None
        if limit is None:
            return True
        count, period = limit
        now = _clock()
        window = int(now // period)
        key = f"throttle:{scope}:{self.ident_for(request)}:{window}"
        used = _increment(key, timeout=period + 1)
        self._wait = (window + 1) * period - now
        return used <= count

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


def _increment(key: str, timeout: int) -> int:
    """Atomically count one more request under `key` (created at 1 if absent or just expired)."""
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


class AnonThrottle(_WindowThrottle):
    """Every request without credentials, per client address."""

    def scope_for(self, request: Request, view) -> str | None:
        return None if request.user and request.user.is_authenticated else "anon"


class UserThrottle(_WindowThrottle):
    """Every request with credentials, per account."""

    def scope_for(self, request: Request, view) -> str | None:
        return "user" if request.user and request.user.is_authenticated else None


class ScopedThrottle(_WindowThrottle):
    """The operation's own budget, named by its view: `throttle_scopes = {"POST": "login"}`."""

    def scope_for(self, request: Request, view) -> str | None:
        return getattr(view, "throttle_scopes", {}).get(request.method)
