"""Games and their rules, players and rating tables."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

import games as rules_library
from community.selectors.blocks import has_blocked
from matches.selectors import catalogue
from matches.selectors.players import player_profile
from web import selectors
from web.chart import rating_chart

from .base import REFUSALS, page_not_found, refusal


@require_GET
def games(request: HttpRequest) -> HttpResponse:
    return render(request, "web/games.html", {"catalogue": selectors.games_catalogue()})


@require_GET
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The game's rules document: the same HTML as the API's `?format=html`, inside the site."""
    try:
        language = translation.get_language()
        title, text = catalogue.rules_document(slug, language)
    except REFUSALS:
        return page_not_found(request, gettext("There is no game %(slug)r.") % {"slug": slug})
    body, headings = catalogue.rules_html(text, language)
    sections = headings[0]["children"] if len(headings) == 1 else headings
    own = title
    return render(request, "web/rules.html", {"title": title, "slug": slug, "body": body, "sections": sections,
                                              "own_title": own, "own_section": _section_of(sections, own),
                                              "family": [{"slug": s, "title": selectors.game_title(s)}
                                                         for s, g in sorted(rules_library.GAMES.items())
                                                         if g.rules_page == rules_library.GAMES[slug].rules_page
                                                         and s != slug]})


def _section_of(sections: list[dict], title: str) -> str | None:
    """The id of the section about `title` in a family's document (the page opens there)."""
    for section in sections:
        if title.lower() in section["name"].lower():
            return section["id"]
        found = _section_of(section.get("children", []), title)
        if found:
            return found
    return None


@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's leaderboard; `?variant=` picks a variant that is rated on its own."""
    try:
        board = selectors.leaderboard(slug, request.GET.get("variant") or None)
    except REFUSALS as exc:
        return page_not_found(request, refusal(exc)[1])
    return render(request, "web/leaderboard.html", {"slug": slug, **board})


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        profile = player_profile(username)
    except REFUSALS:
        return page_not_found(request, gettext("There is no player %(username)r.") % {"username": username})
    ratings = selectors.rating_histories(username, profile["ratings"])
    for i, rating in enumerate(ratings):
        rating["chart"] = rating_chart(rating["points"], chart_id=f"rating-chart-{i}", first_number=rating["first_number"],
                                       band_below=rating["band_below"],
                                       title=gettext("%(username)s's %(game)s rating after each rated game, with a band "
                                                     "of one deviation either side once established")
                                       % {"username": username, "game": rating["title"]})
    return render(request, "web/player.html", {"profile": profile, "ratings": ratings,
                                               "recent": selectors.player_matches(username),
                                               "blocked": has_blocked(request.user, username)})
