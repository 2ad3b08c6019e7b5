"""The inbox: the matches where a player is to move (or plays), soonest deadline first, each with
the player's seat, the clocks and the latest move."""
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.models import Match
from matches.selectors.matches import match_summary, matches_query
from matches.services import play, results

from .factories import match as make_match

pytestmark = pytest.mark.django_db


def _ids(qs):
    return [m.pk for m in qs]


def test_my_turn_lists_only_the_matches_waiting_for_me(users):
    ann, ben, cid = users
    waiting = make_match(ann, ben, days_per_move=3)         # ann to move
    moved = make_match(ann, ben, days_per_move=3)
    play.move_submit(match_id=moved.pk, user=ann, move="e1-e5")   # now ben's turn
    over = make_match(ann, cid)
    results.match_resign(match_id=over.pk, user=cid)
    assert _ids(matches_query(viewer=ann, my_turn=True)) == [waiting.pk]
    assert _ids(matches_query(viewer=ben, my_turn=True)) == [moved.pk]
    assert _ids(matches_query(viewer=cid, my_turn=True)) == []
    assert set(_ids(matches_query(viewer=ann, active=True))) == {waiting.pk, moved.pk}


def test_the_soonest_deadline_comes_first_and_no_clock_last(users):
    ann, ben, _ = users
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        relaxed = make_match(ann, ben, days_per_move=10)
        unclocked = make_match(ann, ben)
    with time_machine.travel(start + timedelta(days=1), tick=False):
        urgent = make_match(ann, ben, days_per_move=2)      # due at day 3, before day 10
    assert _ids(matches_query(viewer=ann, my_turn=True)) == [urgent.pk, relaxed.pk, unclocked.pk]


def test_a_list_item_says_whose_seat_whose_turn_and_what_was_played(users):
    ann, ben, cid = users
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = make_match(ann, ben, days_per_move=2)
    with time_machine.travel(start + timedelta(hours=5), tick=False):
        play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    with time_machine.travel(start + timedelta(hours=6), tick=False):
        item = match_summary(Match.objects.get(pk=match.pk), ben)
    assert item["viewer_seat"] == 1 and item["to_move"] == 1
    assert item["last_move"]["ply"] == 1 and item["last_move"]["move"] == "e1-e5"
    assert item["deadline"] == start + timedelta(hours=5, days=2)
    assert item["clocks"] == [{"seat": 0, "remaining": 2 * 86400, "running": False},
                              {"seat": 1, "remaining": 2 * 86400 - 3600, "running": True}]
    assert match_summary(Match.objects.get(pk=match.pk), cid)["viewer_seat"] is None


def test_a_match_without_a_clock_has_no_clocks(users):
    ann, ben, _ = users
    item = match_summary(make_match(ann, ben), ann)
    assert item["clocks"] is None and item["deadline"] is None and item["last_move"] is None
