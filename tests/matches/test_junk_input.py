"""Junk in paths, query strings and bodies gets a 4xx with a code, never a 500 (on PostgreSQL too,
which refuses NUL characters and out-of-range integers)."""
import pytest

pytestmark = pytest.mark.django_db
BIG = 10**30


@pytest.mark.parametrize("path", [
    f"/api/v1/matches/{BIG}/", f"/api/v1/matches/{BIG}/moves/", f"/api/v1/challenges/{BIG}/",
    f"/api/v1/ladders/{BIG}/", f"/api/v1/analyses/{BIG}/", "/api/v1/matches/?page=abc",
    f"/api/v1/events/?after={BIG}", "/api/v1/matches/?player=%00", "/api/v1/matches/?game=%00x",
    "/api/v1/players/%00/", "/api/v1/games/%00/",
])
def test_junk_reads(as_alice, path):
    response = as_alice.get(path)
    assert 200 <= response.status_code < 500, (path, response.status_code)
    if response.status_code >= 400:
        assert response.json()["code"]


@pytest.mark.parametrize("path,body", [
    (f"/api/v1/matches/{BIG}/moves/", {"move": "e1-e5"}),
    (f"/api/v1/challenges/{BIG}/accept/", {}),
    ("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob\x00"]}),
    ("/api/v1/challenges/", {"game": "hasami\x00", "opponents": []}),
    ("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"], "options": {"\x00": 1}}),
    ("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"], "options": {"enclosure": "\x00"}}),
    ("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"], "days_per_move": BIG}),
    ("/api/v1/accounts/", {"username": "x\x00y", "password": "long-enough-pw"}),
    ("/api/v1/auth/token/", {"username": "x\x00y", "password": "long-enough-pw"}),
])
def test_junk_writes(as_alice, path, body):
    response = as_alice.post(path, body, format="json")
    assert 400 <= response.status_code < 500, (path, response.status_code, response.content)
    assert response.json()["code"]


def test_junk_moves_in_a_live_match(as_alice):
    created = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]},
                            format="json").json()
    for move in ["e1-e5\x00", "\x00", "é1-é5", "e1-e5" * 300, "e1-e5", "e1-e5"]:
        response = as_alice.post(f"/api/v1/matches/{created['match']}/moves/", {"move": move, "ply": 0},
                                 format="json")
        assert response.status_code in (201, 400, 403, 409), (move, response.status_code)


@pytest.mark.parametrize("path,parameter", [
    ("/api/v1/matches/?my_turn_typo=1", "my_turn_typo"),
    ("/api/v1/matches/?status=open", "status"),
    ("/api/v1/matches/?page=0", "page"),
    ("/api/v1/events/?after=%C2%B2", "after"),
    ("/api/v1/games/?x=1", "x"),
    ("/api/v1/challenges/?open=maybe", "open"),
    ("/api/v1/ladders/?page=abc", "page"),
])
def test_unknown_or_malformed_query_parameters_are_named(as_alice, path, parameter):
    response = as_alice.get(path)
    assert response.status_code == 400, (path, response.content)
    body = response.json()
    assert body["code"] == "invalid_filter"
    assert body["detail"]["parameter"] == parameter


def test_declared_query_parameters_are_taken(as_alice):
    assert as_alice.get("/api/v1/matches/?status=active&page=1").status_code == 200
    assert as_alice.get("/api/v1/challenges/?open=true").status_code == 200
    assert as_alice.get("/api/v1/events/?after=0").status_code == 200
