"""Small test helpers for match flows through the API."""
from __future__ import annotations

from matches.models import Match


def start_match(creator, opponent_client=None, *, game="hasami-shogi", opponents=None, **extra):
    """Create a challenge as `creator` (an APIClient); the opponent accepts; return the match id."""
    body = {"game": game, "opponents": opponents if opponents is not None else ["bob"], **extra}
    response = creator.post("/api/v1/challenges/", body, format="json")
    assert response.status_code == 201, response.json()
    challenge = response.json()
    if challenge["match"] is None and opponent_client is not None:
        accepted = opponent_client.post(f"/api/v1/challenges/{challenge['id']}/accept/")
        assert accepted.status_code == 200, accepted.json()
        challenge = accepted.json()
    assert challenge["match"] is not None, challenge
    return challenge["match"]


def play(client, match_id, move, ply=None, expect=201):
    body = {"move": move} if ply is None else {"move": move, "ply": ply}
    response = client.post(f"/api/v1/matches/{match_id}/moves/", body, format="json")
    assert response.status_code == expect, response.json()
    return response.json()


def snapshot(match_id) -> tuple:
    """Everything a rejected request must leave untouched."""
    match = Match.objects.get(pk=match_id)
    return (match.ply, match.to_move, match.state, match.status, match.result,
            list(match.moves.values_list("ply", "seat", "notation")))
