"""Offers in full: listed, withdrawn, lapsing with the next move, takebacks only of a move of the
asker, and engines answering at once."""
import random

import pytest

import games
from matches.models import Event, Match
from matches.selectors.matches import match_detail
from matches.services import offers, play

from .factories import challenge, match as make_match, refusal_code

pytestmark = pytest.mark.django_db


def _kinds(user):
    return [e.kind for e in Event.objects.filter(user=user).order_by("id")]


def test_the_next_move_lets_pending_offers_lapse_and_says_so(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    offers.match_takeback(match_id=match.pk, user=ann)
    assert match_detail(Match.objects.get(pk=match.pk), ben)["offers"] == [
        {"kind": "takeback", "seat": 0, "ply": 1}]
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
    assert not Match.objects.get(pk=match.pk).seats.exclude(offer="").exists()
    lapsed = Event.objects.filter(user=ann, kind="offer_expired")
    assert [e.payload for e in lapsed] == [{"match": match.pk, "offer": "takeback", "seat": 0, "ply": 1}]
    assert Event.objects.filter(user=ben, kind="offer_expired").count() == 1
    assert refusal_code(lambda: offers.match_draw(match_id=match.pk, user=ben, action="accept")) == "no_offer"


def test_a_takeback_offer_needs_a_move_of_the_asker_and_changes_nothing_when_refused(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    assert refusal_code(lambda: offers.match_takeback(match_id=match.pk, user=ann)) == "nothing_to_take_back"
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    assert refusal_code(lambda: offers.match_takeback(match_id=match.pk, user=ben)) == "nothing_to_take_back"
    assert not Match.objects.get(pk=match.pk).seats.exclude(offer="").exists()
    assert "offer_made" not in _kinds(ann) + _kinds(ben)


def test_an_accepted_takeback_says_so_and_gives_the_turn_back(users):
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=2)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    offers.match_takeback(match_id=match.pk, user=ann)
    offers.match_takeback(match_id=match.pk, user=ben, action="accept")
    stored = Match.objects.get(pk=match.pk)
    assert stored.ply == 0 and stored.to_move == 0 and stored.last_move is None and stored.deadline
    accepted = Event.objects.get(user=ann, kind="offer_accepted")
    assert accepted.payload == {"match": match.pk, "offer": "takeback", "by": ben.username, "seat": 1, "ply": 1}
    assert _kinds(ann)[-1] == "your_turn"


def test_only_the_maker_withdraws(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    offers.match_draw(match_id=match.pk, user=ann)
    assert refusal_code(lambda: offers.match_draw(match_id=match.pk, user=ben, action="withdraw")) == "no_offer"
    offers.match_draw(match_id=match.pk, user=ann, action="withdraw")
    assert Event.objects.get(user=ben, kind="offer_withdrawn").payload["by"] == ann.username
    assert refusal_code(lambda: offers.match_draw(match_id=match.pk, user=ben, action="accept")) == "no_offer"


def _engine_match(ann, level="easy"):
    made = challenge(ann, [f"ai:{level}"])
    return Match.objects.get(pk=made.match_id)


def _set_position(match, state, ply):
    Match.objects.filter(pk=match.pk).update(state=state.to_dict(), ply=ply, to_move=state.current_player)


def _playout(plies, seed, accept):
    """A hasami position after `plies` random moves (seeded) that `accept` likes."""
    rules = games.get_game("hasami-shogi")
    for attempt in range(200):
        rng, state = random.Random(seed * 1000 + attempt), rules.new_state(players=2, seed=0)
        for _ in range(plies):
            if state.is_terminal:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal and state.current_player == 0 and accept(state):
            return state
    raise AssertionError("no such position")


def test_engines_decline_draws_in_the_opening(users):
    ann = users[0]
    match = _engine_match(ann)
    offers.match_draw(match_id=match.pk, user=ann)
    assert Match.objects.get(pk=match.pk).status == "active"
    declined = Event.objects.get(user=ann, kind="offer_declined")
    assert declined.payload == {"match": match.pk, "offer": "draw", "by": "ai:easy", "seat": 1}
    assert not Match.objects.get(pk=match.pk).seats.exclude(offer="").exists()


def test_engines_accept_a_draw_in_a_level_position_past_the_opening(users):
    ann = users[0]
    match = _engine_match(ann)
    level = _playout(24, 1, lambda s: s.view(None)["men"][0] == s.view(None)["men"][1])
    _set_position(match, level, 24)
    finished = offers.match_draw(match_id=match.pk, user=ann)
    assert finished.status == "finished" and finished.result["termination"] == "agreement"
    assert Event.objects.get(user=ann, kind="offer_accepted").payload["by"] == ann.username


def test_engines_play_on_when_the_position_is_not_level(users):
    ann = users[0]
    match = _engine_match(ann)
    lopsided = _playout(40, 2, lambda s: abs(s.view(None)["men"][0] - s.view(None)["men"][1]) >= 2)
    _set_position(match, lopsided, 40)
    assert offers.match_draw(match_id=match.pk, user=ann).status == "active"
    assert Event.objects.filter(user=ann, kind="offer_declined").count() == 1
