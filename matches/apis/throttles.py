"""Rate limits on every endpoint: one budget per anonymous client address, one per account, and
scoped budgets for the expensive or guessable operations (logging in, registering, challenging,
asking for analysis, moving).

Counters are fixed windows kept in the Django cache with an atomic increment
(services/counters.py): with Redis as the cache (REDIS_URL set) every web process shares them;
without it each process counts alone. The rates come from settings
(`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, from the environment variables
`PEARLSITE_THROTTLE_<SCOPE>`); a rate of None switches that budget off. Failed logins to one
account are limited across every address by services/logins.py.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from matches.services import counters
from pearlsite import metrics

# Scopes an operation may name in its view's `throttle_scopes` ({"POST": "moves"}).
SCOPES = ("login", "registration", "challenge", "analysis", "moves", "chat", "report")


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
        limit = counters.parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(scope)) if scope else None
        if limit is None:
            return True
        allowed, self._wait = counters.spend(counters.throttle_name(scope, self.ident_for(request)), limit)
        metrics.throttle_checked(scope, allowed)
        return allowed

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


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
