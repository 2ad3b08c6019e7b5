"""The rules page of each game: the API's Markdown→HTML inside the site, linked from the games
page and every match page."""
from __future__ import annotations

import re

import pytest

import games

pytestmark = pytest.mark.django_db


def _api_body(client, slug: str) -> str:
    page = client.get(f"/api/v1/games/{slug}/rules/?format=html").content.decode()
    return re.search(r"<body>\n(.*)\n</body>", page, re.S).group(1)


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_every_game_has_a_rules_page_with_the_apis_html(client, slug):
    response = client.get(f"/games/{slug}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert _api_body(client, slug) in html                  # one conversion, the same HTML
    assert f"<title>{games.get_game(slug).title}: rules · Pearlsite</title>" in html
    assert html.count("<h1") == 1 and f'href="/api/v1/games/{slug}/rules/"' in html


def test_the_contents_link_to_the_documents_sections(client):
    html = client.get("/games/mak-yek/rules/").content.decode()
    contents = re.search(r'<nav class="card rules-toc" aria-label="Contents">(.*?)</nav>', html, re.S).group(1)
    anchors = re.findall(r'href="#([^"]+)"', contents)
    assert anchors[:2] == ["1-about-these-games", "2-board-coordinates-pieces-first-player"]
    assert all(f'id="{a}"' in html for a in anchors)
    # The siblings described by the same document are one click away; the game itself is not listed.
    assert 'href="/games/hasami-shogi/rules/"' in contents and 'href="/games/mak-yek/rules/"' not in contents


def test_an_unknown_game_has_no_rules_page(client):
    response = client.get("/games/chess/rules/")
    assert response.status_code == 404 and b"There is no game" in response.content


def test_the_games_page_and_the_match_page_link_the_rules(client, login, alice):
    html = client.get("/games/").content.decode()
    assert all(f'href="/games/{slug}/rules/"' in html for slug in games.GAMES)
    response = login(alice).post("/challenges/", {"game": "glaisher", "opponent": "engine", "level": "random"})
    assert 'href="/games/glaisher/rules/"' in client.get(response["Location"]).content.decode()
