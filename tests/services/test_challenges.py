import pytest

from matches.models import Challenge, Event, Match
from matches.services import challenges

from .factories import refusal_code, UserFactory, challenge

pytestmark = pytest.mark.django_db



def test_a_challenge_to_a_person_waits_and_tells_them(users):
    ann, ben, _ = users
    made = challenge(ann, [ben])
    assert made.status == Challenge.Status.OPEN and made.match is None
    assert [(s.user, s.accepted) for s in made.seats.all()] == [(ann, True), (ben, False)]
    assert Event.objects.get(user=ben).kind == "challenge_received"


def test_accepting_starts_the_match_with_the_seats_in_order(users):
    ann, ben, _ = users
    made = challenge(ann, [ben], seat=1)
    started = challenges.challenge_accept(challenge_id=made.pk, user=ben)
    assert started.status == Challenge.Status.STARTED
    assert [s.user for s in started.match.seats.order_by("seat")] == [ben, ann]
    assert refusal_code(lambda: challenges.challenge_accept(challenge_id=made.pk, user=ben)) == "challenge_closed"


def test_an_engine_only_challenge_starts_at_once_and_the_engine_moves_first(users, django_capture_on_commit_callbacks):
    ann = users[0]
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(ann, ["ai:random"], seat=1)
    match = Match.objects.get(pk=made.match_id)
    assert match.ply == 1 and match.to_move == 1


def test_open_seats_go_to_whoever_takes_them(users):
    ann, ben, cid = users
    made = challenge(ann, [None], game="hasami-shogi")
    started = challenges.challenge_accept(challenge_id=made.pk, user=cid)
    assert started.match.seats.get(seat=1).user == cid
    assert refusal_code(lambda: challenges.challenge_accept(challenge_id=made.pk, user=ben)) == "challenge_closed"


def test_only_the_invited_decline_and_only_the_challenger_cancels(users):
    ann, ben, cid = users
    made = challenge(ann, [ben])
    assert refusal_code(lambda: challenges.challenge_decline(challenge_id=made.pk, user=ann)) == "not_invited"
    assert refusal_code(lambda: challenges.challenge_cancel(challenge_id=made.pk, user=ben)) == "not_challenger"
    assert refusal_code(lambda: challenges.challenge_accept(challenge_id=made.pk, user=cid)) == "not_invited"
    assert challenges.challenge_decline(challenge_id=made.pk, user=ben).status == Challenge.Status.DECLINED


@pytest.mark.parametrize("opponents, code", [
    (["ann"], "invalid_opponent"), (["ben", "ben"], "invalid_opponent"), (["nobody"], "unknown_player"),
    (["ai:grandmaster"], "unknown_level"), ([""], "invalid_opponent"),
])
def test_bad_opponents_are_refused_and_nothing_is_written(users, opponents, code):
    ann = users[0]
    assert refusal_code(lambda: challenges.challenge_create(creator=ann, game="hasami-shogi", opponents=opponents)) == code
    assert not Challenge.objects.exists()


def test_rated_challenges_are_between_people(users):
    ann = users[0]
    assert refusal_code(lambda: challenge(ann, ["ai:easy"], rated=True)) == "rated_needs_people"


def test_a_seat_beyond_the_table_is_refused():
    assert refusal_code(lambda: challenge(UserFactory(), ["ai:easy"], seat=2)) == "invalid_seat"
