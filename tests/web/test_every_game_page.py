"""Every game's match page in the browser, at desktop and phone width: the board draws, the
script runs without errors, clickable boards mark the pieces that can move, nothing overflows
a phone screen; a rules page, and a player page with its rating chart. Screenshots go to
$PEARLSITE_SCREENSHOTS (`make screenshots`: var/screenshots/)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

import games
from matches.models import RatingChange
from matches.selectors.matches import get_match, viewer_seat
from matches.services import (
    analysis,
    challenges,
    ladders,
    offers,
    play,
    results,
    tournaments,
)
from tests.web.browsing import engine_match, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLICKABLE = {"hasami-shogi", "dai-hasami-shogi", "mak-yek", "latrunculi", "pearl-war", "pearl-five",
             "pearl-survival", "glaisher", "ring-rugby"}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PEARLSITE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _fits_the_screen(page) -> bool:
    """Once the page has settled at the new width (a resize and the live script's refresh of the
    board may land a frame apart), nothing reaches past the screen's right edge."""
    try:
        page.wait_for_function("document.documentElement.scrollWidth <= document.documentElement.clientWidth",
                               timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


def _widest(page) -> list:
    """The elements that reach past the screen's right edge (what a failure names)."""
    return page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .filter(e => { for (let a = e.offsetParent; a; a = a.offsetParent) {
            if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return false; }
            return true; })   /* what a scrolling box clips (it contains it) does not widen the page */
        .slice(0, 5).map(e => `${e.tagName}.${e.className.baseVal ?? e.className}#${e.id}`)""")


def _board(page, slug: str):
    return page.locator(".eleusis .mainline" if slug == "new-eleusis" else "#board svg")


def test_every_game_page_draws_and_takes_clicks(new_page, alice, shots):
    """Desktop, phone and dark screenshots of every game's page."""
    page = new_page()
    log_in(page, alice)
    for slug in sorted(games.GAMES):
        pk = engine_match(alice, slug, moves=3)
        page.set_viewport_size({"width": 1100, "height": 900})
        page.emulate_media(color_scheme="light")
        page.goto(f"/matches/{pk}/")
        expect(_board(page, slug)).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_contain_text(games.get_game(slug).title)
        match = get_match(pk)
        if match.status == "active" and match.to_move == viewer_seat(match, alice):
            expect(page.locator("#move-form")).to_be_visible()
            if slug in CLICKABLE:
                assert page.locator("#board [data-cell].source").count() > 0, slug
        page.screenshot(path=str(shots / f"match-{slug}.png"), full_page=True)
        page.set_viewport_size(PHONE)
        assert _fits_the_screen(page), f"{slug}: the match page is wider than a phone: {_widest(page)}"
        page.screenshot(path=str(shots / f"match-{slug}-phone.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(shots / f"match-{slug}-dark.png"), full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto("/")
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert _fits_the_screen(page), "the lobby is wider than a phone"
    page.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
    page.goto(f"/matches/{engine_match(alice, 'hasami-shogi', moves=2)}/")
    page.screenshot(path=str(shots / "match-phone.png"), full_page=True)


def test_a_finished_match_with_its_evaluation_chart(new_page, alice, shots):
    pk = engine_match(alice, "hasami-shogi", moves=12)
    results.match_resign(match_id=pk, user=alice)
    analysis.analysis_request(match_id=pk, user=alice, level="easy")
    page = new_page()
    page.goto(f"/matches/{pk}/")
    chart = page.locator("#region-analysis svg.chart")
    expect(chart).to_be_visible()
    assert chart.locator("circle").count() == get_match(pk).ply
    expect(page.locator("#region-status")).to_contain_text("engine (random) won (resignation)")
    page.screenshot(path=str(shots / "match-analysis.png"), full_page=True)


def test_a_rules_page_and_a_player_page_with_its_rating_chart(new_page, alice, bob, shots):
    page = new_page()
    page.goto("/games/")
    page.get_by_role("article").filter(has_text="Ring Rugby").get_by_role("link", name="Rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ring Rugby")
    contents = page.get_by_role("navigation", name="Contents")
    contents.get_by_role("link", name="5. Options and variants").click()
    assert page.url.endswith("#5-options-and-variants")
    expect(page.locator("#rules h2[id='5-options-and-variants']")).to_be_in_viewport()
    page.screenshot(path=str(shots / "rules.png"))
    page.set_viewport_size(PHONE)
    assert _fits_the_screen(page), "the rules page is wider than a phone"

    for winner, loser in [(alice, bob), (alice, bob), (bob, alice), (alice, bob)]:
        rated = challenges.challenge_create(creator=winner, game="hasami-shogi", opponents=[loser.username],
                                            rated=True, days_per_move=3)
        match = challenges.challenge_accept(challenge_id=rated.pk, user=loser).match
        results.match_resign(match_id=match.pk, user=loser)
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto("/players/alice/")
    chart = page.get_by_role("img", name=re.compile("alice's Hasami Shogi rating after each rated game"))
    expect(chart).to_be_visible()
    assert chart.locator("circle").count() == RatingChange.objects.filter(rating__user=alice).count() == 4
    box = chart.bounding_box()
    assert box["width"] > 500 and box["height"] > 150
    history = page.get_by_role("table").filter(has_text="Change")
    expect(history).to_be_hidden()
    page.get_by_text("The history as a table").click()
    expect(history.locator("tbody tr")).to_have_count(4)
    page.screenshot(path=str(shots / "player.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert _fits_the_screen(page), "the player page is wider than a phone"
    expect(chart).to_be_visible()
    page.screenshot(path=str(shots / "player-phone.png"), full_page=True)


def test_a_clocked_match_with_an_offer_and_the_lobbys_tournaments_and_ladders(new_page, alice, bob, shots):
    fischer = {"kind": "fischer", "initial_days": 7, "increment_days": 1, "max_days": 14}
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"], time_control=fischer)
    match = challenges.challenge_accept(challenge_id=pending.pk, user=bob).match
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5")
    offers.match_draw(match_id=match.pk, user=alice)
    cup = tournaments.tournament_create(creator=bob, name="Autumn Cup", game="pearl-war", kind="swiss",
                                        rounds=3, max_entrants=8)
    tournaments.tournament_join(tournament_id=cup.pk, user=bob)
    ladder = ladders.ladder_create(name="Hasami ladder", game="hasami-shogi", created_by=bob)
    ladders.ladder_join(ladder_id=ladder.pk, user=bob)
    page = new_page()
    log_in(page, bob)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator(".seat-clock.running .clock-text")).to_contain_text("6d 23:5")
    expect(page.get_by_role("button", name="Accept draw")).to_be_visible()
    page.screenshot(path=str(shots / "match-clocks.png"), full_page=True)
    page.goto("/")
    expect(page.get_by_role("button", name="Join Autumn Cup")).to_have_count(0)     # bob is in
    expect(page.locator("#ladders-h + ul")).to_contain_text("you are #1")
    page.screenshot(path=str(shots / "lobby-events.png"), full_page=True)
