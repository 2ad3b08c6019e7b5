"""Ladders without HTTP: one active challenge per pair and per challenger, the answer window and
its forfeit (on a controllable clock), and no-show matches that count as forfeits, not games."""
from datetime import datetime, timedelta, timezone as tz

import pytest
import time_machine

from matches.models import Challenge, LadderEntry, LadderEvent, Rating
from matches.services import challenges, ladders, play, results

from .factories import UserFactory, refusal_code

pytestmark = pytest.mark.django_db
START = datetime(2030, 3, 1, 12, 0, tzinfo=tz.utc)


@pytest.fixture
def ladder(users):
    ladder = ladders.ladder_create(name="Open", game="hasami-shogi", challenge_reach=3, answer_days=5,
                                   created_by=users[0])
    for user in users:                       # ann #1, ben #2, cid #3
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    return ladder


def _ranks(ladder):
    return list(LadderEntry.objects.filter(ladder=ladder).order_by("rank").values_list("user__username", flat=True))


def _challenge(ladder, user, opponent):
    return ladders.ladder_challenge(ladder_id=ladder.pk, user=user, opponent=opponent.username)


def test_one_active_challenge_per_pair_and_per_challenger(ladder, users):
    ann, ben, cid = users
    first = _challenge(ladder, cid, ben)
    assert refusal_code(lambda: _challenge(ladder, cid, ann)) == "ladder_game_pending"     # per challenger
    assert refusal_code(lambda: _challenge(ladder, cid, ben)) == "ladder_game_pending"     # per pair
    assert _challenge(ladder, ben, ann).status == Challenge.Status.OPEN                     # others may
    match = challenges.challenge_accept(challenge_id=first.pk, user=ben).match
    assert refusal_code(lambda: _challenge(ladder, cid, ben)) == "ladder_game_pending"     # still playing
    play.move_submit(match_id=match.pk, user=cid, move="e1-e5", ply=0)
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8", ply=1)
    results.match_resign(match_id=match.pk, user=cid)
    assert _ranks(ladder) == ["ann", "ben", "cid"]
    assert _challenge(ladder, cid, ben).status == Challenge.Status.OPEN                     # over: again


def test_declining_a_ladder_challenge_is_the_defenders_forfeit(ladder, users):
    ann, ben, cid = users
    challenge = _challenge(ladder, cid, ann)
    challenges.challenge_decline(challenge_id=challenge.pk, user=ann)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.DECLINED
    assert _ranks(ladder) == ["cid", "ann", "ben"]
    assert LadderEntry.objects.get(user=ann).forfeits == 1
    assert LadderEvent.objects.filter(kind="forfeited", forfeited_by=ann, challenge=challenge).exists()
    assert cid.events.filter(kind="ladder_forfeit").exists()
    assert ladders.ladder_forfeit_unanswered() == []            # settled once, not again later


def test_an_unanswered_challenge_is_forfeited_after_its_window(ladder, users):
    ann, ben, cid = users
    with time_machine.travel(START, tick=False) as clock:
        challenge = _challenge(ladder, cid, ann)
        clock.shift(timedelta(days=5) - timedelta(minutes=1))
        assert ladders.ladder_forfeit_unanswered() == []
        clock.shift(timedelta(minutes=2))
        assert ladders.ladder_forfeit_unanswered() == [challenge.pk]
        assert ladders.ladder_forfeit_unanswered() == []
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.DECLINED
    assert _ranks(ladder) == ["cid", "ann", "ben"]
    entry = LadderEntry.objects.get(user=ann)
    assert (entry.forfeits, entry.losses) == (1, 0)
    event = LadderEvent.objects.filter(kind="forfeited").get()
    assert (event.forfeited_by, event.challenger_rank, event.defender_rank) == (ann, 1, 2)
    assert ann.events.filter(kind="ladder_forfeit").exists() and cid.events.filter(kind="ladder_forfeit").exists()


def test_a_defender_who_never_moves_forfeits_without_a_rated_game(ladder, users):
    ann, ben, cid = users
    challenge = _challenge(ladder, cid, ben)
    match = challenges.challenge_accept(challenge_id=challenge.pk, user=ben).match
    play.move_submit(match_id=match.pk, user=cid, move="e1-e5", ply=0)
    results.match_claim_timeouts(now=match.created_at + timedelta(days=30))
    assert _ranks(ladder) == ["ann", "cid", "ben"]
    ben_entry, cid_entry = LadderEntry.objects.get(user=ben), LadderEntry.objects.get(user=cid)
    assert (ben_entry.forfeits, ben_entry.losses, cid_entry.wins) == (1, 0, 0)
    assert not Rating.objects.exists()


def test_a_played_ladder_match_is_rated_and_counted(ladder, users):
    ann, ben, cid = users
    match = challenges.challenge_accept(challenge_id=_challenge(ladder, cid, ben).pk, user=ben).match
    play.move_submit(match_id=match.pk, user=cid, move="e1-e5", ply=0)
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8", ply=1)
    results.match_resign(match_id=match.pk, user=ben)
    assert _ranks(ladder) == ["ann", "cid", "ben"]
    assert LadderEntry.objects.get(user=cid).wins == 1 and Rating.objects.count() == 2
    kinds = list(LadderEvent.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["joined", "joined", "joined", "climbed"]


def test_anyone_may_open_a_ladder_for_a_two_player_game():
    dee = UserFactory(username="dee")
    ladder = ladders.ladder_create(name="Tenbin", game="hasami-shogi", variant="tenbin", created_by=dee)
    assert ladder.created_by == dee and ladder.variant == "tenbin" and ladder.answer_days == 7
    assert refusal_code(lambda: ladders.ladder_create(name="E", game="new-eleusis")) == "not_two_player"
