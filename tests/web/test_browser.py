"""The pages in a real browser (Debian's Chromium through Playwright): sign up, challenge an
engine, move by clicking, see the reply without a reload, resign; two people see each other's
moves, clocks and offers live (one plays by keyboard); a New Eleusis page shows its viewer only their own cards."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from matches.selectors.matches import legal_moves_for
from matches.services import play
from tests.web.browsing import log_in

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


def _challenge(page, game: str, clock: str = "none", **fields) -> int:
    page.goto("/")
    page.get_by_label("Game", exact=True).select_option(game)
    page.locator(f"input[name=clock][value={clock}]").check()
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
    log_in(alice_page, alice)
    log_in(bob_page, bob)
    alice_page.goto("/")
    alice_page.get_by_label("Game", exact=True).select_option("hasami-shogi")
    alice_page.get_by_label("People (usernames)").check()
    alice_page.get_by_label("Usernames", exact=True).fill("bob")
    alice_page.get_by_label("Days per move").first.check()
    expect(alice_page.get_by_role("spinbutton", name="Days per move")).to_be_visible()
    expect(alice_page.get_by_label("Days to start")).to_be_hidden()
    alice_page.get_by_role("spinbutton", name="Days per move").fill("2")
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
    # Alice's clock runs (counting down in the page), Bob's stands at two days.
    running = bob_page.locator(".seat-clock.running .clock-text")
    expect(running).to_have_count(1)
    first_reading = running.inner_text()
    assert re.fullmatch(r"1d 23:59:\d\d|2d 00:00:00", first_reading), first_reading
    expect(running).not_to_have_text(first_reading)                   # a second later
    expect(bob_page.locator(".seat-clock:not(.running) .clock-text")).to_have_text("2d 00:00:00")

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

    # An offer appears live on the other page, and goes when its maker withdraws it.
    alice_page.get_by_role("button", name="Offer a draw").click()
    expect(bob_page.get_by_role("button", name="Accept draw")).to_be_visible()
    alice_page.get_by_role("button", name="Withdraw draw offer").click()
    expect(bob_page.get_by_role("button", name="Accept draw")).to_have_count(0)
    # Declined from the page is declined (the button's own value is what is sent).
    alice_page.get_by_role("button", name="Offer a draw").click()
    bob_page.get_by_role("button", name="Decline").click()
    expect(alice_page.locator("#region-status")).not_to_contain_text("You offered a draw")
    expect(alice_page.get_by_role("button", name="Offer a draw")).to_be_visible()
    assert Match.objects.get().status == "active"
    assert _same_document(alice_page) and _same_document(bob_page)


def _secret_cards(truth: dict, seat: int | None, shown_moves: str) -> set[str]:
    """Cards in hands other than `seat`'s that nothing public shows."""
    from games import get_game
    from games.new_eleusis.cards import card_text

    state = get_game("new-eleusis").state_from_dict(truth)
    public = set(CARD.findall(state.render_text(None))) | set(CARD.findall(json.dumps(state.view(None))))
    others = {card_text(k) for s, hand in enumerate(truth["hands"]) if s != seat for k in hand}
    mine = {card_text(k) for k in truth["hands"][seat]} if seat is not None else set()
    return others - public - mine - set(CARD.findall(shown_moves))


def _follow_live(page) -> list:
    answers = []
    page.on("response", lambda r: answers.append(r) if "/live/" in r.url else None)
    return answers


def test_new_eleusis_shows_each_viewer_only_their_own_cards(new_page, alice, carol):
    from games.new_eleusis.cards import card_text

    page = new_page()
    live_answers = _follow_live(page)
    log_in(page, alice)
    pk = _challenge(page, "new-eleusis", clock="per_move", level="random",
                    **{"option-new-eleusis-rule": RULE})
    match = Match.objects.get(pk=pk)
    truth = match.state
    seat = match.seats.get(user=alice).seat
    mine = [card_text(k) for k in truth["hands"][seat]]
    assert page.locator("#region-board .hand input[name=card]").evaluate_all(
        "boxes => boxes.map(b => b.value)") == mine
    expect(page.locator("#region-play")).to_contain_text("Your move")
    expect(page.locator(".seat-clock.running")).to_have_count(1)          # the page's clocks, engines have none
    _mark_document(page)

    # A card picked from the hand, played with the hand's own button.
    card = next(m for m in legal_moves_for(match, seat) if re.fullmatch(r"play \S+", m)).split()[1]
    page.locator(f".hand input[value='{card}']").first.check()
    page.locator(".hand").get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#live-note")).to_contain_text("Updated")
    expect(page.locator("#move-list li").first).to_be_visible()
    assert _same_document(page)

    # A stranger watching the same match, and the pages around it (the lobby's list of games, the
    # player page): every part of them, as served and as fetched live.
    texts = [page.content()] + [r.text() for r in live_answers if r.ok]     # before the page moves on
    watcher = new_page()
    watched = _follow_live(watcher)
    log_in(watcher, carol)
    watcher.goto(f"/matches/{pk}/")
    expect(watcher.locator("#region-play")).to_contain_text("You are watching")
    watcher_texts = [watcher.content()]
    # Alice plays on (the engines reply): the watcher's page takes the new parts live.
    match.refresh_from_db()
    play.move_submit(match_id=pk, user=alice, move=legal_moves_for(match, seat)[0], ply=match.ply)
    expect(watcher.locator("#live-note")).to_contain_text("Updated")
    watcher_texts += [r.text() for r in watched if r.ok]
    assert any('"regions"' in t for t in watcher_texts)
    for path in ("/", "/players/alice/"):
        page.goto(path)
        texts.append(page.content())

    match.refresh_from_db()
    truth = match.state
    moves = watcher.locator("#move-list").inner_text()
    secret_cards = _secret_cards(truth, seat, moves)
    assert secret_cards, "the test needs cards only other players hold"
    assert len(texts) >= 4
    hidden_from_all = _secret_cards(truth, None, moves)
    for text, secrets in [*((t, secret_cards) for t in texts), *((t, hidden_from_all) for t in watcher_texts)]:
        assert RULE not in text and truth["nonce"] not in text and str(match.seed) not in text
        assert not set(CARD.findall(text)) & secrets, set(CARD.findall(text)) & secrets
