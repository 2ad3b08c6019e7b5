"""Every page under the Content-Security-Policy in a real browser: no violation is reported (the
`new_page` fixture fails the test on any console error, which is where Chromium reports them).
Then chat on the match page: hostile text arrives as text, and the spectators talk apart."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from community.services import chat
from matches.models import Profile
from tests.services import factories
from tests.web.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = '<img src=x onerror="window.__owned=1"><script>window.__owned=1</script>'
HOSTILE_NAME = "<script>window.__owned=1</script>"          # display names hold 50 characters


def test_every_page_loads_under_the_policy(new_page, alice, bob):
    Profile.objects.create(user=bob, display_name=HOSTILE_NAME, bio=HOSTILE)
    match = factories.match(alice, bob)
    violations = []
    page = new_page()
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    log_in(page, alice)
    for path in ("/", "/games/", "/games/hasami-shogi/rules/", "/games/hasami-shogi/leaderboard/",
                 "/players/bob/", f"/matches/{match.pk}/", "/accounts/privacy/", "/api/docs/"):
        response = page.goto(path)
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("load")
    assert page.evaluate("window.__owned === undefined")
    assert not violations, violations


def test_chat_on_the_match_page_is_text_and_rooms_stay_apart(new_page, alice, bob, carol):
    match = factories.match(alice, bob)
    chat.chat_post(match_id=match.pk, user=carol, room="spectators", text="carol thinks bob wins")
    alice_page, carol_page = new_page(), new_page()
    log_in(alice_page, alice)
    log_in(carol_page, carol)
    alice_page.goto(f"/matches/{match.pk}/")
    alice_page.get_by_label("Message").fill(HOSTILE)
    alice_page.get_by_role("button", name="Send").click()
    expect(alice_page.locator("#chat-log li")).to_have_count(1)
    expect(alice_page.locator("#chat-log li").first).to_contain_text(HOSTILE)
    assert alice_page.evaluate("window.__owned === undefined")
    assert "carol thinks" not in alice_page.locator("#chat").inner_text()
    carol_page.goto(f"/matches/{match.pk}/")
    expect(carol_page.get_by_role("heading", name="Spectators' chat")).to_be_visible()
    expect(carol_page.locator("#chat-log li")).to_contain_text(["carol thinks bob wins"])
    assert HOSTILE not in carol_page.locator("#chat").inner_text()
