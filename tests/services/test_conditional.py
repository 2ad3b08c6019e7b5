"""Conditional moves: stored lines checked by the rules, replies played in the opponent's move's
transaction, trees pruned as play follows them and cleared when it leaves them."""
import pytest

from matches.models import ConditionalMoves, Event, Match
from matches.selectors.conditional import conditional_payload
from matches.services import conditional, offers, play, results

from .factories import challenge, match as make_match, refusal_code

pytestmark = pytest.mark.django_db
LINES = [["a9-a8", "d1-d5", "b9-b8", "c1-c5"], ["i9-i8", "f1-f5"]]


@pytest.fixture
def game(users):
    """ann (seat 0) has played e1-e5; ben is to move."""
    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    return match, ann, ben


def _moves(match):
    return list(Match.objects.get(pk=match.pk).moves.values_list("notation", flat=True))


def test_lines_are_stored_as_a_tree_for_their_owner(game):
    match, ann, ben = game
    conditional.conditional_set(match_id=match.pk, user=ann, lines=LINES, ply=1)
    mine = conditional_payload(Match.objects.get(pk=match.pk), 0)
    assert mine["ply"] == 1 and sorted(mine["lines"]) == sorted(LINES)
    assert mine["tree"]["a9-a8"] == {"reply": "d1-d5", "then": {"b9-b8": {"reply": "c1-c5", "then": {}}}}
    assert conditional_payload(Match.objects.get(pk=match.pk), 1)["lines"] == []


@pytest.mark.parametrize("lines, step, code", [
    ([["a9-a8", "d1-d9"]], 1, "invalid_conditional"),          # not legal there
    ([["a9-a8"]], None, "invalid_conditional"),                  # a move without a reply
    ([["d1-d5", "a9-a8"]], 0, "invalid_conditional"),           # starts with your own move
    ([["a9-a8", "d1-d5"], ["a9-a8", "c1-c5"]], 1, "invalid_conditional"),   # two replies to one move
    ([["a9-a8", "hello"]], 1, "invalid_conditional"),
])
def test_lines_are_checked_by_the_rules(game, lines, step, code):
    match, ann, _ = game
    with pytest.raises(Exception) as caught:
        conditional.conditional_set(match_id=match.pk, user=ann, lines=lines)
    assert caught.value.code == code and caught.value.detail["step"] == step
    assert not ConditionalMoves.objects.exists()


def test_refused_on_your_own_turn_after_the_end_and_to_strangers(game, users):
    match, ann, ben = game
    cid = users[2]
    assert refusal_code(lambda: conditional.conditional_set(match_id=match.pk, user=ben, lines=[])) == "your_turn"
    assert refusal_code(lambda: conditional.conditional_set(match_id=match.pk, user=cid, lines=[])) == "not_seated"
    stale = refusal_code(lambda: conditional.conditional_set(match_id=match.pk, user=ann, lines=[], ply=0))
    assert stale == "stale_ply"
    results.match_resign(match_id=match.pk, user=ben)
    assert refusal_code(lambda: conditional.conditional_set(match_id=match.pk, user=ann, lines=[])) == "match_finished"


def test_hidden_information_and_one_seat_games_refuse(users):
    ann, ben, cid = users
    dan = type(ann).objects.create_user("dan", password="x" * 12)
    from matches.services import challenges
    made = challenge(ann, [ben, cid, dan], game="new-eleusis")
    for user in (ben, cid, dan):
        challenges.challenge_accept(challenge_id=made.pk, user=user)
    made.refresh_from_db()
    assert refusal_code(lambda: conditional.conditional_set(match_id=made.match_id, user=ben, lines=[])) == \
        "conditional_unavailable"
    solo = challenge(ann, [], game="pearl-maze")
    assert refusal_code(lambda: conditional.conditional_set(match_id=solo.match_id, user=ann, lines=[])) == \
        "conditional_unavailable"


def test_a_matching_move_is_answered_at_once_and_the_tree_follows(game):
    match, ann, ben = game
    conditional.conditional_set(match_id=match.pk, user=ann, lines=LINES)
    played = play.move_submit(match_id=match.pk, user=ben, move="a9-a8", ply=1)
    assert played.record.notation == "a9-a8" and played.match.ply == 3 and played.match.to_move == 1
    assert _moves(match) == ["e1-e5", "a9-a8", "d1-d5"]
    assert conditional_payload(played.match, 0)["lines"] == [["b9-b8", "c1-c5"]]
    told = Event.objects.filter(user=ann, kind="move").order_by("id").last().payload
    assert told == {"match": match.pk, "ply": 3, "seat": 0, "move": "d1-d5", "conditional": True}
    assert Event.objects.filter(user=ben, kind="your_turn").order_by("id").last().payload["ply"] == 3
    assert not Event.objects.filter(user=ann, kind="your_turn", payload__ply=2).exists()
    play.move_submit(match_id=match.pk, user=ben, move="b9-b8", ply=3)
    assert _moves(match)[-2:] == ["b9-b8", "c1-c5"]
    assert not ConditionalMoves.objects.exists()            # the line is used up


def test_a_move_off_the_tree_clears_it(game):
    match, ann, ben = game
    conditional.conditional_set(match_id=match.pk, user=ann, lines=LINES)
    play.move_submit(match_id=match.pk, user=ben, move="h9-h8")
    assert _moves(match) == ["e1-e5", "h9-h8"] and Match.objects.get(pk=match.pk).to_move == 0
    assert not ConditionalMoves.objects.exists()


def test_both_sides_prepared_replies_chain(game):
    match, ann, ben = game
    conditional.conditional_set(match_id=match.pk, user=ann, lines=[["a9-a8", "d1-d5", "b9-b8", "c1-c5"]])
    play.move_submit(match_id=match.pk, user=ben, move="i9-i8")          # off ann's tree: cleared
    conditional.conditional_set(match_id=match.pk, user=ben, lines=[["d1-d5", "b9-b8"]])
    played = play.move_submit(match_id=match.pk, user=ann, move="d1-d5")
    assert _moves(match) == ["e1-e5", "i9-i8", "d1-d5", "b9-b8"]
    # Two moves in one request: each written before the next (ids follow the plies), the answer's
    # record is the caller's own with the id of its row, and the match row ends at the last.
    rows = list(match.moves.order_by("ply").values_list("pk", "ply"))
    assert [pk for pk, _ in rows] == sorted(pk for pk, _ in rows)
    assert played.record.pk == {ply: pk for pk, ply in rows}[3]
    stored = Match.objects.get(pk=match.pk)
    assert stored.ply == 4 and stored.last_move["move"] == "b9-b8" and stored.to_move == 0


def test_a_takeback_clears_every_tree(game):
    match, ann, ben = game
    conditional.conditional_set(match_id=match.pk, user=ann, lines=LINES)
    offers.match_takeback(match_id=match.pk, user=ann)
    offers.match_takeback(match_id=match.pk, user=ben, action="accept")
    assert not ConditionalMoves.objects.exists()


def test_an_engine_reply_meets_the_prepared_answer(users, django_capture_on_commit_callbacks):
    from matches.selectors.matches import match_state

    ann = users[0]
    made = challenge(ann, ["ai:random"])
    with django_capture_on_commit_callbacks() as engine_turn:
        play.move_submit(match_id=made.match_id, user=ann, move="e1-e5")
    match = Match.objects.get(pk=made.match_id)
    state = match_state(match)
    answers = {str(m): str(state.apply(m).legal_moves()[0]) for m in state.legal_moves()}
    conditional.conditional_set(match_id=match.pk, user=ann, lines=[[m, r] for m, r in answers.items()])
    for callback in engine_turn:                    # now the engine's reply arrives
        callback()
    match.refresh_from_db()
    engine_move, answer = _moves(match)[1:3]         # (the engine may have replied again since)
    assert answers[engine_move] == answer
