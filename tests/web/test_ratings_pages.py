"""The player page's rating-history charts (from ranked's history selector) and the leaderboards
(ranked's leaderboard selector: established, active ratings only)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from matches.models import Rating, RatingChange
from matches.services import results
from tests.services.factories import match as make_match
from web.chart import rating_chart

pytestmark = pytest.mark.django_db


def rated_results(winner, loser, count: int, **extra) -> None:
    for _ in range(count):
        results.match_resign(match_id=make_match(winner, loser, rated=True, days_per_move=3, **extra).pk, user=loser)


def _rating(name, rating, deviation=60.0, days_ago=1, variant=""):
    user = get_user_model().objects.get_or_create(username=name)[0]
    return Rating.objects.create(user=user, game="hasami-shogi", variant=variant, rating=rating,
                                 deviation=deviation, games=20, last_played_at=timezone.now() - timedelta(days=days_ago))


def _section(html: str, heading_id: str) -> str:
    return re.search(rf'<section aria-labelledby="{heading_id}" class="card">(.*?)</section>', html, re.S).group(1)


def test_the_player_page_charts_each_rating_with_a_table(client, alice, bob):
    rated_results(alice, bob, 3)
    rated_results(bob, alice, 1, variant="tenbin")
    html = client.get("/players/alice/").content.decode()
    assert html.count('class="chart rating-chart"') == 2
    history = list(RatingChange.objects.filter(rating__user=alice, rating__variant="").order_by("id"))
    section = _section(html, "rating-1")
    assert "Hasami Shogi: rating history" in section
    # A point per rated result (each a circle with its match), the line starting where the rating stood.
    circles = re.findall(r"<circle [^>]*><title>game (\d+) \(match (\d+),", section)
    assert [(int(n), int(m)) for n, m in circles] == [(i, c.match_id) for i, c in enumerate(history, start=1)]
    assert section.count("<polyline") == 1 and 'aria-labelledby="rating-chart-0"' in section
    # The same history as a table, rating and change per game, rising for the winner.
    rows = re.findall(r'<tr><td>[\d-]+</td><td><a href="/matches/(\d+)/">#\d+</a></td><td>(\d+)</td><td>([+-]\d+)</td>', section)
    assert [int(m) for m, _, _ in rows] == [c.match_id for c in history]
    assert [int(r) for _, r, _ in rows] == [round(c.rating_after) for c in history]
    assert all(int(change) > 0 for _, _, change in rows)
    tenbin = _section(html, "rating-2")
    assert "Hasami Shogi (tenbin): rating history" in tenbin and re.search(r"<td>-\d+</td>", tenbin)


def test_a_player_without_rated_games_has_no_chart(client, alice):
    html = client.get("/players/alice/").content.decode()
    assert "No rated games yet." in html and "rating-chart" not in html


def test_the_rating_chart_scales_to_the_history_and_keeps_the_band_in_its_frame():
    now = timezone.now()
    points = [{"match": 10 + i, "date": now, "rating_before": 1500 + 40 * i, "rating_after": 1540 + 40 * i,
               "deviation_before": 350 - 20 * i, "deviation_after": 330 - 20 * i} for i in range(5)]
    svg = rating_chart(points, chart_id="c", title="t", first_number=7)
    ticks = [int(t) for t in re.findall(r'text-anchor="end" font-size="11">(\d+)</text>', svg)]
    assert ticks[0] <= 1500 and ticks[-1] >= 1700 and len(ticks) <= 8     # ratings, not the wide band
    assert ">6</text>" in svg and ">11</text>" in svg                       # games 7–11 after the start
    band = re.search(r'<polygon points="([^"]+)"', svg).group(1)
    ys = [float(p.split(",")[1]) for p in band.split()]
    assert min(ys) >= 14 and max(ys) <= 220 - 30                           # cut off at the frame
    assert "<circle" not in rating_chart(points, chart_id="c", title="t", most_circles=3)
    assert rating_chart([], chart_id="c", title="t") == ""


def test_the_leaderboard_is_rankeds_established_and_active_ratings(client, settings):
    _rating("ann", 1700)
    _rating("ben", 1800, deviation=200)         # provisional
    _rating("cid", 1900, days_ago=120)          # inactive
    _rating("dee", 1650)
    _rating("eve", 2000, variant="tenbin")
    html = client.get("/games/hasami-shogi/leaderboard/").content.decode()
    assert re.findall(r'<td>(\d+)</td><td><a href="/players/(\w+)/">', html) == [("1", "ann"), ("2", "dee")]
    assert 'href="/games/hasami-shogi/leaderboard/?variant=tenbin"' in html
    tenbin = client.get("/games/hasami-shogi/leaderboard/?variant=tenbin").content.decode()
    assert re.findall(r'<a href="/players/(\w+)/">', tenbin.split("<main", 1)[1]) == ["eve"]
    assert '<strong aria-current="page">Hasami Shogi (tenbin)</strong>' in tenbin
    settings.LEADERBOARD_INACTIVE_DAYS = 200
    html = client.get("/games/hasami-shogi/leaderboard/").content.decode()
    assert re.findall(r'<a href="/players/(\w+)/">', html.split("<main", 1)[1])[:1] == ["cid"]
    # The player page names the rank and links the board.
    dee = client.get("/players/dee/").content.decode()
    assert '<a href="/games/hasami-shogi/leaderboard/">#3</a>' in dee


@pytest.mark.parametrize("path", ["/games/chess/leaderboard/", "/games/hasami-shogi/leaderboard/?variant=huge"])
def test_unknown_boards_are_not_found(client, path):
    assert client.get(path).status_code == 404
