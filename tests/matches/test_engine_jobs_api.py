"""Engine work through the API: requests succeed while the broker is down (the work waits in the
outbox), quotas refuse with stable codes and change nothing, an analysis is made once per match and
level, and only finished matches are analysed (staff excepted)."""
from __future__ import annotations

import json

import pytest
from celery.canvas import Signature
from kombu.exceptions import OperationalError as BrokerDown

from matches.models import Analysis, Challenge, EngineJob, Match
from matches.services import dispatch

from .helpers import play, start_match

pytestmark = pytest.mark.django_db
ANALYSE = "/api/v1/matches/{}/analysis/"


@pytest.fixture
def broker_down(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(Signature, "apply_async", refuse)
    monkeypatch.setattr(dispatch, "_send_paused_until", 0.0)


def _finished(as_alice, as_bob) -> int:
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    return match_id


def test_requests_succeed_while_the_broker_is_down(as_alice, as_bob, broker_down,
                                                   django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        engine_first = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:easy"],
                                                             "seat": 1}, format="json")
        match_id = start_match(as_alice, opponents=["ai:random"])
        moved = as_alice.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json")
    finished = _finished(as_alice, as_bob)
    with django_capture_on_commit_callbacks(execute=True):
        analysed = as_alice.post(ANALYSE.format(finished), {"level": "easy"}, format="json")
    assert (engine_first.status_code, moved.status_code, analysed.status_code) == (201, 201, 202)
    assert moved.json()["match"]["ply"] == 1 and analysed.json()["status"] == "queued"
    waiting = EngineJob.objects.order_by("id")
    assert [(j.kind, j.status) for j in waiting] == [("reply", "queued")] * 2 + [("analysis", "queued")]


def test_engine_matches_are_limited_per_player(as_alice, as_bob, settings):
    settings.MAX_ACTIVE_ENGINE_MATCHES = 2
    for _ in range(2):
        start_match(as_alice, opponents=["ai:random"])
    refused = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]}, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_engine_matches" and refused.json()["detail"]["limit"] == 2
    assert Challenge.objects.count() == 2 and Match.objects.count() == 2
    # Joining a match with an engine seat counts too; a match between people does not.
    three = as_bob.post("/api/v1/challenges/", {"game": "pearl-survival", "opponents": ["alice", "ai:random"]},
                        format="json").json()
    accepted = as_alice.post(f"/api/v1/challenges/{three['id']}/accept/")
    assert accepted.status_code == 429 and accepted.json()["code"] == "too_many_engine_matches"
    assert start_match(as_alice, as_bob)
    match_id = Match.objects.filter(seats__ai_level="random").first().pk
    as_alice.post(f"/api/v1/matches/{match_id}/resign/")
    assert as_alice.post(f"/api/v1/challenges/{three['id']}/accept/").status_code == 200


def test_open_challenges_are_limited_per_player(as_alice, settings):
    settings.MAX_OPEN_CHALLENGES = 2
    for _ in range(2):
        assert as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": [None]},
                             format="json").status_code == 201
    refused = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": [None]}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_challenges"
    assert Challenge.objects.count() == 2
    engine = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]}, format="json")
    assert engine.status_code == 201                      # it starts at once: never open


def test_an_analysis_is_made_once_per_match_and_level(as_alice, as_bob, as_carol):
    match_id = _finished(as_alice, as_bob)
    first = as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json")
    again = as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json")
    other = as_carol.post(ANALYSE.format(match_id), {"level": "easy"}, format="json")
    deeper = as_alice.post(ANALYSE.format(match_id), {"level": "medium"}, format="json")
    assert (first.status_code, again.status_code, other.status_code, deeper.status_code) == (202, 200, 200, 202)
    assert first.json()["id"] == again.json()["id"] == other.json()["id"] != deeper.json()["id"]
    Analysis.objects.filter(pk=first.json()["id"]).update(status=Analysis.Status.FAILED)
    retried = as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json")
    assert retried.status_code == 202 and retried.json()["id"] != first.json()["id"]
    assert EngineJob.objects.filter(kind="analysis").count() == 3


def test_pending_analyses_are_limited_per_player(as_alice, as_bob, settings):
    settings.MAX_PENDING_ANALYSES = 1
    match_id = _finished(as_alice, as_bob)
    assert as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json").status_code == 202
    refused = as_alice.post(ANALYSE.format(match_id), {"level": "medium"}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_analyses"
    assert Analysis.objects.count() == 1 and EngineJob.objects.count() == 1
    assert as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json").status_code == 200
    assert as_bob.post(ANALYSE.format(match_id), {"level": "medium"}, format="json").status_code == 202


def test_only_staff_may_analyse_a_match_in_progress(as_alice, as_bob, alice):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    refused = as_alice.post(ANALYSE.format(match_id), {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "match_in_progress"
    assert not Analysis.objects.exists()
    alice.is_staff = True
    alice.save()
    staff = as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json")
    assert staff.status_code == 202 and staff.json()["upto_ply"] == 1


def test_staff_may_not_analyse_a_hidden_information_match_in_progress(as_alice, alice):
    alice.is_staff = True
    alice.save()
    match_id = start_match(as_alice, game="new-eleusis", opponents=["ai:random"] * 3)
    refused = as_alice.post(ANALYSE.format(match_id), {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "match_in_progress"


def test_a_hidden_information_analysis_shows_nothing_beyond_the_record(as_alice, django_capture_on_commit_callbacks):
    rule = "suit(cur) == next_suit(suit(prev))"
    with django_capture_on_commit_callbacks(execute=True):
        match_id = start_match(as_alice, game="new-eleusis", options={"rule": rule},
                               opponents=["ai:easy"] * 3)
    for _ in range(3):
        detail = as_alice.get(f"/api/v1/matches/{match_id}/").json()
        if detail["status"] != "active":
            break
        with django_capture_on_commit_callbacks(execute=True):
            as_alice.post(f"/api/v1/matches/{match_id}/moves/",
                          {"move": detail["legal_moves"][0], "ply": detail["ply"]}, format="json")
    as_alice.post(f"/api/v1/matches/{match_id}/resign/")
    with django_capture_on_commit_callbacks(execute=True):
        made = as_alice.post(ANALYSE.format(match_id), {"level": "easy"}, format="json").json()
    done = as_alice.get(f"/api/v1/analyses/{made['id']}/").json()
    record = {m["ply"]: m["move"] for m in as_alice.get(f"/api/v1/matches/{match_id}/moves/").json()}
    assert done["status"] == "done" and done["results"]
    for row in done["results"]:
        assert row["seat"] == 0 and row["played"] == record[row["ply"]]    # her own turns, as recorded
        assert row["pv"] == [row["best"]]                                 # no guesses at others' cards
    assert rule not in json.dumps(done)
