import pytest

from matches import glicko as ratings
from matches.models import Rating

from .helpers import play, start_match


def test_the_reference_worked_example():
    """The Glicko-2 reference example: 1500/200/0.06 vs 1400/30 (win), 1550/100 (loss), 1700/300 (loss)."""
    player = ratings.Glicko(1500, 200, 0.06)
    results = [(ratings.Glicko(1400, 30), 1.0), (ratings.Glicko(1550, 100), 0.0),
               (ratings.Glicko(1700, 300), 0.0)]
    new = ratings.update(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_an_idle_period_widens_the_deviation_up_to_the_cap():
    assert ratings.update(ratings.Glicko(1500, 200, 0.06), []).deviation == pytest.approx(200.271, abs=0.001)
    assert ratings.update(ratings.Glicko(1500, 350, 0.06), []).deviation == 350


def test_pairwise_scores():
    assert ratings.pairwise_scores([1.0, 0.0]) == [[(1, 1.0)], [(0, 0.0)]]
    assert ratings.pairwise_scores([2, 2, 0]) == [[(1, 0.5), (2, 1.0)], [(0, 0.5), (2, 1.0)],
                                                  [(0, 0.0), (1, 0.0)]]


@pytest.mark.django_db
def test_a_rated_match_moves_both_ratings(as_alice, as_bob, anon):
    match_id = start_match(as_alice, as_bob, rated=True, days_per_move=3)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    alice = Rating.objects.get(user__username="alice", game="hasami-shogi")
    bob = Rating.objects.get(user__username="bob", game="hasami-shogi")
    assert alice.rating > 1500 > bob.rating and alice.games == bob.games == 1
    assert alice.rating - 1500 == pytest.approx(1500 - bob.rating)
    profile = anon.get("/api/v1/players/alice/").json()
    entry = profile["ratings"][0]
    assert entry["game"] == "hasami-shogi" and entry["provisional"] is True
    assert profile["matches"]["finished"] == 1
    assert anon.get("/api/v1/players/nobody/").json()["code"] == "player_not_found"


@pytest.mark.django_db
def test_unrated_and_aborted_matches_leave_ratings_alone(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    rated = start_match(as_alice, as_bob, rated=True, days_per_move=3)
    as_bob.post(f"/api/v1/matches/{rated}/abort/")
    assert not Rating.objects.exists()
