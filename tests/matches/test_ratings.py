"""Players, ratings and leaderboards over HTTP: accounts/me, the player list and page, rating
histories and the leaderboards (established and active ratings only)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Rating

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _rated_win(winner_client, loser_client, loser_name, **extra):
    match_id = start_match(winner_client, loser_client, opponents=[loser_name], rated=True, days_per_move=3, **extra)
    assert loser_client.post(f"/api/v1/matches/{match_id}/resign/").status_code == 200
    return match_id


def test_accounts_me_reads_and_changes_the_profile(as_alice, anon):
    me = as_alice.get("/api/v1/accounts/me/").json()
    assert me["username"] == "alice" and me["date_joined"]
    assert me["profile"] == {"display_name": "", "bio": ""} and me["settings"] == {"notification_digest": "none"}
    changed = as_alice.patch("/api/v1/accounts/me/", {"profile": {"display_name": "Alice A."},
                                                       "settings": {"notification_digest": "weekly"}}, format="json")
    assert changed.status_code == 200
    assert changed.json()["profile"] == {"display_name": "Alice A.", "bio": ""}
    assert as_alice.patch("/api/v1/accounts/me/", {"profile": {"bio": "hasami fan"}}, format="json") \
        .json()["profile"] == {"display_name": "Alice A.", "bio": "hasami fan"}
    bad = as_alice.patch("/api/v1/accounts/me/", {"settings": {"notification_digest": "hourly"}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error"
    assert as_alice.get("/api/v1/accounts/me/").json()["settings"]["notification_digest"] == "weekly"
    assert anon.get("/api/v1/accounts/me/").status_code == 401
    assert anon.patch("/api/v1/accounts/me/", {}, format="json").status_code == 401
    assert anon.get("/api/v1/players/alice/").json()["display_name"] == "Alice A."


def test_a_rated_match_shows_on_the_player_page(as_alice, as_bob, anon):
    match_id = start_match(as_alice, as_bob, rated=True, days_per_move=3)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    page = anon.get("/api/v1/players/alice/").json()
    [rating] = page["ratings"]
    assert rating["game"] == "hasami-shogi" and rating["variant"] is None and rating["system"] == "glicko2"
    assert rating["rating"] > 1500 and rating["provisional"] is True and rating["rank"] is None
    assert (rating["wins"], rating["draws"], rating["losses"]) == (1, 0, 0)
    assert page["matches"]["finished"] == 1 and page["recent_matches"][0]["id"] == match_id
    bob = anon.get("/api/v1/players/bob/").json()["ratings"][0]
    assert bob["rating"] < 1500 and bob["losses"] == 1
    assert anon.get("/api/v1/players/nobody/").json()["code"] == "player_not_found"


def test_rating_history_has_one_point_per_rated_result(as_alice, as_bob, anon):
    first = _rated_win(as_alice, as_bob, "bob")
    second = _rated_win(as_alice, as_bob, "bob")
    _rated_win(as_alice, as_bob, "bob", variant="tenbin")
    points = anon.get("/api/v1/players/alice/ratings/hasami-shogi/").json()
    assert points["count"] == 2 and [p["match"] for p in points["results"]] == [first, second]
    one, two = points["results"]
    assert one["rating_before"] == 1500 and one["rating_after"] == two["rating_before"] < two["rating_after"]
    assert one["deviation_after"] < one["deviation_before"] == 350
    tenbin = anon.get("/api/v1/players/alice/ratings/hasami-shogi/?variant=tenbin").json()
    assert tenbin["count"] == 1
    assert anon.get("/api/v1/players/alice/ratings/chess/").status_code == 404
    assert anon.get("/api/v1/players/alice/ratings/hasami-shogi/?variant=huge").json()["code"] == "invalid_filter"
    assert anon.get("/api/v1/players/nobody/ratings/hasami-shogi/").json()["code"] == "player_not_found"


def _rating(name, rating, deviation=60.0, days_ago=1, variant=""):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get_or_create(username=name)[0]
    return Rating.objects.create(user=user, game="hasami-shogi", variant=variant, rating=rating,
                                 deviation=deviation, games=20,
                                 last_played_at=timezone.now() - timedelta(days=days_ago))


def test_the_leaderboard_leaves_out_provisional_and_inactive_ratings(anon, settings):
    _rating("ann", 1700)
    _rating("ben", 1800, deviation=200)         # provisional
    _rating("cid", 1900, days_ago=120)          # inactive
    _rating("dee", 1650)
    _rating("eve", 2000, variant="tenbin")
    board = anon.get("/api/v1/games/hasami-shogi/leaderboard/").json()
    assert [(e["rank"], e["player"]) for e in board["results"]] == [(1, "ann"), (2, "dee")]
    assert board["results"][0]["provisional"] is False and board["results"][0]["games"] == 20
    assert [e["player"] for e in anon.get("/api/v1/games/hasami-shogi/leaderboard/?variant=tenbin")
            .json()["results"]] == ["eve"]
    assert [e["player"] for e in anon.get("/api/v1/games/hasami-shogi/leaderboard/?variant=standard")
            .json()["results"]] == ["ann", "dee"]
    settings.LEADERBOARD_INACTIVE_DAYS = 200
    assert anon.get("/api/v1/games/hasami-shogi/leaderboard/").json()["results"][0]["player"] == "cid"
    assert anon.get("/api/v1/players/dee/").json()["ratings"][0]["rank"] == 3
    assert anon.get("/api/v1/players/ben/").json()["ratings"][0]["rank"] is None
    assert anon.get("/api/v1/games/chess/leaderboard/").status_code == 404
    assert anon.get("/api/v1/games/hasami-shogi/leaderboard/?variant=x").json()["code"] == "invalid_filter"
    assert anon.get("/api/v1/games/hasami-shogi/leaderboard/?sort=x").json()["code"] == "invalid_filter"


def test_the_player_list_searches_by_prefix_and_sorts_by_rating(anon, alice, bob, carol):
    _rating("alice", 1600, deviation=300)
    _rating("carol", 1700)
    names = [p["username"] for p in anon.get("/api/v1/players/").json()["results"]]
    assert names == ["alice", "bob", "carol"]
    assert [p["username"] for p in anon.get("/api/v1/players/?q=CA").json()["results"]] == ["carol"]
    rated = anon.get("/api/v1/players/?game=hasami-shogi").json()["results"]
    assert [(p["username"], p["rating"]["provisional"]) for p in rated] == [("carol", False), ("alice", True)]
    assert anon.get("/api/v1/players/?q=al&game=hasami-shogi").json()["count"] == 1
    assert anon.get("/api/v1/players/?variant=tenbin").json()["code"] == "invalid_filter"
    assert anon.get("/api/v1/players/?game=chess").status_code == 404
    assert anon.get("/api/v1/players/?order=x").status_code == 400


def test_unrated_and_aborted_matches_leave_ratings_alone(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    rated = start_match(as_alice, as_bob, rated=True, days_per_move=3)
    as_bob.post(f"/api/v1/matches/{rated}/abort/")
    assert not Rating.objects.exists()
