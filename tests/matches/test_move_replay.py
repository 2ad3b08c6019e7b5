"""A move resent after its answer was lost (same ply, same notation, same seat) gets the recorded
move again (201), not `stale_ply`; nothing is recorded twice. Anything else at an old ply is still
`409 stale_ply`."""
import pytest

from matches.models import Move

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _moves(match_id):
    return list(Move.objects.filter(match_id=match_id).order_by("ply").values_list("ply", "seat", "notation"))


def test_an_exact_replay_answers_the_recorded_move(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    first = play(as_alice, match_id, "e1-e5", ply=0)
    again = play(as_alice, match_id, "e1-e5", ply=0)
    assert again == first
    assert _moves(match_id) == [(1, 0, "e1-e5")]
    play(as_bob, match_id, "e9-e6", ply=1)
    later = play(as_alice, match_id, "e1-e5", ply=0)          # still alice's last move: same record
    assert (later["ply"], later["seat"], later["move"]) == (1, 0, "e1-e5") and later["match"]["ply"] == 2
    assert _moves(match_id) == [(1, 0, "e1-e5"), (2, 1, "e9-e6")]


@pytest.mark.parametrize("who,move,ply", [
    ("alice", "a1-a2", 0),      # another move at the old ply
    ("bob", "e1-e5", 0),        # someone else's move
    ("alice", "e1-e5", 1),      # the right move at the wrong ply
])
def test_anything_but_an_exact_replay_is_stale(as_alice, as_bob, who, move, ply):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "e9-e6", ply=1)
    client = {"alice": as_alice, "bob": as_bob}[who]
    assert play(client, match_id, move, ply=ply, expect=409)["code"] == "stale_ply"
    assert _moves(match_id) == [(1, 0, "e1-e5"), (2, 1, "e9-e6")]


def test_an_older_move_is_no_longer_replayed(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "e9-e6", ply=1)
    play(as_alice, match_id, "a1-a2", ply=2)
    assert play(as_alice, match_id, "e1-e5", ply=0, expect=409)["code"] == "stale_ply"
