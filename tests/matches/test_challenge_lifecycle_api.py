"""Rematches, seeks and directions through the API."""
import pytest

from .helpers import start_match

pytestmark = pytest.mark.django_db


def test_rematch(as_alice, as_bob, as_carol, anon):
    match_id = start_match(as_alice, as_bob, days_per_move=2)
    early = as_bob.post(f"/api/v1/matches/{match_id}/rematch/")
    assert early.status_code == 409 and early.json()["code"] == "match_in_progress"
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    assert as_carol.post(f"/api/v1/matches/{match_id}/rematch/").status_code == 403
    assert anon.post(f"/api/v1/matches/{match_id}/rematch/").status_code == 401
    asked = as_bob.post(f"/api/v1/matches/{match_id}/rematch/")
    assert asked.status_code == 201
    body = asked.json()
    assert body["rematch_of"] == match_id and body["days_per_move"] == 2
    assert [s["player"] for s in body["seats"]] == ["bob", "alice"]
    accepted = as_alice.post(f"/api/v1/matches/{match_id}/rematch/")
    assert accepted.status_code == 200 and accepted.json()["match"] is not None


def test_seeks_for_anyone_and_directions_for_the_caller(as_alice, as_bob, anon):
    seek = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": [None]}, format="json").json()
    invite = as_bob.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["alice"]}, format="json").json()
    listed = anon.get("/api/v1/challenges/?open=true&game=hasami-shogi&rating_min=1400&rating_max=1600").json()
    assert [c["id"] for c in listed["results"]] == [seek["id"]]
    assert listed["results"][0]["created_by_rating"] == 1500 and listed["results"][0]["expires_at"]
    assert anon.get("/api/v1/challenges/?open=true&rating_min=1501").json()["results"] == []
    assert [c["id"] for c in as_alice.get("/api/v1/challenges/?direction=in").json()["results"]] == [invite["id"]]
    assert [c["id"] for c in as_alice.get("/api/v1/challenges/?direction=out").json()["results"]] == [seek["id"]]
    assert anon.get("/api/v1/challenges/?direction=in").status_code == 401
    bad = as_alice.get("/api/v1/challenges/?direction=sideways").json()
    assert bad["code"] == "invalid_filter" and bad["detail"] == {"parameter": "direction"}
