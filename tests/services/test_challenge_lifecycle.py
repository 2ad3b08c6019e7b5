"""Challenges that expire, rematches with the seats turned, seeks filtered by rating, and the
caller's challenges by direction."""
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.models import Challenge, Event, Match, Rating
from matches.selectors.challenges import challenges_for
from matches.services import challenges, results

from .factories import challenge, match as make_match, refusal_code

pytestmark = pytest.mark.django_db


def test_an_open_challenge_expires_after_a_week_once(users, settings):
    ann, ben, _ = users
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        made = challenge(ann, [ben])
        assert made.expires_at == t0 + timedelta(days=settings.CHALLENGE_DAYS)
    assert challenges.challenges_expire(now=t0 + timedelta(days=6)) == []
    with time_machine.travel(t0 + timedelta(days=7), tick=False):
        assert refusal_code(lambda: challenges.challenge_accept(challenge_id=made.pk, user=ben)) == "challenge_closed"
        assert challenges.challenges_expire() == [made.pk]
        assert challenges.challenges_expire() == []
    assert Challenge.objects.get(pk=made.pk).status == "expired"
    assert {e.user for e in Event.objects.filter(kind="challenge_expired")} == {ann, ben}


def test_the_expiry_is_configurable(users, settings):
    settings.CHALLENGE_DAYS = 2
    ann, ben, _ = users
    made = challenge(ann, [ben])
    assert timedelta(days=1.9) < made.expires_at - timezone.now() <= timedelta(days=2)


def test_a_rematch_turns_the_seats_and_keeps_the_terms(users):
    ann, ben, _ = users
    clock = {"kind": "fischer", "initial_days": 3, "increment_days": 1, "max_days": 5}
    first = make_match(ann, ben, rated=True, time_control=clock, options={"capture_goal": 3})
    assert refusal_code(lambda: challenges.challenge_rematch(match_id=first.pk, user=ann)) == "match_in_progress"
    results.match_resign(match_id=first.pk, user=ben)
    again = challenges.challenge_rematch(match_id=first.pk, user=ben)
    assert again.created_by == ben and again.rematch_of_id == first.pk and again.status == "open"
    assert [(s.seat, s.user) for s in again.seats.order_by("seat")] == [(0, ben), (1, ann)]
    assert again.rated and again.time_control == clock and again.options["capture_goal"] == 3
    assert Event.objects.filter(user=ann, kind="challenge_received").count() == 1
    assert refusal_code(lambda: challenges.challenge_rematch(match_id=first.pk, user=ben)) == "rematch_pending"
    accepted = challenges.challenge_rematch(match_id=first.pk, user=ann)     # asking too accepts theirs
    assert accepted.pk == again.pk and accepted.status == "started"
    second = Match.objects.get(pk=accepted.match_id)
    assert [s.user for s in second.seats.order_by("seat")] == [ben, ann]


def test_only_players_ask_for_a_rematch_and_engines_start_at_once(users):
    ann, _, cid = users
    made = challenge(ann, ["ai:random"])
    results.match_resign(match_id=made.match_id, user=ann)
    assert refusal_code(lambda: challenges.challenge_rematch(match_id=made.match_id, user=cid)) == "not_seated"
    again = challenges.challenge_rematch(match_id=made.match_id, user=ann)
    assert again.status == "started"
    assert [s.player_name for s in again.match.seats.order_by("seat")] == ["ai:random", ann.username]


def test_seeks_are_filtered_by_game_and_the_challengers_rating(users):
    ann, ben, cid = users
    Rating.objects.create(user=ann, game="hasami-shogi", rating=1800)
    strong = challenge(ann, [None])
    newcomer = challenge(ben, [None])
    other_game = challenge(cid, [None], game="pearl-five")
    challenge(cid, [ann])                                   # not a seek
    ids = lambda **f: [c.pk for c in challenges_for(None, open_only=True, **f)]  # noqa: E731
    assert ids() == [other_game.pk, newcomer.pk, strong.pk]
    assert ids(game="hasami-shogi", rating_min=1600) == [strong.pk]
    assert ids(game="hasami-shogi", rating_max=1600) == [newcomer.pk]
    assert challenges_for(None, open_only=True, rating_min=1700)[0].creator_rating == 1800


def test_direction_splits_the_callers_challenges(users):
    ann, ben, cid = users
    to_ann = challenge(ben, [ann])
    from_ann = challenge(ann, [cid])
    assert [c.pk for c in challenges_for(ann, direction="in")] == [to_ann.pk]
    assert [c.pk for c in challenges_for(ann, direction="out")] == [from_ann.pk]
    assert [c.pk for c in challenges_for(ann)] == [from_ann.pk, to_ann.pk]
