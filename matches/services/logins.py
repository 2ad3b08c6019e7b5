"""Password guessing against one account from many addresses: failed logins are counted per
username (in any case) across every address, through the API and the web form alike; once an
account's budget of failures (`settings.LOGIN_FAILURES`, environment `PEARLSITE_LOGIN_FAILURES`,
default 20/hour) is spent, logging in to it is refused with 429 `throttled` until the window ends,
with the right password too, so the guessing stops. The per-address `login` throttle limits
attempts at many accounts from one address."""
from __future__ import annotations

import hashlib

from django.conf import settings

from matches.errors import ServiceError

from . import counters


def _budget() -> tuple[int, int] | None:
    return counters.parse_rate(settings.LOGIN_FAILURES)


def _name(username: str) -> str:
    # Hashed: a username may hold any character, and cache keys should not.
    digest = hashlib.sha256(username.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"login-failures:{digest}"


def login_check(username: str) -> None:
    """Refuse (429 `throttled`, `detail.retry_after`) while `username` has no failures left."""
    budget = _budget()
    if budget is None:
        return
    used_up, remaining = counters.spent(_name(username), budget)
    if used_up:
        raise _refused("too many failed logins to this account", remaining)


def login_failed(username: str) -> None:
    """Count one failed login to `username`."""
    budget = _budget()
    if budget is not None:
        counters.spend(_name(username), budget)


def login_attempt_from(address: str) -> None:
    """Count one login attempt from `address` in the API's per-address `login` budget (the same
    counter `POST auth/token/` spends), refusing with 429 `throttled` once it is spent; for the
    web form, which DRF's throttles do not cover."""
    budget = counters.parse_rate(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get("login"))
    if budget is None:
        return
    allowed, remaining = counters.spend(counters.throttle_name("login", f"ip:{address}"), budget)
    if not allowed:
        raise _refused("too many logins from this address", remaining)


def _refused(why: str, remaining: float) -> ServiceError:
    return ServiceError("throttled", f"{why}; try again later",
                        detail={"retry_after": int(remaining + 0.999)})
