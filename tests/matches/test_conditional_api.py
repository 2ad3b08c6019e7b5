"""GET/PUT/DELETE matches/{id}/conditional/: private prepared replies."""
import pytest

from .helpers import play, snapshot, start_match

pytestmark = pytest.mark.django_db
LINES = [["a9-a8", "d1-d5"], ["b9-b8", "c1-c5"]]


def _url(match_id):
    return f"/api/v1/matches/{match_id}/conditional/"


def test_prepared_replies_are_private_and_played_at_once(as_alice, as_bob, as_carol, anon):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    stored = as_alice.put(_url(match_id), {"lines": LINES, "ply": 1}, format="json")
    assert stored.status_code == 200 and sorted(stored.json()["lines"]) == sorted(LINES)
    assert as_alice.get(_url(match_id)).json()["tree"]["a9-a8"] == {"reply": "d1-d5", "then": {}}
    assert as_bob.get(_url(match_id)).json()["lines"] == []          # bob sees only his own
    assert as_carol.get(_url(match_id)).json()["code"] == "not_seated"
    assert as_carol.put(_url(match_id), {"lines": []}, format="json").status_code == 403
    assert anon.get(_url(match_id)).status_code == 401
    assert "d1-d5" not in as_bob.get(f"/api/v1/matches/{match_id}/").content.decode()
    answered = play(as_bob, match_id, "b9-b8", ply=1)
    assert answered["ply"] == 2 and answered["match"]["ply"] == 3 and answered["match"]["to_move"] == 1
    assert answered["match"]["last_move"]["move"] == "c1-c5"
    assert as_alice.get(_url(match_id)).json()["lines"] == []


def test_refusals(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    mine = as_alice.put(_url(match_id), {"lines": LINES}, format="json")
    assert mine.status_code == 409 and mine.json()["code"] == "your_turn"
    play(as_alice, match_id, "e1-e5", ply=0)
    before = snapshot(match_id)
    bad = as_alice.put(_url(match_id), {"lines": [["a9-a8", "d1-d9"]]}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_conditional"
    assert bad.json()["detail"] == {"line": 0, "step": 1}
    assert as_alice.put(_url(match_id), {"lines": "a9-a8"}, format="json").json()["code"] == "validation_error"
    assert snapshot(match_id) == before and as_alice.get(_url(match_id)).json()["lines"] == []
    assert as_alice.put(_url(match_id), {"lines": LINES}, format="json").status_code == 200
    assert as_alice.delete(_url(match_id)).status_code == 204
    assert as_alice.get(_url(match_id)).json()["lines"] == []


def test_not_for_games_without_two_seats_in_the_open(as_alice):
    solo = start_match(as_alice, game="pearl-maze", opponents=[])
    response = as_alice.get(_url(solo))
    assert response.status_code == 422 and response.json()["code"] == "conditional_unavailable"
