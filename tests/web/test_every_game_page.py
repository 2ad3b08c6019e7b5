"""Every game's match page in the browser, at desktop and phone width: the board draws, the
script runs without errors, clickable boards mark the pieces that can move, nothing overflows
a phone screen. Screenshots go to $PEARLSITE_SCREENSHOTS (`make screenshots`: var/screenshots/)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect

import games
from matches.selectors.matches import get_match, legal_moves_for, viewer_seat
from matches.services import analysis, challenges, play, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLICKABLE = {"hasami-shogi", "dai-hasami-shogi", "mak-yek", "latrunculi", "pearl-war", "pearl-five",
             "pearl-survival", "glaisher", "ring-rugby"}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PEARLSITE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _engine_match(user, slug: str, moves: int) -> int:
    """A match of `user` against random engines, a few moves in (the engines reply in-process)."""
    rules = games.get_game(slug)
    seats = rules.min_players if rules.max_players == 1 else max(2, rules.min_players)
    challenge = challenges.challenge_create(creator=user, game=slug, opponents=["ai:random"] * (seats - 1))
    rng = random.Random(slug)
    for _ in range(moves):
        match = get_match(challenge.match_id)
        legal = legal_moves_for(match, viewer_seat(match, user))
        if not legal:
            break
        play.move_submit(match_id=match.pk, user=user, move=rng.choice(legal), ply=match.ply)
    return challenge.match_id


def _fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_every_game_page_draws_and_takes_clicks(new_page, alice, shots):
    page = new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("alice-secret-pw")
    page.get_by_role("button", name="Log in").click()
    for slug in sorted(games.GAMES):
        pk = _engine_match(alice, slug, moves=3)
        page.set_viewport_size({"width": 1100, "height": 900})
        page.goto(f"/matches/{pk}/")
        expect(page.locator("#board svg")).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_contain_text(games.get_game(slug).title)
        match = get_match(pk)
        if match.status == "active" and match.to_move == viewer_seat(match, alice):
            expect(page.locator("#move-form")).to_be_visible()
            if slug in CLICKABLE:
                assert page.locator("#board [data-cell].source").count() > 0, slug
        page.screenshot(path=str(shots / f"match-{slug}.png"), full_page=True)
        page.set_viewport_size(PHONE)
        assert _fits_the_screen(page), f"{slug}: the match page is wider than a phone"
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto("/")
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert _fits_the_screen(page), "the lobby is wider than a phone"
    page.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
    page.goto(f"/matches/{_engine_match(alice, 'hasami-shogi', moves=2)}/")
    page.screenshot(path=str(shots / "match-phone.png"), full_page=True)


def test_a_finished_match_with_its_evaluation_chart(new_page, alice, shots):
    pk = _engine_match(alice, "hasami-shogi", moves=12)
    results.match_resign(match_id=pk, user=alice)
    analysis.analysis_request(match_id=pk, user=alice, level="easy")
    page = new_page()
    page.goto(f"/matches/{pk}/")
    chart = page.locator("#region-analysis svg.chart")
    expect(chart).to_be_visible()
    assert chart.locator("circle").count() == get_match(pk).ply
    expect(page.locator("#region-status")).to_contain_text("engine (random) won (resignation)")
    page.screenshot(path=str(shots / "match-analysis.png"), full_page=True)
