"""Rate limits: per address, per account and per operation, with 429, Retry-After and the error body."""
import os
import uuid

import pytest

from matches.apis import throttles
from matches.services import counters

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    """Set some budgets small (the rest unlimited) on a fresh counter store and a frozen clock."""
    from django.core.cache import cache

    cache.clear()
    clock = {"now": 1_000_000.0}
    original = counters.clock
    counters.clock = lambda: clock["now"]

    def set_rates(**small):
        base = {scope: None for scope in ("anon", "user", *throttles.SCOPES)}
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**base, **small}}
        return clock

    yield set_rates
    counters.clock = original


def _assert_throttled(response, retry_after=None):
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled" and body["message"]
    assert int(response["Retry-After"]) == body["detail"]["retry_after"] > 0
    if retry_after is not None:
        assert body["detail"]["retry_after"] == retry_after


def test_login_attempts_are_limited_per_address(rates, anon, alice):
    rates(login="3/min")
    for _ in range(3):
        assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "wrong-guess"},
                         format="json").status_code == 400
    refused = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"}, format="json")
    _assert_throttled(refused, retry_after=20)          # the window of the frozen clock ends in 20 s
    elsewhere = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"},
                          format="json", REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 200


def test_the_budget_comes_back_with_the_next_window(rates, anon, alice):
    clock = rates(login="1/min")
    body = {"username": "alice", "password": "alice-secret-pw"}
    assert anon.post("/api/v1/auth/token/", body, format="json").status_code == 200
    _assert_throttled(anon.post("/api/v1/auth/token/", body, format="json"))
    clock["now"] += 60
    assert anon.post("/api/v1/auth/token/", body, format="json").status_code == 200


def test_registrations_are_limited(rates, anon):
    rates(registration="2/hour")
    for name in ("erin", "fred"):
        assert anon.post("/api/v1/accounts/", {"username": name, "password": "long-enough-pw"},
                         format="json").status_code == 201
    _assert_throttled(anon.post("/api/v1/accounts/", {"username": "gina", "password": "long-enough-pw"},
                                format="json"))
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="gina").exists()


def test_anonymous_budget_is_per_address_and_spares_accounts(rates, anon, as_alice):
    rates(anon="2/min")
    assert anon.get("/api/v1/games/").status_code == 200
    assert anon.get("/api/v1/matches/").status_code == 200
    _assert_throttled(anon.get("/api/v1/games/"))
    assert as_alice.get("/api/v1/games/").status_code == 200


def test_account_budget_is_per_account(rates, as_alice, as_bob):
    rates(user="2/min")
    assert as_alice.get("/api/v1/events/").status_code == 200
    assert as_alice.get("/api/v1/games/").status_code == 200
    _assert_throttled(as_alice.get("/api/v1/events/"))
    assert as_bob.get("/api/v1/events/").status_code == 200


@pytest.mark.parametrize("scope,method,path,body", [
    ("challenge", "post", "/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]}),
    ("analysis", "post", "/api/v1/matches/{match}/analysis/", {}),
    ("moves", "post", "/api/v1/matches/{match}/moves/", {"move": "a1-a9"}),
])
def test_scoped_operations_count_only_themselves(rates, as_alice, scope, method, path, body):
    created = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]},
                            format="json").json()
    rates(**{scope: "1/min"})["now"] += 60        # a fresh window: the set-up does not count
    url = path.format(match=created["match"])
    first = getattr(as_alice, method)(url, body, format="json")
    assert first.status_code != 429
    _assert_throttled(getattr(as_alice, method)(url, body, format="json"))
    assert as_alice.get(f"/api/v1/matches/{created['match']}/").status_code == 200


@pytest.mark.redis
@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_counters_in_redis_are_shared_between_processes(rates, settings, anon):
    """Two web processes see one counter: a second Redis connection reads what the first wrote."""
    import redis

    settings.REDIS_URL, settings.COUNTERS_IN_REDIS = os.environ["REDIS_URL"], True
    rates(anon="2/min")["now"] = 60.0 * (uuid.uuid4().int % 10**9)     # a window no other run used
    other_process = redis.Redis.from_url(os.environ["REDIS_URL"])
    key = f"pearlsite:counter:throttle:anon:ip:127.0.0.1:{int(counters.clock() // 60)}"
    try:
        assert anon.get("/api/v1/games/").status_code == 200
        assert int(other_process.get(key)) == 1
        assert 0 < other_process.ttl(key) <= 61
        other_process.incr(key)          # the other process served one more
        _assert_throttled(anon.get("/api/v1/games/"))
    finally:
        other_process.delete(key)


def test_failed_logins_are_limited_per_account_across_addresses(rates, settings, anon, alice, bob):
    clock = rates()                                   # no per-address budget: only the account's
    settings.LOGIN_FAILURES = "3/hour"
    for n in range(3):
        response = anon.post("/api/v1/auth/token/", {"username": "ALICE", "password": "guess"},
                             format="json", REMOTE_ADDR=f"10.0.1.{n}")
        assert response.status_code == 400 and response.json()["code"] == "invalid_credentials"
    right = {"username": "alice", "password": "alice-secret-pw"}
    refused = anon.post("/api/v1/auth/token/", right, format="json", REMOTE_ADDR="10.0.2.1")
    _assert_throttled(refused, retry_after=800)       # the clock's hour window ends 800 s later
    assert anon.post("/api/v1/auth/token/", {"username": "bob", "password": "bob-secret-pw"},
                     format="json").status_code == 200
    clock["now"] += 800
    assert anon.post("/api/v1/auth/token/", right, format="json").status_code == 200


def test_successful_logins_spend_no_failures(rates, settings, anon, alice):
    rates()
    settings.LOGIN_FAILURES = "1/hour"
    for _ in range(3):
        assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"},
                         format="json").status_code == 200


def test_the_web_log_in_form_has_the_same_limits(rates, settings, client, alice):
    rates(login="4/min")
    settings.LOGIN_FAILURES = "2/hour"
    for _ in range(2):
        page = client.post("/accounts/login/", {"username": "alice", "password": "guess"})
        assert page.status_code == 200 and not page.wsgi_request.user.is_authenticated
    page = client.post("/accounts/login/", {"username": "alice", "password": "alice-secret-pw"})
    assert "too many failed logins" in page.content.decode() and "_auth_user_id" not in client.session
    settings.LOGIN_FAILURES = None                    # the address has one of its 4 attempts left
    assert client.post("/accounts/login/", {"username": "alice", "password": "alice-secret-pw"}).status_code == 302
    client.logout()
    page = client.post("/accounts/login/", {"username": "alice", "password": "alice-secret-pw"})
    assert "too many logins from this address" in page.content.decode()
