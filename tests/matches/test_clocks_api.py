"""Clocks through the API: time controls on challenges and matches, vacations, refusals."""
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from .helpers import play, snapshot, start_match

pytestmark = pytest.mark.django_db
FISCHER = {"kind": "fischer", "initial_days": 5, "increment_days": 1, "max_days": 10}


def test_a_fischer_clock_shows_in_the_challenge_and_per_seat_in_the_match(as_alice, as_bob):
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False) as traveller:
        match_id = start_match(as_alice, as_bob, time_control=FISCHER, rated=True)
        traveller.move_to(t0 + timedelta(days=1))
        play(as_alice, match_id, "e1-e5", ply=0)
        detail = as_bob.get(f"/api/v1/matches/{match_id}/").json()
    assert detail["time_control"] == FISCHER
    assert detail["clocks"] == [{"seat": 0, "remaining": 5 * 86400, "running": False},
                                {"seat": 1, "remaining": 5 * 86400, "running": True}]
    challenge = as_alice.get("/api/v1/challenges/").json()["results"][0]
    assert challenge["time_control"] == FISCHER and challenge["days_per_move"] is None


def test_days_per_move_is_the_per_move_shorthand(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob, days_per_move=4)
    assert as_alice.get(f"/api/v1/matches/{match_id}/").json()["time_control"] == {"kind": "per_move", "days": 4}
    assert as_alice.get("/api/v1/challenges/").json()["results"][0]["days_per_move"] == 4


@pytest.mark.parametrize("body, code", [
    ({"rated": True}, "rated_needs_clock"),
    ({"time_control": {"kind": "fischer", "initial_days": 5}}, "invalid_time_control"),
    ({"time_control": {"kind": "per_move", "days": 3}, "days_per_move": 3}, "invalid_time_control"),
    ({"time_control": {"kind": "sudden_death", "days": 3}}, "validation_error"),
])
def test_bad_clocks_are_refused(as_alice, bob, body, code):
    response = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"], **body},
                             format="json")
    assert response.status_code == 400 and response.json()["code"] == code


def test_a_late_move_is_refused_with_time_out(as_alice, as_bob):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False) as traveller:
        match_id = start_match(as_alice, as_bob, days_per_move=1)
        before = snapshot(match_id)
        traveller.move_to(t0 + timedelta(days=1, seconds=1))
        response = as_alice.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "time_out"
    assert snapshot(match_id) == before


def test_vacation_on_and_off(as_alice, as_bob, anon):
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False) as traveller:
        match_id = start_match(as_alice, as_bob, days_per_move=3)
        assert as_alice.get("/api/v1/accounts/me/vacation/").json()["on_vacation"] is False
        away = as_alice.post("/api/v1/accounts/me/vacation/")
        assert away.status_code == 200 and away.json()["on_vacation"] is True
        assert away.json()["ends_at"] is not None and away.json()["allowance_days"] == 30
        again = as_alice.post("/api/v1/accounts/me/vacation/")
        assert again.status_code == 409 and again.json()["code"] == "already_on_vacation"
        detail = as_bob.get(f"/api/v1/matches/{match_id}/").json()
        assert detail["deadline"] is None and detail["clocks"][0] == {"seat": 0, "remaining": 3 * 86400,
                                                                       "running": False}
        traveller.move_to(t0 + timedelta(days=2))
        back = as_alice.delete("/api/v1/accounts/me/vacation/").json()
        assert back["on_vacation"] is False and back["used_seconds"] == 2 * 86400
        assert as_alice.delete("/api/v1/accounts/me/vacation/").json()["code"] == "not_on_vacation"
        assert as_bob.get(f"/api/v1/matches/{match_id}/").json()["clocks"][0]["running"] is True
    assert anon.get("/api/v1/accounts/me/vacation/").status_code == 401
    assert anon.post("/api/v1/accounts/me/vacation/").status_code == 401
