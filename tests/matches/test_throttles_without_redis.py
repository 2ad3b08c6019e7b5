"""Rate limits while Redis is down: requests are answered (never a 500), each limit falls back to
per-process counting or to no limit (`PEARLSITE_RATE_LIMITS_WITHOUT_REDIS`), and the circuit
breaker keeps a dead Redis from costing every request a timeout."""
import socket

import pytest

from matches import redis_link
from matches.services import counters

pytestmark = pytest.mark.django_db


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]          # nothing listens there once the probe is closed


@pytest.fixture
def redis_down(settings):
    """Counters configured for a Redis that refuses connections; a fresh breaker and counters."""
    from django.core.cache import cache

    cache.clear()
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    settings.COUNTERS_IN_REDIS = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        scope: None for scope in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
    redis_link.breaker.succeeded()
    yield settings
    redis_link.breaker.succeeded()


def _rates(settings, **small):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **small}}


def test_reads_moves_and_sign_in_are_answered_and_limits_count_per_process(redis_down, anon, as_alice, alice):
    _rates(redis_down, anon="2/min", moves="1/min")
    assert anon.get("/api/v1/games/").status_code == 200
    created = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]},
                            format="json")
    assert created.status_code == 201
    match = created.json()["match"]
    assert as_alice.post(f"/api/v1/matches/{match}/moves/", {"move": "e1-e5", "ply": 0},
                         format="json").status_code == 201
    assert as_alice.post(f"/api/v1/matches/{match}/moves/", {"move": "a1-a2"},
                         format="json").status_code == 429                # the local count holds
    token = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"}, format="json")
    assert token.status_code == 200
    assert anon.get("/api/v1/games/").status_code == 429                 # anon: 2 used (a read, a login)
    assert redis_link.breaker.is_open


def test_open_fallback_lets_requests_through(redis_down, anon):
    redis_down.RATE_LIMITS_WITHOUT_REDIS = "open"
    _rates(redis_down, anon="1/min")
    for _ in range(3):
        assert anon.get("/api/v1/games/").status_code == 200


def test_the_failed_login_guard_falls_back_too(redis_down, anon, alice):
    redis_down.LOGIN_FAILURES = "2/hour"
    for _ in range(2):
        assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "guess"},
                         format="json").status_code == 400
    refused = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"


def test_the_breaker_asks_redis_once_per_retry_period(redis_down, monkeypatch):
    calls = []
    real = redis_link.client

    def counted():
        calls.append(1)
        return real()

    monkeypatch.setattr(redis_link, "client", counted)
    for _ in range(20):
        assert counters.spend("throttle:test:x", (100, 60))[0]
    assert len(calls) == 1                         # the first failure opened the breaker
    clock = {"now": 0.0}
    monkeypatch.setattr(redis_link.time, "monotonic", lambda: clock["now"])
    redis_link.breaker.failed(ConnectionError("again"))
    clock["now"] = redis_down.REDIS_RETRY_SECONDS + 1                    # the period is over:
    for _ in range(5):
        counters.spend("throttle:test:x", (100, 60))
    assert len(calls) == 2                         # one caller tried, the others did not wait for it


@pytest.mark.redis
@pytest.mark.skipif(not __import__("os").environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_the_breaker_closes_when_redis_answers(redis_down):
    import os
    import time

    redis_down.REDIS_RETRY_SECONDS = 0.05
    counters.spend("throttle:test:y", (100, 60))
    assert redis_link.breaker.is_open
    redis_down.REDIS_URL = os.environ["REDIS_URL"]
    time.sleep(0.1)                                                    # the retry period is over
    assert counters.spend("throttle:test:y", (100, 60))[0]
    assert not redis_link.breaker.is_open
