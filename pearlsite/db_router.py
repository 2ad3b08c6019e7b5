"""Reads that tolerate lag go to a streaming read replica (docs/scaling.md §7); everything else,
and every write, goes to the primary. Active only when DATABASE_REPLICA_URL is set (settings.py adds
the `replica` alias, this router and `ReadRoutingMiddleware`); without it nothing here runs.

Which reads: the views named in `REPLICA_READ_VIEWS` (leaderboards, player pages, lists, exports,
the catalogue), answered to a safe method (GET, HEAD). A player's own match, events and inbox, every
write request and every Celery task read the primary. Accounts, sessions and tokens are always read
on the primary (a token made a moment ago must work at once).

Read-your-writes: every unsafe request (POST, PUT, PATCH, DELETE) by a signed-in user pins that
user to the primary for `REPLICA_PIN_SECONDS`, shared by every web node through Redis (the process
cache without REDIS_URL). While Redis cannot say whether a user is pinned, the user reads the primary.

Lag: each process measures the replica at most every `REPLICA_CHECK_SECONDS`: 0 when it streams
from the primary and has replayed all the WAL it received, else the age of the last transaction it
replayed (`pg_last_xact_replay_timestamp()`). Past `REPLICA_MAX_LAG_SECONDS`, or when it does not answer,
reads go to the primary until a later check finds it back. The pin outlasts the lag bound and one
check interval (settings.py refuses less), so a user who wrote reads either the primary or a
replica that has replayed their write. A read the replica fails in the middle of is answered again
from the primary.
"""
from __future__ import annotations

import contextvars
import logging
import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections

from matches import redis_link

from .middleware import SyncAndAsyncMiddleware, in_pool

log = logging.getLogger(__name__)
PRIMARY, REPLICA = "default", "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Read on the primary whatever the view: what authenticates a request must see the latest writes.
PRIMARY_APPS = frozenset({"auth", "sessions", "contenttypes", "admin"})
PRIMARY_MODELS = frozenset({"matches.ApiToken"})
_PIN_PREFIX = "pearlsite:pin:"


@dataclass
class ReadRoute:
    """One request's routing: whether its view tolerates lag, the request (for its user, known only
    after authentication), the decision once taken, and whether the replica answered any of it."""
    tolerant: bool
    request: object = None
    decided: str | None = None
    used_replica: bool = False
    forced_primary: bool = False
    reasons: list = field(default_factory=list)


_route: contextvars.ContextVar[ReadRoute | None] = contextvars.ContextVar("pearlsite_read_route", default=None)


# --- replica health ----------------------------------------------------------------------------

# Caught up means: streaming from the primary now, and everything received replayed. A replica whose
# receiver is not streaming (cut off from the primary) is as old as the last transaction it replayed.
LAG_SQL = ("SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0.0 "
           "WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() "
           "AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN 0.0 "
           "ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 1e9) END")


def measure_lag(alias: str = REPLICA) -> float | None:
    """Seconds the replica is behind (0: it has replayed everything it received, or it is no
    replica), or None when it does not answer. Other databases than PostgreSQL have no lag."""
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute(LAG_SQL if connection.vendor == "postgresql" else "SELECT 0.0")
            return float(cursor.fetchone()[0])
    except DatabaseError:
        connection.close_if_unusable_or_obsolete()
        try:
            connection.close()
        except DatabaseError:
            pass
        return None


class ReplicaHealth:
    """This process's view of the replica: usable or not, measured at most every check interval by
    one thread at a time (the others use the last measurement meanwhile)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._checked_at = float("-inf")
        self._checking = False
        self.usable = False
        self.lag: float | None = None

    def is_usable(self) -> bool:
        now = time.monotonic()
        with self._lock:
            if self._checking or now - self._checked_at < settings.REPLICA_CHECK_SECONDS:
                return self.usable
            self._checking = True
        try:
            lag = measure_lag()
        finally:
            with self._lock:
                self._checking = False
                self._checked_at = time.monotonic()
        usable = lag is not None and lag <= settings.REPLICA_MAX_LAG_SECONDS
        if usable != self.usable:
            log.warning("read replica %s (lag %s s, bound %s s)", "in use" if usable else "not used: primary reads",
                        "unknown" if lag is None else round(lag, 3), settings.REPLICA_MAX_LAG_SECONDS)
        self.usable, self.lag = usable, lag
        return usable

    def failed(self) -> None:
        """A read on the replica failed: not used again before the next check."""
        with self._lock:
            self.usable, self._checked_at = False, time.monotonic()


health = ReplicaHealth()


# --- read-your-writes pins ---------------------------------------------------------------------

def pin(user_id: int) -> None:
    """The user reads the primary for the next `REPLICA_PIN_SECONDS`: on every web node (Redis)
    and, whatever Redis does, on this one (the process cache)."""
    key, seconds = f"{_PIN_PREFIX}{user_id}", settings.REPLICA_PIN_SECONDS
    cache.set(key, 1, seconds)
    if settings.REDIS_URL:
        try:
            redis_link.run(lambda client: client.set(key, 1, px=int(seconds * 1000)))
        except redis_link.Unavailable:
            pass                 # is_pinned() answers "pinned" while Redis cannot say otherwise


def is_pinned(user_id: int) -> bool:
    key = f"{_PIN_PREFIX}{user_id}"
    if cache.get(key) is not None:
        return True
    if settings.REDIS_URL:
        try:
            return bool(redis_link.run(lambda client: client.exists(key)))
        except redis_link.Unavailable:
            return True
    return False


# --- the router --------------------------------------------------------------------------------

def _label(model) -> tuple[str, str]:
    return model._meta.app_label, model._meta.label


def choose(model, route: ReadRoute | None) -> str:
    """PRIMARY or REPLICA for a read of `model` in a request routed by `route` (None: no request)."""
    if route is None or not route.tolerant or route.forced_primary:
        return PRIMARY
    app, label = _label(model)
    if app in PRIMARY_APPS or label in PRIMARY_MODELS:
        return PRIMARY
    if route.decided is None:
        user = getattr(route.request, "user", None)
        if user is not None and user.is_authenticated and is_pinned(user.pk):
            route.decided = PRIMARY
        else:
            route.decided = REPLICA if health.is_usable() else PRIMARY
    if route.decided == REPLICA:
        route.used_replica = True
    return route.decided


class ReplicaRouter:
    """Django database router (settings.DATABASE_ROUTERS when DATABASE_REPLICA_URL is set)."""

    def db_for_read(self, model, **hints):
        return choose(model, _route.get())

    def db_for_write(self, model, **hints):
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True              # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY     # the replica follows the primary's schema through its WAL


def _tolerant(request) -> bool:
    match = getattr(request, "resolver_match", None)
    return (request.method in SAFE_METHODS and match is not None
            and match.url_name in settings.REPLICA_READ_VIEWS)


class ReadRoutingMiddleware(SyncAndAsyncMiddleware):
    """Marks each request lag-tolerant or not (by its view, once resolved), pins a user who writes,
    and answers again from the primary a read the replica failed in the middle of."""

    def call(self, request):
        # Set for the thread and left there: a streamed answer (an export) is read from the
        # database after this returns, in the same thread; the thread's next request replaces it.
        route = ReadRoute(tolerant=False, request=request)
        request.read_route = route
        _route.set(route)
        response = self.get_response(request)
        self._pin_writer(request)
        return response

    async def acall(self, request):
        route = ReadRoute(tolerant=False, request=request)
        request.read_route = route
        token = _route.set(route)
        try:
            response = await self.get_response(request)
        finally:
            _route.reset(token)
        if request.method not in SAFE_METHODS:
            await in_pool(self._pin_writer, request)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        route = getattr(request, "read_route", None)
        if route is not None:
            route.tolerant = _tolerant(request)

    def process_exception(self, request, exception):
        route = getattr(request, "read_route", None)
        if route is None or not route.used_replica or not isinstance(exception, DatabaseError):
            return None
        log.warning("a read on the replica failed (%s): answered from the primary", exception)
        health.failed()
        if REPLICA in settings.DATABASES:
            connections[REPLICA].close_if_unusable_or_obsolete()
        route.forced_primary, route.decided, route.used_replica = True, PRIMARY, False
        match = request.resolver_match
        return match.func(request, *match.args, **match.kwargs)

    @staticmethod
    def _pin_writer(request) -> None:
        user = getattr(request, "user", None)
        if request.method not in SAFE_METHODS and user is not None and user.is_authenticated:
            pin(user.pk)
