"""The pages in a real browser (Debian's Chromium through Playwright): sign up, challenge an
engine, move by clicking, see the reply without a reload, resign; two people see each other's
moves live (one plays by keyboard); a New Eleusis page shows its viewer only their own cards."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from matches.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQKT])[CDHS](?![0-9A-Za-z])")
RULE = "suit(cur) == next_suit(suit(prev))"


def _sign_up(page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("long-enough-pw")
    page.get_by_label("Password again").fill("long-enough-pw")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def _log_in(page, user) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(f"{user.username}-secret-pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def _challenge(page, game: str, **fields) -> int:
    page.goto("/")
    page.get_by_label("Game", exact=True).select_option(game)
    for label, value in fields.items():
        field = page.locator(f"[name='{label}']:visible")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.get_by_role("button", name="Challenge").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/", page.url).group(1))


def _mark_document(page) -> None:
    """A flag that a reload would wipe out."""
    page.evaluate("window.__sameDocument = true")


def _same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


def test_sign_up_challenge_the_engine_click_a_move_see_the_reply_and_resign(new_page):
    page = new_page()
    _sign_up(page, "erin")
    _challenge(page, "hasami-shogi", level="random")
    expect(page.locator("#region-play")).to_contain_text("Your move")
    _mark_document(page)
    page.locator('[data-cell="e1"]').click()
    expect(page.locator('[data-cell="e1"]')).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator('[data-cell="e5"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator('[data-cell="f2"]')).not_to_have_class(re.compile(r"\btarget\b"))
    page.locator('[data-cell="e5"]').click()
    moves = page.locator("#move-list li")
    expect(moves).to_have_count(2)                      # mine and the engine's reply
    expect(moves.first).to_contain_text("e1-e5")
    expect(moves.nth(1)).to_contain_text("engine (random)")
    assert _same_document(page)
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#region-status")).to_contain_text("engine (random) won (resignation)")
    assert _same_document(page)
    assert Match.objects.get().status == "finished"


def test_two_people_see_each_others_moves_live_one_by_keyboard(new_page, alice, bob):
    alice_page, bob_page = new_page(), new_page()
    _log_in(alice_page, alice)
    _log_in(bob_page, bob)
    alice_page.goto("/")
    alice_page.get_by_label("Game", exact=True).select_option("hasami-shogi")
    alice_page.get_by_label("People (usernames)").check()
    alice_page.get_by_label("Usernames", exact=True).fill("bob")
    alice_page.get_by_role("button", name="Challenge").click()
    expect(alice_page.locator(".message")).to_contain_text("Challenge sent")
    bob_page.reload()
    bob_page.get_by_role("button", name="Accept").click()
    expect(bob_page.locator(".message")).to_contain_text("the match has started")
    match = Match.objects.get()
    bob_page.goto(f"/matches/{match.pk}/")
    alice_page.goto(f"/matches/{match.pk}/")
    _mark_document(alice_page)
    _mark_document(bob_page)
    expect(bob_page.locator("#region-play")).to_contain_text("Waiting for alice")

    alice_page.locator('[data-cell="e1"]').click()
    alice_page.locator('[data-cell="e5"]').click()
    expect(bob_page.locator("#move-list li")).to_have_count(1)          # live, no reload
    expect(bob_page.locator("#region-status")).to_contain_text("Your turn")

    # Bob moves with the keyboard: the first piece that can move has the focus stop (a9).
    start = bob_page.locator('[data-cell][tabindex="0"]')
    expect(start).to_have_attribute("data-cell", "a9")
    start.focus()
    bob_page.keyboard.press("Enter")
    expect(bob_page.locator('[data-cell="a8"]')).to_have_class(re.compile(r"\btarget\b"))
    bob_page.keyboard.press("ArrowDown")
    expect(bob_page.locator('[data-cell="a8"]')).to_be_focused()
    bob_page.keyboard.press("Enter")
    expect(alice_page.locator("#move-list li")).to_have_count(2)
    expect(alice_page.locator("#move-list li").nth(1)).to_contain_text("a9-a8")
    expect(alice_page.locator("#region-status")).to_contain_text("Your turn")
    assert _same_document(alice_page) and _same_document(bob_page)


def test_new_eleusis_shows_each_viewer_only_their_own_cards(new_page, alice):
    from games.new_eleusis.cards import card_text

    page = new_page()
    live_answers = []
    page.on("response", lambda r: live_answers.append(r) if "/live/" in r.url else None)
    _log_in(page, alice)
    pk = _challenge(page, "new-eleusis", level="random", **{"option-new-eleusis-rule": RULE})
    match = Match.objects.get(pk=pk)
    truth = match.state
    seat = match.seats.get(user=alice).seat
    mine = [card_text(k) for k in truth["hands"][seat]]
    expect(page.locator("#region-board")).to_contain_text("your hand: " + " ".join(mine))
    expect(page.locator("#region-play")).to_contain_text("Your move")
    _mark_document(page)

    choice = page.locator("#move-choice option").nth(1).get_attribute("value")
    page.get_by_label(re.compile("^Legal moves")).select_option(choice)
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#live-note")).to_contain_text("Updated")
    expect(page.locator("#move-list li").first).to_be_visible()
    assert _same_document(page)

    match.refresh_from_db()
    truth = match.state
    from games import get_game
    state = get_game("new-eleusis").state_from_dict(truth)
    public = set(CARD.findall(state.render_text(None))) | set(CARD.findall(json.dumps(state.view(None))))
    mine = {card_text(k) for k in truth["hands"][seat]}
    others = {card_text(k) for s, hand in enumerate(truth["hands"]) if s != seat for k in hand}
    secret_cards = others - public - mine - set(CARD.findall(page.locator("#move-list").inner_text()))
    assert secret_cards, "the test needs cards only other players hold"
    texts = [page.content()] + [r.text() for r in live_answers if r.ok]
    assert len(texts) >= 2
    for text in texts:
        assert RULE not in text and truth["nonce"] not in text and str(match.seed) not in text
        assert not set(CARD.findall(text)) & secret_cards, set(CARD.findall(text)) & secret_cards
