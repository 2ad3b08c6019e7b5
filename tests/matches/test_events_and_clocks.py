from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.services import results
from matches.models import Match
from matches.tasks import claim_timeouts

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def test_event_stream(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    events = as_bob.get("/api/v1/events/").json()["results"]
    kinds = [e["kind"] for e in events]
    assert kinds == ["challenge_received", "match_started", "move", "your_turn"]
    assert events[2]["payload"] == {"match": match_id, "ply": 1, "seat": 0, "move": "e1-e5"}
    newest = events[-1]["id"]
    assert as_bob.get(f"/api/v1/events/?after={newest}").json()["results"] == []
    assert as_bob.get("/api/v1/events/?after=x").json()["code"] == "invalid_filter"
    assert [e["kind"] for e in as_alice.get("/api/v1/events/").json()["results"]] == \
        ["challenge_accepted", "match_started", "your_turn"]


def test_deadlines_follow_the_player_to_move(as_alice, as_bob):
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        match_id = start_match(as_alice, as_bob, days_per_move=2)
        engine = start_match(as_alice, opponents=["ai:random"], days_per_move=2, seat=1)
    assert Match.objects.get(pk=match_id).deadline == t0 + timedelta(days=2)
    assert Match.objects.get(pk=engine).deadline is None       # the engine is to move


def test_timeouts_are_claimed(as_alice, as_bob):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match_id = start_match(as_alice, as_bob, days_per_move=1)
        play(as_alice, match_id, "e1-e5", ply=0)
        play(as_bob, match_id, "a9-a8", ply=1)
        assert results.match_claim_timeouts() == []
    with time_machine.travel(start + timedelta(days=1, minutes=1), tick=False):
        assert claim_timeouts() == [match_id]
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.result["winners"] == [1]
    assert match.result["termination"] == "timeout"


def test_match_list_filters(as_alice, as_bob, anon):
    first = start_match(as_alice, as_bob)
    start_match(as_alice, opponents=["ai:easy"])
    as_bob.post(f"/api/v1/matches/{first}/resign/")
    assert anon.get("/api/v1/matches/?player=bob").json()["count"] == 1
    assert anon.get("/api/v1/matches/?player=ai:easy").json()["count"] == 1
    assert anon.get("/api/v1/matches/?status=finished").json()["results"][0]["id"] == first
    assert anon.get("/api/v1/matches/?game=hasami-shogi").json()["count"] == 2
    assert anon.get("/api/v1/matches/?status=bogus").json()["code"] == "invalid_filter"
    assert "state" not in anon.get("/api/v1/matches/").json()["results"][0]
