"""Every game in the catalogue, played through the API: a person against engine seats (or alone),
moves chosen from the legal moves the API offers, replies computed by the worker task."""
from __future__ import annotations

from random import Random

import pytest

import games
from games.record import replay_record
from matches.models import Match

pytestmark = pytest.mark.django_db

CASES = [pytest.param(slug, variant, id=f"{slug}-{variant}")
         for slug, game in sorted(games.GAMES.items()) for variant in game.variants]
MAX_HUMAN_MOVES = 30


@pytest.mark.parametrize("slug,variant", CASES)
def test_a_person_plays_the_engines_through_the_api(slug, variant, as_alice, django_capture_on_commit_callbacks):
    game = games.get_game(slug)
    seats = max(game.min_players, 2) if game.max_players > 1 else 1
    with django_capture_on_commit_callbacks(execute=True):
        created = as_alice.post("/api/v1/challenges/", {
            "game": slug, "variant": variant, "opponents": ["ai:random"] * (seats - 1)}, format="json")
    assert created.status_code == 201, created.json()
    match_id = created.json()["match"]
    rng = Random(slug)
    for _ in range(MAX_HUMAN_MOVES):
        detail = as_alice.get(f"/api/v1/matches/{match_id}/").json()
        if detail["status"] != "active":
            break
        assert detail["to_move"] == 0 and detail["legal_moves"], detail
        with django_capture_on_commit_callbacks(execute=True):
            response = as_alice.post(f"/api/v1/matches/{match_id}/moves/",
                                     {"move": rng.choice(detail["legal_moves"]), "ply": detail["ply"]},
                                     format="json")
        assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=match_id)
    history = as_alice.get(f"/api/v1/matches/{match_id}/moves/").json()
    assert [m["ply"] for m in history] == list(range(1, match.ply + 1)) and match.ply > 0
    state = game.state_from_dict(match.state)
    assert (match.status == "finished") == state.is_terminal
    if not game.has_hidden_information:
        if match.status == "active":                # the seed is exported once the match is over
            assert as_alice.post(f"/api/v1/matches/{match_id}/resign/").status_code == 200
        record = as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
        assert replay_record(record) == state
