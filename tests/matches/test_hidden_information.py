"""New Eleusis through the API: no endpoint that returns state ever shows a player what they may
not see (docs/rules/eleusis.md §2.2): other hands, the stock, the seed, the nonce, the secret rule."""
from __future__ import annotations

import json
from random import Random

import pytest

from matches.models import Match

from .helpers import start_match

pytestmark = pytest.mark.django_db

RULE = "rank(cur) > rank(prev) or suit(cur) == suit(prev)"   # no example or bank rule
FORBIDDEN_KEYS = {"hands", "stock", "seed", "nonce", "rule_move", "rule_option", "rule", "shuffles"}


def _keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def _responses(client, match_id, challenge_id):
    """Every endpoint that returns anything about the match, as (name, text, json or None)."""
    paths = {
        "detail": f"/api/v1/matches/{match_id}/", "list": "/api/v1/matches/",
        "moves": f"/api/v1/matches/{match_id}/moves/", "export": f"/api/v1/matches/{match_id}/export/",
        "svg": f"/api/v1/matches/{match_id}/board/", "text": f"/api/v1/matches/{match_id}/board/?as=text",
        "challenge": f"/api/v1/challenges/{challenge_id}/", "challenges": "/api/v1/challenges/",
        "game": "/api/v1/games/new-eleusis/",
    }
    if client.user is not None:
        paths["events"] = "/api/v1/events/"
    for name, path in paths.items():
        response = client.get(path)
        if name == "challenge" and response.status_code == 404:
            continue                            # only its players read a challenge
        assert response.status_code == 200, (name, response.content)
        text = response.content.decode()
        body = json.loads(text) if response["Content-Type"].startswith("application/json") else None
        yield name, text, body


def _check_everything(clients, match_id, challenge_id):
    match = Match.objects.get(pk=match_id)
    truth = match.state
    secrets_text = [RULE, truth["nonce"], str(match.seed)]
    for seat, client in clients:
        for name, text, body in _responses(client, match_id, challenge_id):
            for secret in secrets_text:
                assert secret not in text, f"{name} shows {secret!r} to seat {seat}"
            if body is not None and name != "game":      # the catalogue names the option itself
                leaked = FORBIDDEN_KEYS & set(_keys(body))
                assert not leaked, f"{name} has {leaked} for seat {seat}"
            if name == "detail":
                view = body["state"]
                if seat is None:
                    assert "hand" not in view and body["legal_moves"] == []
                else:
                    from games.new_eleusis.cards import card_text

                    assert sorted(view["hand"]) == sorted(card_text(k) for k in truth["hands"][seat])
                    assert view["hand_sizes"] == [len(h) for h in truth["hands"]]


def test_no_endpoint_leaks_hidden_information(as_alice, as_bob, as_carol, client_for, dave, anon):
    as_dave = client_for(dave)
    created = as_alice.post("/api/v1/challenges/", {
        "game": "new-eleusis", "options": {"rule": RULE}, "opponents": ["bob", "carol", "dave"]},
        format="json")
    assert created.status_code == 201
    assert "rule" not in created.json()["options"]
    challenge_id = created.json()["id"]
    for client in (as_bob, as_carol, as_dave):
        client.post(f"/api/v1/challenges/{challenge_id}/accept/")
    match_id = Match.objects.get().pk
    seats = [(0, as_alice), (1, as_bob), (2, as_carol), (3, as_dave), (None, anon)]
    rng = Random(11)
    for _ in range(24):
        _check_everything(seats, match_id, challenge_id)
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            break
        client = dict(seats)[match.to_move]
        legal = client.get(f"/api/v1/matches/{match_id}/").json()["legal_moves"]
        assert legal
        response = client.post(f"/api/v1/matches/{match_id}/moves/",
                               {"move": rng.choice(legal), "ply": match.ply}, format="json")
        assert response.status_code == 201, response.json()
    assert Match.objects.get(pk=match_id).ply > 5


def test_other_players_cards_cannot_be_played(as_alice, as_bob, as_carol, client_for, dave):
    as_dave = client_for(dave)
    challenge = as_alice.post("/api/v1/challenges/", {
        "game": "new-eleusis", "opponents": ["bob", "carol", "dave"]}, format="json").json()
    for client in (as_bob, as_carol, as_dave):
        client.post(f"/api/v1/challenges/{challenge['id']}/accept/")
    match = Match.objects.get()
    client = {0: as_alice, 1: as_bob, 2: as_carol, 3: as_dave}[match.to_move]
    from games.new_eleusis.cards import card_text

    mine = {card_text(k) for k in match.state["hands"][match.to_move]}
    foreign = next(card_text(k) for k in range(52) if card_text(k) not in mine)
    response = client.post(f"/api/v1/matches/{match.pk}/moves/", {"move": f"play {foreign}", "ply": 0},
                           format="json")
    assert response.status_code == 400 and response.json()["code"] == "illegal_move"


def test_engine_scientists_play_and_options_stay_secret(as_alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = as_alice.post("/api/v1/challenges/", {
            "game": "new-eleusis", "options": {"rule": RULE},
            "opponents": ["ai:random", "ai:easy", "ai:medium"]}, format="json").json()
    match = Match.objects.get(pk=created["match"])
    assert match.status != "active" or match.to_move == 0      # the engines played up to alice
    detail = as_alice.get(f"/api/v1/matches/{match.pk}/").json()
    assert "rule" not in detail["options"] and RULE not in json.dumps(detail)


def test_no_takebacks_and_analysis_only_of_your_own_turns(as_alice, as_carol, anon,
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match_id = start_match(as_alice, game="new-eleusis", opponents=["ai:random"] * 3)
    for _ in range(3):                          # a few rounds of turns: alice plays, engines reply
        detail = as_alice.get(f"/api/v1/matches/{match_id}/").json()
        with django_capture_on_commit_callbacks(execute=True):
            as_alice.post(f"/api/v1/matches/{match_id}/moves/",
                          {"move": detail["legal_moves"][0], "ply": detail["ply"]}, format="json")
    response = as_alice.post(f"/api/v1/matches/{match_id}/takeback/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "takeback_unavailable"
    as_alice.post(f"/api/v1/matches/{match_id}/resign/")
    stranger = as_carol.post(f"/api/v1/matches/{match_id}/analysis/", {}, format="json")
    assert stranger.status_code == 422 and stranger.json()["code"] == "hidden_information"
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "easy"}, format="json")
    assert queued.status_code == 202 and queued.json()["seat"] == 0
    done = as_alice.get(f"/api/v1/analyses/{queued.json()['id']}/").json()
    assert done["status"] == "done" and done["results"]
    assert {r["seat"] for r in done["results"]} == {0}
    # the value after a move that hands the turn to another seat is not the seat's to know
    assert all(r["value_after"] is None and r["classification"] in (None, "forced")
               for r in done["results"])
    for client in (as_carol, anon):
        refused = client.get(f"/api/v1/analyses/{queued.json()['id']}/")
        assert refused.status_code == 403 and refused.json()["code"] == "not_yours"
    export = as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert "[Seed" not in export


def test_a_bad_secret_rule_is_refused_with_the_reason(as_alice):
    response = as_alice.post("/api/v1/challenges/", {
        "game": "new-eleusis", "options": {"rule": "rank(cur) == rank(prev) + 1"},
        "opponents": ["ai:random", "ai:random", "ai:random"]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_options"
    assert "live" in response.json()["message"]


def test_a_player_gods_rule_stays_secret_everywhere(as_alice, as_bob, as_carol, client_for, dave, anon):
    as_dave = client_for(dave)
    challenge = as_alice.post("/api/v1/challenges/", {
        "game": "new-eleusis", "options": {"god": "player"}, "opponents": ["bob", "carol", "dave"]},
        format="json").json()
    for client in (as_bob, as_carol, as_dave):
        client.post(f"/api/v1/challenges/{challenge['id']}/accept/")
    match = Match.objects.get()
    assert match.to_move == 0                                   # God commits first
    secret = "color(cur) != color(prev)"
    committed = as_alice.post(f"/api/v1/matches/{match.pk}/moves/", {"move": f"rule {secret}", "ply": 0},
                              format="json")
    assert committed.status_code == 201 and committed.json()["move"].startswith("rule committed ")
    commitment = Match.objects.get().state["commitment"]
    for client in (as_bob, as_carol, as_dave, anon):
        moves = client.get(f"/api/v1/matches/{match.pk}/moves/").json()
        assert moves[0]["move"] == f"rule committed {commitment}"
        for path in (f"/api/v1/matches/{match.pk}/", f"/api/v1/matches/{match.pk}/export/",
                     f"/api/v1/matches/{match.pk}/board/", f"/api/v1/matches/{match.pk}/board/?as=text"):
            assert secret not in client.get(path).content.decode(), path
    events = [e for e in as_bob.get("/api/v1/events/").json()["results"] if e["kind"] == "move"]
    assert events[0]["payload"]["move"] == f"rule committed {commitment}"
    assert secret not in str(events)
    gods_view = as_alice.get(f"/api/v1/matches/{match.pk}/").json()["state"]
    assert gods_view["rule"] == f"rule {secret}" and gods_view["report"]["acceptance_pct"] == 50.0
