import pytest

import games
from matches.errors import ServiceError
from matches.models import Event, Match
from matches.services import play

from .factories import challenge, match as make_match

pytestmark = pytest.mark.django_db


def _rows(match_id):
    m = Match.objects.get(pk=match_id)
    return m.ply, m.to_move, m.state, list(m.moves.values_list("ply", "notation"))


def stored_move(match, ply):
    return Match.objects.get(pk=match.pk).moves.get(ply=ply)


def _refusal(**kwargs) -> str:
    with pytest.raises((ServiceError, games.GameError)) as caught:
        play.move_submit(**kwargs)
    return caught.value.code


def test_a_move_is_recorded_and_the_turn_passes(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    played = play.move_submit(match_id=match.pk, user=ann, move="e1-e5", ply=0)
    assert (played.record.ply, played.record.seat, played.record.notation) == (1, 0, "e1-e5")
    assert played.record.pk == stored_move(match, 1).pk and played.record.created_at == stored_move(match, 1).created_at
    stored = Match.objects.get(pk=match.pk)
    assert stored.ply == 1 and stored.to_move == 1
    assert stored.state == games.get_game("hasami-shogi").replay(moves=["e1-e5"]).to_dict()
    assert Event.objects.filter(user=ben, kind="move").count() == 1


def test_refusals_name_their_reason_and_change_nothing(users):
    ann, ben, cid = users
    match = make_match(ann, ben)
    before = _rows(match.pk)
    assert _refusal(match_id=match.pk, user=ben, move="e9-e5", ply=1) == "stale_ply"   # ply checked first
    assert _refusal(match_id=match.pk, user=ben, move="e9-e5", ply=0) == "not_your_turn"
    assert _refusal(match_id=match.pk, user=cid, move="e1-e5") == "not_seated"
    assert _refusal(match_id=match.pk, user=ann, move="e1-e9") == "illegal_move"
    assert _refusal(match_id=match.pk, user=ann, move="hello") == "invalid_move"
    assert _refusal(match_id=999999, user=ann, move="e1-e5") == "match_not_found"
    assert _rows(match.pk) == before


def test_no_moves_after_the_end(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, to_move=None)
    assert _refusal(match_id=match.pk, user=ann, move="e1-e5") == "match_finished"


def test_an_engine_reply_is_written_only_at_the_ply_it_was_computed_for(users, django_capture_on_commit_callbacks):
    ann = users[0]
    made = challenge(ann, ["ai:random"])
    match_id = made.match_id
    with django_capture_on_commit_callbacks(execute=True):
        play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    stored = Match.objects.get(pk=match_id)
    assert stored.ply == 2
    reply = stored.moves.get(ply=2).notation
    assert play.engine_move_apply(match_id=match_id, ply=1, notation=reply) is None   # late duplicate
    assert play.engine_move_apply(match_id=match_id, ply=2, notation="e1-e4") is None  # a person's turn
    assert Match.objects.get(pk=match_id).ply == 2


def test_the_engine_reply_waits_for_the_commit(users, django_capture_on_commit_callbacks):
    ann = users[0]
    made = challenge(ann, ["ai:random"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play.move_submit(match_id=made.match_id, user=ann, move="e1-e5", ply=0)
    assert Match.objects.get(pk=made.match_id).ply == 1 and len(callbacks) == 1
    callbacks[0]()
    assert Match.objects.get(pk=made.match_id).ply == 2
