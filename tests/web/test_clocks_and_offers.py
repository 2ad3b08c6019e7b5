"""The match page's clocks (per seat, from the match detail: per-move and Fischer) and its offers
(from the detail: accept, decline, and withdraw the viewer's own); the challenge form's clocks.
Time moves by a controllable clock, never by sleeping."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from matches.models import Challenge, Match
from matches.services import challenges, play

pytestmark = pytest.mark.django_db
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@pytest.fixture
def moment():
    start = timezone.now().replace(microsecond=0)
    with time_machine.travel(start, tick=False) as traveller:
        yield traveller, start


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _people_match(alice, bob, **clock) -> Match:
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"], **clock)
    return challenges.challenge_accept(challenge_id=pending.pk, user=bob).match


def _clocks(html: str) -> list[tuple[str, bool, str]]:
    """(seconds, running, text) of each seat clock, in seat order."""
    return [(seconds, bool(running), text) for seconds, running, text in re.findall(
        r'<span class="seat-clock[^"]*" data-remaining="(\d+)"( data-running="1")?[^>]*>.*?'
        r'<span class="clock-text">([^<]+)</span>', html)]


def _status(client, match) -> str:
    return client.get(f"/matches/{match.pk}/live/").json()["regions"]["status"]


def test_per_move_clocks_count_the_seat_to_move_only(alice, bob, moment):
    traveller, start = moment
    match = _people_match(alice, bob, days_per_move=3)
    traveller.move_to(start + HOUR)
    html = _client(bob).get(f"/matches/{match.pk}/").content.decode()
    assert _clocks(html) == [("255600", True, "2d 23:00:00"), ("259200", False, "3d 00:00:00")]
    assert "3 days a move" in html and "Deadline:" not in html       # the running clock is the deadline
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5")
    assert _clocks(_status(_client(bob), match)) == [("259200", False, "3d 00:00:00"),
                                                     ("259200", True, "3d 00:00:00")]


def test_a_fischer_clock_banks_the_increment(alice, bob, moment):
    traveller, start = moment
    match = _people_match(alice, bob, time_control={"kind": "fischer", "initial_days": 3, "increment_days": 1,
                                                    "max_days": 4})
    traveller.move_to(start + DAY / 2)
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5")
    traveller.move_to(start + DAY)
    html = _client(alice).get(f"/matches/{match.pk}/").content.decode()
    # Alice: 3 days − 12 hours + 1 day; Bob's has run 12 hours.
    assert _clocks(html) == [("302400", False, "3d 12:00:00"), ("216000", True, "2d 12:00:00")]
    assert "Fischer clock: 3 days to start, 1 day more after each move, at most 4 days" in html


def test_an_engine_seat_has_no_clock_and_a_match_without_one_shows_none(login, alice, moment):
    client = login(alice)
    client.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random",
                                 "clock": "per_move", "days_per_move": "2"})
    html = client.get(f"/matches/{Match.objects.get().pk}/").content.decode()
    assert _clocks(html) == [("172800", True, "2d 00:00:00")] and "no clock" in html
    client.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random", "clock": "none",
                                 "days_per_move": "3"})
    untimed = Match.objects.order_by("-id").first()
    assert untimed.time_control is None
    html = client.get(f"/matches/{untimed.pk}/").content.decode()
    assert "seat-clock" not in html and "Deadline:" in html


@pytest.mark.parametrize("fields,message", [
    ({"initial_days": "7", "increment_days": "1", "max_days": "5"}, "max_days must be at least initial_days"),
    ({"initial_days": "", "increment_days": "1", "max_days": "5"}, "Give a number of days"),
    ({"initial_days": "90", "increment_days": "1", "max_days": "100"}, "initial_days must be a whole number"),
])
def test_refused_fischer_clocks_change_nothing(login, alice, fields, message):
    response = login(alice).post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random",
                                                  "clock": "fischer", **fields})
    assert response.status_code == 400 and message in response.content.decode()
    assert not Challenge.objects.exists()


def test_the_challenge_form_sets_a_fischer_clock(login, alice, bob):
    login(alice).post("/challenges/", {
        "game": "hasami-shogi", "opponent": "person", "usernames": "bob", "clock": "fischer", "rated": "on",
        "initial_days": "7", "increment_days": "1", "max_days": "14"})
    challenge = Challenge.objects.get()
    assert challenge.rated and challenge.time_control == {"kind": "fischer", "initial_days": 7,
                                                          "increment_days": 1, "max_days": 14}


def test_offers_come_from_the_detail_and_the_maker_can_withdraw(alice, bob, carol):
    match = _people_match(alice, bob, days_per_move=3)
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5")
    mine, theirs, watcher = _client(alice), _client(bob), _client(carol)
    assert mine.post(f"/matches/{match.pk}/takeback/", {"action": "offer"}).status_code == 302
    html = _status(mine, match)
    assert "Withdraw takeback offer" in html and "You offered a takeback" in html
    assert "Offer a draw" not in html and "Ask to take back" not in html     # one pending offer a seat
    html = _status(theirs, match)
    assert "alice offers a takeback." in html and "Accept takeback" in html and "Withdraw" not in html
    assert "Ask to take back" not in html and "Offer a draw" in html       # Accept answers the pending one
    spectator = _status(watcher, match)
    assert "· offers a takeback" in spectator and "Accept" not in spectator and "Withdraw" not in spectator

    response = mine.post(f"/matches/{match.pk}/takeback/", {"action": "withdraw"}, follow=True)
    assert "Takeback request withdrawn." in response.content.decode()
    assert not Match.objects.get(pk=match.pk).seats.exclude(offer="").exists()
    assert "offers a takeback" not in _status(theirs, match) and "Ask to take back" in _status(mine, match)
    # Nothing left to withdraw: refused with the service's code, nothing changes.
    refused = mine.post(f"/matches/{match.pk}/draw/", {"action": "withdraw"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["code"] == "no_offer"
    assert Match.objects.get(pk=match.pk).ply == 1


def test_a_draw_offer_withdrawn_before_the_answer(alice, bob):
    match = _people_match(alice, bob)
    mine, theirs = _client(alice), _client(bob)
    mine.post(f"/matches/{match.pk}/draw/", {"action": "offer"})
    assert "Accept draw" in _status(theirs, match)
    mine.post(f"/matches/{match.pk}/draw/", {"action": "withdraw"})
    refused = theirs.post(f"/matches/{match.pk}/draw/", {"action": "accept"}, HTTP_ACCEPT="application/json")
    assert refused.json()["code"] == "no_offer" and Match.objects.get(pk=match.pk).status == "active"
