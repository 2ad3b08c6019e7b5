"""The lobby live in a real browser: a challenge received and the match it starts appear without
a reload (the player's event stream through web/static/web/live.js), each told in a notice."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.services import challenges
from tests.web.browsing import log_in

from .test_browser import _mark_document, _same_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_challenge_and_the_match_it_starts_appear_in_the_lobby_without_a_reload(new_page, alice, bob):
    page = new_page()
    log_in(page, bob)
    _mark_document(page)
    expect(page.locator("#lobby-challenges")).to_contain_text("No open challenges")
    challenge = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"])
    expect(page.locator("#live-notices")).to_contain_text("New challenge from alice")
    expect(page.locator("#lobby-challenges")).to_contain_text("by alice")
    match_id = challenges.challenge_accept(challenge_id=challenge.pk, user=bob).match_id
    expect(page.locator("#live-notices")).to_contain_text(f"Match #{match_id} has started")
    expect(page.locator("#lobby-games")).to_contain_text(f"#{match_id}")
    assert _same_document(page)
