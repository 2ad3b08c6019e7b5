"""The lobby's tournaments and ladders: listed with the viewer's place, joined and left through
ranked's services; a refusal is a message and changes nothing."""
from __future__ import annotations

import pytest
from django.test import Client

from matches.models import LadderEntry, TournamentEntry
from matches.services import ladders, tournaments

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def cup(alice):
    return tournaments.tournament_create(creator=alice, name="Spring Cup", game="hasami-shogi",
                                         kind="round-robin", max_entrants=2)


@pytest.fixture
def ladder(alice):
    return ladders.ladder_create(name="Mak-yek ladder", game="mak-yek", challenge_reach=2, created_by=alice)


def test_the_lobby_lists_tournaments_and_ladders_to_join(alice, cup, ladder):
    html = _client(alice).get("/").content.decode()
    assert "<strong>Spring Cup</strong>: Hasami Shogi (standard), round-robin, 0/2 entrants, 3 days a move" in html
    assert f'action="/tournaments/{cup.pk}/join/"' in html and 'aria-label="Join Spring Cup"' in html
    assert "<strong>Mak-yek ladder</strong>: Mak-yek (standard), 0 players, challenge up to 2 ranks above" in html
    assert f'action="/ladders/{ladder.pk}/join/"' in html


def test_join_and_leave_a_tournament_until_it_is_full(alice, bob, carol, cup):
    mine = _client(alice)
    response = mine.post(f"/tournaments/{cup.pk}/join/", follow=True)
    html = response.content.decode()
    assert "Entered: your games start with the tournament." in html
    assert "<em>you are in</em>" in html and f'action="/tournaments/{cup.pk}/leave/"' in html
    _client(bob).post(f"/tournaments/{cup.pk}/join/")
    full = _client(carol).get("/").content.decode()
    assert "2/2 entrants" in full and '<span class="muted">full</span>' in full
    refused = _client(carol).post(f"/tournaments/{cup.pk}/join/", HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["code"] == "tournament_full"
    assert set(TournamentEntry.objects.values_list("user__username", flat=True)) == {"alice", "bob"}
    mine.post(f"/tournaments/{cup.pk}/leave/")
    assert not TournamentEntry.objects.filter(user=alice).exists()
    assert f'action="/tournaments/{cup.pk}/join/"' in _client(carol).get("/").content.decode()


def test_a_started_tournament_takes_no_entries(alice, bob, carol, cup):
    for user in (alice, bob):
        tournaments.tournament_join(tournament_id=cup.pk, user=user)
    tournaments.tournament_start(tournament_id=cup.pk, user=alice)
    html = _client(carol).get("/").content.decode()
    assert "round 1" in html and f"/tournaments/{cup.pk}/join/" not in html
    response = _client(carol).post(f"/tournaments/{cup.pk}/join/", follow=True)
    assert "the tournament is running" in response.content.decode()
    assert not TournamentEntry.objects.filter(user=carol).exists()


def test_join_a_ladder_at_the_bottom(alice, bob, ladder):
    _client(alice).post(f"/ladders/{ladder.pk}/join/")
    response = _client(bob).post(f"/ladders/{ladder.pk}/join/", follow=True)
    html = response.content.decode()
    assert "You are on the ladder at #2." in html and "<em>you are #2</em>" in html
    assert f'action="/ladders/{ladder.pk}/join/"' not in html
    again = _client(bob).post(f"/ladders/{ladder.pk}/join/", HTTP_ACCEPT="application/json")
    assert again.json()["code"] == "already_joined" and LadderEntry.objects.count() == 2


def test_joining_needs_a_login_and_a_post(client, cup, ladder):
    for path in (f"/tournaments/{cup.pk}/join/", f"/ladders/{ladder.pk}/join/"):
        response = client.post(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert _client(cup.created_by).get(f"/tournaments/{cup.pk}/join/").status_code == 405
    assert not TournamentEntry.objects.exists() and not LadderEntry.objects.exists()
    missing = _client(cup.created_by).post("/tournaments/999999/join/", HTTP_ACCEPT="application/json")
    assert missing.status_code == 404 and missing.json()["code"] == "tournament_not_found"
