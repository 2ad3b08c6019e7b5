"""Authorization and privacy gaps, closed: open seats cannot be used to end a challenge, challenges
are read by their players (or anyone while seeking), concurrent ladder challenges of one pair make
one challenge, seeds wait for the end of the match, and a custom Eleusis rule shows nowhere."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.record import parse_record, replay_record
from matches.models import Challenge, Match

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _open_seat_challenge(as_alice):
    """alice seeks two opponents for Pearl Survival: bob by name, and anyone for the other seat."""
    response = as_alice.post("/api/v1/challenges/", {"game": "pearl-survival", "opponents": ["bob", None]})
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_taking_an_open_seat_then_declining_leaves_the_seat(as_alice, as_bob, as_carol, as_dave):
    challenge = _open_seat_challenge(as_alice)
    assert as_carol.post(f"/api/v1/challenges/{challenge}/accept/").json()["seats"][2]["player"] == "carol"
    left = as_carol.post(f"/api/v1/challenges/{challenge}/decline/")
    assert left.status_code == 200
    assert left.json()["status"] == "open" and left.json()["seats"][2] == {"seat": 2, "player": None, "accepted": False}
    assert as_dave.post(f"/api/v1/challenges/{challenge}/accept/").status_code == 200
    started = as_bob.post(f"/api/v1/challenges/{challenge}/accept/").json()
    assert started["status"] == "started" and started["match"]


def test_an_invited_player_still_declines_the_challenge(as_alice, as_bob):
    challenge = _open_seat_challenge(as_alice)
    assert as_bob.post(f"/api/v1/challenges/{challenge}/decline/").json()["status"] == "declined"


def test_a_challenge_is_read_by_its_players_or_while_it_seeks(as_alice, as_bob, as_carol, anon):
    invite = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}).json()["id"]
    for client, status in ((as_alice, 200), (as_bob, 200), (as_carol, 404), (anon, 404)):
        response = client.get(f"/api/v1/challenges/{invite}/")
        assert response.status_code == status
    assert as_carol.get(f"/api/v1/challenges/{invite}/").json()["code"] == "challenge_not_found"
    seek = _open_seat_challenge(as_alice)
    assert anon.get(f"/api/v1/challenges/{seek}/").status_code == 200
    as_bob.post(f"/api/v1/challenges/{seek}/decline/")                  # no longer seeking
    assert anon.get(f"/api/v1/challenges/{seek}/").status_code == 404


def test_the_seed_is_shown_once_the_match_is_over(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    running = as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert "Seed" not in parse_record(running)[0]
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    finished = as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert int(parse_record(finished)[0]["Seed"]) == Match.objects.get(pk=match_id).seed
    assert replay_record(finished).ply == 1


ELEUSIS = {"game": "new-eleusis", "opponents": ["ai:easy", "ai:easy", "ai:easy"]}


def test_a_custom_eleusis_rule_shows_in_no_variant_or_option(as_alice, as_bob):
    plain = as_alice.post("/api/v1/challenges/", ELEUSIS).json()
    custom = as_alice.post("/api/v1/challenges/", {**ELEUSIS, "options": {"rule": "color(cur) != color(prev)"}}).json()
    assert custom["variant"] == plain["variant"] == "standard"
    assert custom["options"] == plain["options"] and "rule" not in custom["options"]
    for viewer in (as_alice, as_bob):
        detail = viewer.get(f"/api/v1/matches/{custom['match']}/").json()
        assert detail["variant"] == "standard" and "rule" not in detail["options"]
        listed = viewer.get("/api/v1/matches/?game=new-eleusis").json()["results"]
        assert {m["variant"] for m in listed} == {"standard"}
        export = viewer.get(f"/api/v1/matches/{custom['match']}/export/").content.decode()
        assert parse_record(export)[0]["Variant"] == "standard" and "color(" not in export


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_ladder_challenges_of_one_pair_make_one(alice, bob, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    from matches.models import Ladder
    from matches.services import ladders

    from .test_concurrency_and_worker import _race

    ladder = Ladder.objects.create(name="race", game="hasami-shogi", options={})
    for user in (alice, bob):
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    # Hold each challenger just before it creates its challenge until the other arrives too (or a
    # second passes): without the row locks both get here and both succeed.
    both_checked = threading.Barrier(2, timeout=1)
    create = ladders.challenge_create

    def create_when_both_checked(**kwargs):
        try:
            both_checked.wait()
        except threading.BrokenBarrierError:
            pass
        return create(**kwargs)

    monkeypatch.setattr(ladders, "challenge_create", create_when_both_checked)
    results = _race([lambda: ladders.ladder_challenge(ladder_id=ladder.pk, user=bob, opponent="alice") and "ok"] * 2)
    assert sorted(results) == ["ladder_game_pending", "ok"]
    assert Challenge.objects.filter(ladder=ladder).count() == 1
