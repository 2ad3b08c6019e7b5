"""The read-replica router (pearlsite/db_router.py): which reads may go to the replica, the
read-your-writes pin, the lag bound, the fallback when the replica fails, and that none of it is
active unless DATABASE_REPLICA_URL is set. On both databases (the lag query on PostgreSQL's own
functions); the replica itself is exercised in tests/cluster/."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import RequestFactory, override_settings
from django.urls import ResolverMatch, resolve

from matches.models import ApiToken, Match, Rating
from pearlsite import db_router
from pearlsite.db_router import (
    PRIMARY,
    REPLICA,
    ReadRoute,
    ReadRoutingMiddleware,
    choose,
)

from .test_settings import _load_settings

MEASURE_LAG = db_router.measure_lag        # the real one (the tests below set what it finds)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_health(monkeypatch):
    """A process that has not measured the replica yet; `lag` is what the next measurement finds."""
    health = db_router.ReplicaHealth()
    monkeypatch.setattr(db_router, "health", health)
    lag = {"seconds": 0.0}
    monkeypatch.setattr(db_router, "measure_lag", lambda alias=REPLICA: lag["seconds"])
    return lag


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(username="reader", password="reader-secret-pw")


def _request(method: str, path: str, user=None):
    request = getattr(RequestFactory(), method.lower())(path)
    request.resolver_match = resolve(path)
    if user is not None:
        request.user = user
    return request


def _route_through(request, model=Match):
    """The middleware around a view that reads `model`: where that read went."""
    seen = {}

    def view(req):
        middleware.process_view(req, None, (), {})
        seen["alias"] = choose(model, db_router._route.get())
        return seen["alias"]

    middleware = ReadRoutingMiddleware(view)
    middleware(request)
    return seen["alias"]


def test_off_unless_a_replica_is_configured():
    assert "replica" not in settings.DATABASES
    assert not settings.DATABASE_ROUTERS
    assert "pearlsite.db_router.ReadRoutingMiddleware" not in settings.MIDDLEWARE


def test_the_lag_query_answers_on_this_database():
    # PostgreSQL: the test database is a primary, in no recovery, so no lag; SQLite has none.
    assert MEASURE_LAG("default") == 0.0


def test_lists_and_pages_read_the_replica_and_the_players_own_match_the_primary():
    assert _route_through(_request("GET", "/api/v1/matches/")) == REPLICA
    assert _route_through(_request("GET", "/api/v1/games/hasami-shogi/leaderboard/"), Rating) == REPLICA
    assert _route_through(_request("GET", "/api/v1/players/someone/")) == REPLICA
    assert _route_through(_request("GET", "/api/v1/matches/1/")) == PRIMARY
    assert _route_through(_request("GET", "/api/v1/events/")) == PRIMARY
    assert _route_through(_request("POST", "/api/v1/matches/")) == PRIMARY
    # What authenticates a request reads the primary even in a list.
    assert _route_through(_request("GET", "/api/v1/matches/"), ApiToken) == PRIMARY
    assert _route_through(_request("GET", "/api/v1/matches/"), get_user_model()) == PRIMARY
    # No request at all (a Celery task, a command): the primary.
    assert choose(Match, None) == PRIMARY


@override_settings(REPLICA_PIN_SECONDS=0.5)
def test_a_user_who_wrote_reads_the_primary_until_the_pin_runs_out(player):
    other = get_user_model().objects.create_user(username="other", password="other-secret-pw")
    assert _route_through(_request("GET", "/api/v1/matches/", player)) == REPLICA
    _route_through(_request("POST", "/api/v1/challenges/", player))          # a write pins its author
    assert _route_through(_request("GET", "/api/v1/matches/", player)) == PRIMARY
    assert _route_through(_request("GET", "/api/v1/matches/", other)) == REPLICA   # only its author
    time.sleep(0.6)
    assert _route_through(_request("GET", "/api/v1/matches/", player)) == REPLICA


def test_a_replica_past_the_lag_bound_or_down_is_not_read(fresh_health):
    fresh_health["seconds"] = settings.REPLICA_MAX_LAG_SECONDS + 0.5
    assert _route_through(_request("GET", "/api/v1/matches/")) == PRIMARY
    fresh_health["seconds"] = 0.1
    # Measured at most every check interval: the lagging measurement stands until then.
    assert _route_through(_request("GET", "/api/v1/matches/")) == PRIMARY
    time.sleep(settings.REPLICA_CHECK_SECONDS + 0.05)
    assert _route_through(_request("GET", "/api/v1/matches/")) == REPLICA
    fresh_health["seconds"] = None                                     # does not answer
    time.sleep(settings.REPLICA_CHECK_SECONDS + 0.05)
    assert _route_through(_request("GET", "/api/v1/matches/")) == PRIMARY


def test_while_redis_cannot_say_every_signed_in_user_reads_the_primary(player, settings):
    from django.core.cache import cache

    from matches import redis_link

    from .test_throttles_without_redis import _closed_port

    cache.clear()
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    redis_link.breaker.succeeded()
    try:
        assert _route_through(_request("GET", "/api/v1/matches/", player)) == PRIMARY
        assert _route_through(_request("GET", "/api/v1/matches/")) == REPLICA     # anonymous: no pin to know
    finally:
        redis_link.breaker.succeeded()


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")
@override_settings(REPLICA_PIN_SECONDS=1.0)
def test_a_pin_is_shared_through_redis_with_the_other_web_nodes(player):
    """Another node has only Redis to know it by: its process cache does not have the pin."""
    from django.core.cache import cache

    db_router.pin(player.pk)
    cache.clear()                                   # as on another web node
    assert db_router.is_pinned(player.pk)
    assert _route_through(_request("GET", "/api/v1/matches/", player)) == PRIMARY


def test_a_read_the_replica_fails_is_answered_again_from_the_primary():
    request = _request("GET", "/api/v1/matches/")
    answers = []

    def view(req, *args, **kwargs):
        alias = choose(Match, db_router._route.get())
        answers.append(alias)
        if alias == REPLICA:
            raise OperationalError("the replica went away")
        return alias

    request.resolver_match = ResolverMatch(view, (), {}, url_name="match-list")

    def handler(req):
        middleware.process_view(req, view, (), {})
        try:
            return view(req)
        except OperationalError as exc:
            return middleware.process_exception(req, exc)

    middleware = ReadRoutingMiddleware(handler)
    assert middleware(request) == PRIMARY
    assert answers == [REPLICA, PRIMARY]
    assert not db_router.health.usable          # not read again before the next measurement


def test_other_errors_are_not_retried():
    request = _request("GET", "/api/v1/matches/")
    middleware = ReadRoutingMiddleware(lambda req: None)
    request.read_route = ReadRoute(tolerant=True, request=request, used_replica=True)
    assert middleware.process_exception(request, ValueError("a bug")) is None
    request.read_route = ReadRoute(tolerant=True, request=request, used_replica=False)
    assert middleware.process_exception(request, OperationalError("the primary")) is None


SHOW = ("import django; django.setup(); from django.conf import settings; "
        "print(sorted(settings.DATABASES), settings.DATABASE_ROUTERS, "
        "'pearlsite.db_router.ReadRoutingMiddleware' in settings.MIDDLEWARE, "
        "settings.DATABASES['default'].get('DISABLE_SERVER_SIDE_CURSORS', False))")


def test_a_replica_url_adds_the_alias_the_router_and_the_middleware(tmp_path):
    result = _load_settings(tmp_path, code=SHOW, DATABASE_URL="postgres://u@db:6432/x",
                            DATABASE_REPLICA_URL="postgres://u@replica:5432/x", DATABASE_TRANSACTION_POOLING="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['default', 'replica'] ['pearlsite.db_router.ReplicaRouter'] True True"
    result = _load_settings(tmp_path, code=SHOW, DATABASE_URL="postgres://u@db:5432/x")
    assert result.stdout.strip() == "['default'] [] False False"


@pytest.mark.parametrize("env, message", [
    ({"DATABASE_REPLICA_URL": "postgres://u@r/x"}, "DATABASE_REPLICA_URL needs DATABASE_URL on PostgreSQL"),
    ({"DATABASE_URL": "postgres://u@db/x", "DATABASE_REPLICA_URL": "sqlite:///x"}, "must be a postgres:// URL"),
    ({"PEARLSITE_REPLICA_MAX_LAG": "5", "PEARLSITE_REPLICA_PIN_SECONDS": "5"},
     "PEARLSITE_REPLICA_PIN_SECONDS must be at least"),
    ({"DATABASE_TRANSACTION_POOLING": "sometimes"}, "DATABASE_TRANSACTION_POOLING must be true or false"),
])
def test_junk_stops_the_start(tmp_path, env, message):
    result = _load_settings(tmp_path, **env)
    assert result.returncode != 0 and message in result.stderr


# Transaction pooling (pgbouncer, DATABASE_TRANSACTION_POOLING): a server connection serves one
# transaction, then another client's; nothing the code leaves on a connection may outlive it.
SESSION_STATE = ("pg_advisory_lock(", "pg_advisory_lock_shared(", "pg_try_advisory_lock(",
                 "pg_try_advisory_lock_shared(", "LISTEN ", "SET SESSION", "SET search_path", "set_config(",
                 "PREPARE ", "DECLARE ", "WITH HOLD", "CREATE TEMP")


def test_no_session_state_on_a_pooled_connection():
    root = Path(__file__).resolve().parents[2]
    found = []
    for app in ("matches", "ai_workers", "notifications", "community", "web", "pearlsite"):   # games: no SQL
        for path in (root / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            found += [f"{path.relative_to(root)}: {word}" for word in SESSION_STATE if word in text]
    assert not found
    # Every advisory lock the code takes is transaction-scoped.
    events = (root / "matches" / "services" / "events.py").read_text()
    dispatch = (root / "matches" / "services" / "dispatch.py").read_text()
    assert "pg_advisory_xact_lock" in events and "pg_advisory_xact_lock" in dispatch
