"""The privacy page and the block and report forms (no browser): writes through the services,
refusals as messages, other people's words as text."""
from __future__ import annotations

import pytest

from community.models import Block, Report
from matches.models import Profile

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert(1)</script>"


def test_privacy_page_needs_an_account(web_client):
    response = web_client.get("/accounts/privacy/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_block_and_unblock_through_the_page(login, alice, bob):
    client = login(alice)
    client.post("/accounts/blocks/", {"username": "bob"})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    page = client.get("/accounts/privacy/").content.decode()
    assert "bob" in page and "Unblock" in page
    refused = client.post("/accounts/blocks/", {"username": "nobody"}, follow=True)
    assert "no player named" in refused.content.decode()
    client.post("/accounts/blocks/bob/unblock/")
    assert not Block.objects.exists()


def test_report_from_the_player_page_and_hostile_profiles_are_text(login, alice, bob):
    Profile.objects.create(user=bob, display_name=HOSTILE, bio=HOSTILE)
    client = login(alice)
    page = client.get("/players/bob/").content.decode()
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Block or report" in page
    client.post("/players/bob/report/", {"reason": "abusive bio"})
    assert Report.objects.get().player == bob
    assert "Block or report" not in login(bob).get("/players/bob/").content.decode()


def test_delete_account_through_the_page(login, alice):
    client = login(alice)
    wrong = client.post("/accounts/delete/", {"password": "nope"}, follow=True)
    assert "not this account" in wrong.content.decode()
    alice.refresh_from_db()
    assert alice.is_active
    client.post("/accounts/delete/", {"password": "alice-secret-pw"})
    alice.refresh_from_db()
    assert not alice.is_active and alice.username.startswith("deleted-")
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_match_page_includes_the_chat_of_the_viewers_room(login, alice, bob, carol):
    from tests.services import factories

    match = factories.match(alice, bob)
    assert 'data-room="players"' in login(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-room="spectators"' in login(carol).get(f"/matches/{match.pk}/").content.decode()


def test_the_download_link_gives_the_export_to_the_signed_in_player(login, alice, web_client):
    page = login(alice).get("/accounts/privacy/").content.decode()
    assert 'href="/api/v1/accounts/me/export/"' in page
    response = login(alice).get("/api/v1/accounts/me/export/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert response.json()["account"]["username"] == "alice"


def test_hostile_display_names_are_text_on_the_leaderboard_and_a_suspended_player_leaves_it(
        login, alice, bob, django_user_model):
    from django.utils import timezone

    from community.services import moderation
    from matches.models import Rating

    Profile.objects.create(user=bob, display_name=HOSTILE)
    Rating.objects.create(user=bob, game="hasami-shogi", rating=1700, deviation=50, games=20,
                          last_played_at=timezone.now())
    page = login(alice).get("/games/hasami-shogi/leaderboard/").content.decode()
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "/players/bob/" in page
    staff = django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)
    moderation.suspend(staff=staff, username="bob", reason="abuse")
    assert "/players/bob/" not in login(alice).get("/games/hasami-shogi/leaderboard/").content.decode()


def test_after_deleting_the_old_name_is_held_on_the_signup_page(login, alice, client):
    from django.contrib.auth import get_user_model

    login(alice).post("/accounts/delete/", {"password": "alice-secret-pw"})
    users = get_user_model().objects.count()
    for name, refusal in (("alice", "not free yet"), ("ALICE", "not free yet"), (f"deleted-{alice.pk}", "reserved")):
        response = client.post("/accounts/signup/", {"username": name, "password": "long-enough-pw",
                                                     "password_again": "long-enough-pw"})
        assert response.status_code == 400 and refusal in response.content.decode(), name
    assert get_user_model().objects.count() == users
