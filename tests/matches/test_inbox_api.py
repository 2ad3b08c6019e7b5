"""GET matches/?my_turn=true and ?active=true: the caller's inbox."""
import pytest

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def test_the_inbox_through_the_api(as_alice, as_bob, as_carol):
    first = start_match(as_alice, as_bob, days_per_move=3)
    second = start_match(as_alice, as_bob, days_per_move=1)
    play(as_alice, first, "e1-e5", ply=0)
    mine = as_alice.get("/api/v1/matches/?my_turn=true").json()
    assert [m["id"] for m in mine["results"]] == [second]
    theirs = as_bob.get("/api/v1/matches/?my_turn=true").json()["results"]
    assert [m["id"] for m in theirs] == [first]
    item = theirs[0]
    assert item["viewer_seat"] == 1 and item["to_move"] == 1 and item["deadline"]
    assert item["last_move"]["move"] == "e1-e5" and item["last_move"]["seat"] == 0
    assert [c["running"] for c in item["clocks"]] == [False, True]
    assert "state" not in item
    active = as_alice.get("/api/v1/matches/?active=true").json()["results"]
    assert [m["id"] for m in active] == [second, first]          # due in 1 day, then 3
    assert as_carol.get("/api/v1/matches/?my_turn=true").json()["count"] == 0


def test_the_inbox_needs_a_caller(anon, as_alice, as_bob):
    start_match(as_alice, as_bob)
    response = anon.get("/api/v1/matches/?my_turn=true")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    assert anon.get("/api/v1/matches/?my_turn=false").status_code == 200
    everyone = anon.get("/api/v1/matches/").json()["results"][0]
    assert everyone["viewer_seat"] is None and everyone["clocks"] is None
    assert as_alice.get("/api/v1/matches/?my_turn=perhaps").json()["detail"] == {"parameter": "my_turn"}
