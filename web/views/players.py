"""Games, players and rating tables."""
from __future__ import annotations

import games as rules_library
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from matches.selectors.players import player_profile
from web import selectors

from .base import REFUSALS, page_not_found


@require_GET
def games(request: HttpRequest) -> HttpResponse:
    return render(request, "web/games.html", {"catalogue": selectors.games_catalogue()})


@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    rules = rules_library.GAMES.get(slug)
    if rules is None:
        return page_not_found(request, f"There is no game {slug!r}.")
    return render(request, "web/leaderboard.html", {"rules": rules, "rows": selectors.leaderboard(slug)})


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        profile = player_profile(username)
    except REFUSALS:
        return page_not_found(request, f"There is no player {username!r}.")
    ratings = [{**r, "title": selectors.game_title(r["game"])} for r in profile["ratings"]]
    return render(request, "web/player.html", {"profile": profile, "ratings": ratings,
                                               "recent": selectors.player_matches(username)})
