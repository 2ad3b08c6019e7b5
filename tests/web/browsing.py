"""What the browser tests do again and again: log a user in through the login form, and start a
match against random engines a few moves in (the engines reply in-process)."""
from __future__ import annotations

import random

from playwright.sync_api import expect

import games
from matches.selectors.matches import get_match, legal_moves_for, viewer_seat
from matches.services import challenges, play


def log_in(page, user) -> None:
    """Through the form, with the test users' password (`<username>-secret-pw`), to the lobby."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(f"{user.username}-secret-pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def engine_match(user, slug: str, moves: int = 0, seed: str = "") -> int:
    """The id of a match of `user` against random engines, `moves` of the user's moves in."""
    rules = games.get_game(slug)
    seats = rules.min_players if rules.max_players == 1 else max(2, rules.min_players)
    challenge = challenges.challenge_create(creator=user, game=slug, opponents=["ai:random"] * (seats - 1))
    rng = random.Random(seed or slug)
    for _ in range(moves):
        match = get_match(challenge.match_id)
        legal = legal_moves_for(match, viewer_seat(match, user))
        if not legal:
            break
        play.move_submit(match_id=match.pk, user=user, move=rng.choice(legal), ply=match.ply)
    return challenge.match_id
