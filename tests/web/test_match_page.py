"""The match page a player lives in, in Debian's Chromium: a refused move leaves the box usable
with its error beside it; each player sees their side named and the board from their side; the
last move and captures are marked; Pearl Five's directions are picked on the board without the
page jumping; pieces need no font; declined offers are told and engines are not asked for
takebacks; replay, flip, rematch, rating changes and the analysis's marks; dark mode; New
Eleusis's table and Glaisher's moves on the board."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from matches.selectors.matches import (
    get_match,
    legal_moves_for,
    match_state,
    viewer_seat,
)
from matches.services import analysis, challenges, offers, play, results
from tests.web.browsing import engine_match, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
MARKED = ("inaccuracy", "mistake", "blunder")


def _people_match(first, second, game: str = "hasami-shogi", **extra) -> Match:
    pending = challenges.challenge_create(creator=first, game=game, opponents=[second.username], **extra)
    return challenges.challenge_accept(challenge_id=pending.pk, user=second).match


def test_a_refused_move_shows_its_error_beside_play_and_the_box_stays_usable(new_page, alice):
    page = new_page()
    log_in(page, alice)
    page.set_viewport_size(PHONE)
    page.goto(f"/matches/{engine_match(alice, 'hasami-shogi')}/")
    page.get_by_label("Type a move").fill("a1-a9")
    play_button = page.locator("#move-form").get_by_role("button", name="Play", exact=True)
    play_button.click()
    error = page.locator("#move-error")
    expect(error).to_contain_text("a1")
    expect(error).to_be_in_viewport()
    expect(play_button).to_be_enabled()
    page.get_by_label("Type a move").fill("e1-e5")
    play_button.click()
    expect(page.locator("#move-list")).to_contain_text("e1-e5")


def test_each_player_sees_their_side_named_and_the_board_from_their_side(new_page, alice, bob):
    match = _people_match(alice, bob)
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5")
    page = new_page()
    log_in(page, bob)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator(".my-side")).to_contain_text("You play White")
    expect(page.locator("#board svg g.turned")).to_have_count(1)
    # Bob's men (rank 9) are drawn at the bottom of the picture, Alice's (rank 1) at the top.
    top_of = "name => document.querySelector(`#board [data-cell=\"${name}\"]`).getBoundingClientRect().top"
    assert page.evaluate(top_of, "e9") > page.evaluate(top_of, "e1")
    expect(page).to_have_title(re.compile(r"^\(Your move\) Hasami Shogi"))
    page.get_by_role("link", name="Flip board").click()
    expect(page.locator("#board svg g.turned")).to_have_count(0)
    assert page.evaluate(top_of, "e9") < page.evaluate(top_of, "e1")
    # The last move is marked on its cells; the seats say which colour each plays.
    assert page.locator("#board .last-move").evaluate_all("els => els.map(e => e.dataset.cell)") == ["e1", "e5"]
    expect(page.locator(".seats")).to_contain_text("Black alice")
    expect(page.locator(".seats")).to_contain_text("White bob (you)")


def test_a_capture_is_crossed_out_and_counted(new_page, alice, bob):
    match = _people_match(alice, bob)
    for user, move in [(alice, "d1-d5"), (bob, "e9-e5"), (alice, "f1-f5")]:
        play.move_submit(match_id=match.pk, user=user, move=move)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{match.pk}/")
    captured = match_state(get_match(match.pk)).view(0)["last_captured"]
    assert captured == ["e5"], "f1-f5 closes d5 … f5 round e5"
    expect(page.locator("#board .captured-mark")).to_have_count(len(captured))
    expect(page.locator(".seats li").first).to_contain_text(f"captured {len(captured)}")


def test_pearl_five_directions_are_arrows_on_the_board_and_the_page_stays_put(new_page, alice):
    page = new_page()
    log_in(page, alice)
    pk = engine_match(alice, "pearl-five", moves=2)
    page.set_viewport_size(PHONE)
    page.goto(f"/matches/{pk}/")
    legal = legal_moves_for(get_match(pk), 0)
    cell = next(m[:-1] for m in legal if sum(x[:-1] == m[:-1] for x in legal) > 1)
    page.locator(f"#board [data-cell='{cell}']").scroll_into_view_if_needed()
    before = page.evaluate("scrollY")
    page.locator(f"#board [data-cell='{cell}']").click()
    arrows = page.locator("#board .choice-arrow")
    expect(arrows.first).to_be_visible()
    assert arrows.count() == sum(m[:-1] == cell for m in legal)
    assert abs(page.evaluate("scrollY") - before) < 5, "picking a point scrolled the page"
    chosen = arrows.first.get_attribute("data-move")
    arrows.first.click()
    expect(page.locator("#move-list")).to_contain_text(chosen)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_hasami_pieces_are_drawn_as_paths_without_any_font(new_page, alice):
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{engine_match(alice, 'hasami-shogi')}/")
    texts = page.locator("#board svg text").all_text_contents()
    assert not any(ch in "".join(texts) for ch in "歩と")
    expect(page.locator("#board svg path:has(title)")).to_have_count(18)


def test_engines_are_not_asked_for_takebacks_and_a_declined_draw_is_told(new_page, alice, bob):
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{engine_match(alice, 'hasami-shogi', moves=2)}/")
    expect(page.get_by_role("button", name="Ask to take back")).to_have_count(0)
    page.get_by_role("button", name="Offer a draw").click()
    expect(page.locator("#live-note")).to_contain_text("engine (random) declined your draw offer")
    page.reload()
    expect(page.locator(".notice")).to_contain_text("engine (random) declined your draw offer")
    people = _people_match(alice, bob)
    play.move_submit(match_id=people.pk, user=alice, move="e1-e5")
    page.goto(f"/matches/{people.pk}/")
    expect(page.get_by_role("button", name="Ask to take back")).to_be_visible()


def test_a_draw_declined_by_a_person_is_told_without_a_reload(new_page, alice, bob):
    people = _people_match(alice, bob)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{people.pk}/")
    page.get_by_role("button", name="Offer a draw").click()
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    offers.match_draw(match_id=people.pk, user=bob, action="decline")
    expect(page.locator(".notice")).to_contain_text("declined your draw offer")


def test_the_can_move_mark_leaves_white_pearls_white_and_coordinates_are_legible(new_page, alice):
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{engine_match(alice, 'pearl-war')}/")
    source = page.locator("#board [data-cell].source").first
    assert source.evaluate("el => getComputedStyle(el).fill") in ("transparent", "rgba(0, 0, 0, 0)")
    label_px = page.locator("#board svg text").first.evaluate("el => el.getBoundingClientRect().height")
    assert label_px >= 10


def test_replay_through_the_move_list_and_the_arrow_keys(new_page, alice):
    page = new_page()
    log_in(page, alice)
    pk = engine_match(alice, "hasami-shogi", moves=3)
    page.goto(f"/matches/{pk}/")
    current = page.locator("#board svg").inner_html()
    page.locator("#move-list [data-ply='1']").click()
    expect(page.locator("#board.replaying")).to_have_count(1)
    expect(page.locator("#replay-ply")).to_contain_text("ply 1 of 6")
    first = get_match(pk).moves.get(ply=1).notation
    assert page.locator("#board .last-move").evaluate_all("els => els.map(e => e.dataset.cell)") == first.split("-")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-ply")).to_contain_text("ply 0 of 6")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#board.replaying")).to_have_count(0)
    assert page.locator("#board svg").inner_html() == current
    expect(page.locator("#move-list [aria-current=step]")).to_have_attribute("data-ply", "6")


def test_rematch_and_the_rating_change_with_the_result(new_page, alice, bob):
    rated = _people_match(alice, bob, rated=True, days_per_move=3)
    results.match_resign(match_id=rated.pk, user=bob)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{rated.pk}/")
    expect(page.locator(".seats .rating-change.up")).to_contain_text(re.compile(r"rating \+\d+"))
    expect(page.locator(".seats .rating-change.down")).to_contain_text(re.compile(r"rating -\d+"))
    casual = engine_match(alice, "hasami-shogi", moves=1)
    results.match_resign(match_id=casual, user=alice)
    page.goto(f"/matches/{casual}/")
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: not url.endswith(f"/matches/{casual}/"))
    rematch = Match.objects.order_by("-id").first()
    assert page.url.endswith(f"/matches/{rematch.pk}/") and rematch.pk != casual
    expect(page.locator(".my-side")).to_contain_text("You play White")        # the seats turned


def test_the_analysis_marks_moves_in_the_list(new_page, alice):
    pk = engine_match(alice, "hasami-shogi", moves=14, seed="blunders")
    results.match_resign(match_id=pk, user=alice)
    analysis.analysis_request(match_id=pk, user=alice, level="easy")
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{pk}/")
    rows = [r for r in Match.objects.get(pk=pk).analyses.get().results if r.get("classification") in MARKED]
    assert rows, "random moves make some mistakes"
    expect(page.locator("#move-list .mark")).to_have_count(len(rows))
    for row in rows:
        expect(page.locator(f"#move-list [data-ply='{row['ply']}'] .mark")).to_contain_text(row["classification"])
    expect(page.locator("#region-analysis")).to_contain_text("Accuracy")


def test_dark_mode_follows_the_system(new_page, alice):
    page = new_page()
    page.emulate_media(color_scheme="dark")
    log_in(page, alice)
    page.goto(f"/matches/{engine_match(alice, 'pearl-five')}/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 150, background


def test_new_eleusis_has_its_table_and_no_draw_offer(new_page, alice):
    page = new_page()
    log_in(page, alice)
    pk = engine_match(alice, "new-eleusis", moves=2)
    page.goto(f"/matches/{pk}/")
    expect(page.get_by_role("button", name="Offer a draw")).to_have_count(0)
    mainline = page.locator(".mainline .column > .playing-card")
    assert mainline.count() >= 1
    first = mainline.first
    assert re.fullmatch(r"10|[2-9AJQK]", first.locator(".rank").inner_text())
    suit = first.locator(".suit").inner_text()
    assert suit in "♠♥♦♣"
    assert ("red" in first.get_attribute("class")) == (suit in "♥♦")
    expect(page.locator(".eleusis")).not_to_contain_text("hands 0:")
    match = get_match(pk)
    seat = viewer_seat(match, alice)
    expect(page.locator(".hand input[name=card]")).to_have_count(len(match_state(match).view(seat)["hand"]))
    assert match.to_move == seat                      # the engines have replied up to alice's turn
    no_play = "noplay" in legal_moves_for(match, seat)
    expect(page.get_by_role("button", name="No Play")).to_have_count(1 if no_play else 0)


def test_glaisher_moves_on_the_board_not_from_a_list_of_hundreds(new_page, alice):
    page = new_page()
    log_in(page, alice)
    pk = engine_match(alice, "glaisher")
    page.goto(f"/matches/{pk}/")
    expect(page.locator("#move-choice")).to_have_count(0)
    legal = legal_moves_for(get_match(pk), 0)
    assert len(legal) > 60
    expect(page.locator("#legal-move-list option")).to_have_count(len(legal))
    target = legal[0]
    cells = re.findall(r"[A-Za-z]\d+", target)
    for cell in cells:
        page.locator(f"#board [data-cell='{cell}']").click()
    choices = page.locator("#move-choices button, #board .choice-arrow")
    if choices.count():
        page.locator(f"#move-choices button:text-is('{target}')").click()
    expect(page.locator("#move-list")).to_contain_text(target)
