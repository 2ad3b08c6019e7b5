import pytest

from matches.models import Match, Rating
from matches.services import offers, play, results

from .factories import refusal_code, challenge, match as make_match

pytestmark = pytest.mark.django_db



def test_a_draw_needs_both_seats(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    assert refusal_code(lambda: offers.match_draw(match_id=match.pk, user=ben, action="accept")) == "no_offer"
    assert offers.match_draw(match_id=match.pk, user=ann).status == Match.Status.ACTIVE
    finished = offers.match_draw(match_id=match.pk, user=ben, action="accept")
    assert finished.status == Match.Status.FINISHED
    assert finished.result == {"winners": [], "scores": [0.5, 0.5], "termination": "agreement"}


def test_a_declined_offer_is_gone(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    offers.match_draw(match_id=match.pk, user=ann)
    offers.match_draw(match_id=match.pk, user=ben, action="decline")
    assert refusal_code(lambda: offers.match_draw(match_id=match.pk, user=ben, action="accept")) == "no_offer"


def test_a_takeback_replays_the_record_without_the_move(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5", ply=0)
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8", ply=1)
    offers.match_takeback(match_id=match.pk, user=ben)
    offers.match_takeback(match_id=match.pk, user=ann, action="accept")
    stored = Match.objects.get(pk=match.pk)
    assert stored.ply == 1 and stored.to_move == 1
    assert list(stored.moves.values_list("notation", flat=True)) == ["e1-e5"]


def test_hidden_information_games_refuse_takebacks(users):
    ann, ben, cid = users
    dave = type(ann).objects.create_user("dan", password="x" * 12)
    made = challenge(ann, [ben, cid, dave], game="new-eleusis")
    for user in (ben, cid, dave):
        from matches.services import challenges
        challenges.challenge_accept(challenge_id=made.pk, user=user)
    made.refresh_from_db()
    assert refusal_code(lambda: offers.match_takeback(match_id=made.match_id, user=ann)) == "takeback_unavailable"


def test_resigning_loses(users):
    ann, ben, cid = users
    match = make_match(ann, ben)
    assert refusal_code(lambda: results.match_resign(match_id=match.pk, user=cid)) == "not_seated"
    finished = results.match_resign(match_id=match.pk, user=ann)
    assert finished.result["winners"] == [1] and finished.result["termination"] == "resignation"
    assert refusal_code(lambda: results.match_resign(match_id=match.pk, user=ben)) == "match_finished"


def test_abort_only_before_every_seat_moved(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
    assert refusal_code(lambda: results.match_abort(match_id=match.pk, user=ann)) == "too_late_to_abort"
    fresh = make_match(ann, ben)
    assert results.match_abort(match_id=fresh.pk, user=ben).status == Match.Status.ABORTED


def test_a_rated_result_moves_both_ratings_once(users):
    ann, ben, _ = users
    match = make_match(ann, ben, rated=True, days_per_move=3)
    results.match_resign(match_id=match.pk, user=ben)
    rows = {r.user: r for r in Rating.objects.filter(game="hasami-shogi")}
    assert rows[ann].rating > 1500 > rows[ben].rating
    assert rows[ann].games == rows[ben].games == 1


def test_an_unrated_result_leaves_ratings_alone(users):
    ann, ben, _ = users
    results.match_resign(match_id=make_match(ann, ben).pk, user=ben)
    assert not Rating.objects.exists()


def test_timeouts_are_claimed_once(users):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    ann, ben, _ = users
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = make_match(ann, ben, days_per_move=1)
        play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
        play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
    assert results.match_claim_timeouts(now=start + timedelta(hours=23)) == []
    later = start + timedelta(days=1, minutes=1)
    assert results.match_claim_timeouts(now=later) == [match.pk]
    assert results.match_claim_timeouts(now=later) == []
    stored = Match.objects.get(pk=match.pk)
    assert stored.result["winners"] == [1] and stored.result["termination"] == "timeout"
