"""Ratings: the two systems against their published reference values, then the service: one
result per match, per rating key, one history point per rated result."""
import pytest
from openskill.models import PlackettLuce

from matches import glicko, weng_lin
from matches.models import Rating, RatingChange
from matches.rating_keys import RatingKey, key_for, key_named, system_for
from matches.services import challenges, results

from .factories import UserFactory, match as make_match


def test_glicko2_reference_worked_example():
    """Glickman's example: 1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss)."""
    new = glicko.update(glicko.Glicko(1500, 200, 0.06), [(glicko.Glicko(1400, 30), 1.0),
                                                         (glicko.Glicko(1550, 100), 0.0),
                                                         (glicko.Glicko(1700, 300), 0.0)])
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_an_idle_glicko_period_widens_the_deviation_up_to_the_cap():
    assert glicko.update(glicko.Glicko(1500, 200, 0.06), []).deviation == pytest.approx(200.271, abs=0.001)
    assert glicko.update(glicko.Glicko(1500, 350, 0.06), []).deviation == 350


def test_weng_lin_reference_two_teams_of_two():
    """The openskill documentation's example (Plackett–Luce, no dynamics factor): a team of
    (25, 8.333) and (32.444, 5.123) beats a team of (43.381, 2.421) and (25.188, 6.211)."""
    model = PlackettLuce(tau=0)
    r = model.rating
    [[x1, x2], [y1, y2]] = model.rate([[r(25, 25 / 3), r(32.444, 5.123)], [r(43.381, 2.421), r(25.188, 6.211)]])
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197), abs=1e-9)
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765), abs=1e-9)
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256), abs=1e-9)
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135), abs=1e-9)


def test_weng_lin_reference_defaults_as_pinned():
    """The pinned release's documented example (default model): four new players, two a side."""
    model = weng_lin.MODEL
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == pytest.approx((26.964294621803063, 8.177962604389991), abs=1e-9)
    assert (x.mu, x.sigma) == pytest.approx((23.035705378196937, 8.177962604389991), abs=1e-9)


def test_weng_lin_on_the_glicko_scale():
    start = glicko.Glicko()
    assert weng_lin.from_openskill(weng_lin.to_openskill(1500, 350)) == pytest.approx((1500, 350))
    first, second, third = weng_lin.update([start, start, start], [2, 1, 0])
    assert first[0] > second[0] > third[0]
    assert all(dev < 350 for _, dev in (first, second, third))
    tied = weng_lin.update([start, start, start], [1, 1, 0])
    assert tied[0] == pytest.approx(tied[1])


def test_rating_keys():
    assert system_for("hasami-shogi") == "glicko2"
    assert system_for("pearl-survival") == system_for("new-eleusis") == "weng-lin"
    from games import get_game
    tenbin = get_game("hasami-shogi").normalize_options({"capture_goal": 3}, "tenbin")
    assert key_for("hasami-shogi", tenbin) == RatingKey("hasami-shogi", "tenbin")
    assert key_for("hasami-shogi", get_game("hasami-shogi").normalize_options({})) == RatingKey("hasami-shogi")
    square = get_game("pearl-war").normalize_options({}, "square")
    assert key_for("pearl-war", square) == RatingKey("pearl-war")      # a start position: same game
    assert key_named("hasami-shogi", "standard") == RatingKey("hasami-shogi")
    assert str(key_named("hasami-shogi", "tenbin")) == "hasami-shogi/tenbin"


def _resign(match, user):
    return results.match_resign(match_id=match.pk, user=user)


@pytest.mark.django_db
def test_a_two_seat_result_is_one_glicko_period_with_a_history_point(users):
    ann, ben, _ = users
    match = make_match(ann, ben, rated=True, days_per_move=3)
    _resign(match, ben)
    win, loss = Rating.objects.get(user=ann), Rating.objects.get(user=ben)
    expected = glicko.update(glicko.Glicko(), [(glicko.Glicko(), 1.0)])
    assert win.rating == pytest.approx(expected.rating) and win.deviation == pytest.approx(expected.deviation)
    assert (win.wins, win.losses, loss.wins, loss.losses, win.games) == (1, 0, 0, 1, 1)
    assert win.system == "glicko2" and win.last_played_at is not None
    point = RatingChange.objects.get(rating=win)
    assert (point.match_id, point.rating_before, point.rating_after) == (match.pk, 1500, win.rating)


@pytest.mark.django_db
def test_tenbin_is_rated_on_its_own(users):
    ann, ben, _ = users
    _resign(make_match(ann, ben, rated=True, days_per_move=3, variant="tenbin"), ben)
    _resign(make_match(ann, ben, rated=True, days_per_move=3), ann)
    keys = sorted(Rating.objects.filter(user=ann).values_list("variant", "wins", "losses"))
    assert keys == [("", 0, 1), ("tenbin", 1, 0)]


@pytest.mark.django_db
def test_a_multi_seat_result_is_one_weng_lin_update_not_pairwise_games(users):
    ann, ben, cid = users
    pending = challenges.challenge_create(creator=ann, game="pearl-survival", opponents=["ben", "cid"], rated=True,
                                          days_per_move=3)
    challenges.challenge_accept(challenge_id=pending.pk, user=ben)
    match = challenges.challenge_accept(challenge_id=pending.pk, user=cid).match
    _resign(match, cid)                       # ann and ben share the win (scores 1, 1, 0)
    rows = {r.user.username: r for r in Rating.objects.select_related("user")}
    expected = weng_lin.update([glicko.Glicko()] * 3, [1.0, 1.0, 0.0])
    assert rows["ann"].rating == pytest.approx(expected[0][0]) and rows["cid"].rating == pytest.approx(expected[2][0])
    assert rows["ann"].system == "weng-lin" and rows["ann"].games == rows["cid"].games == 1
    assert RatingChange.objects.count() == 3       # one point per player, not one per pair


@pytest.mark.django_db
def test_unrated_and_aborted_matches_leave_ratings_alone(users):
    ann, ben, _ = users
    _resign(make_match(ann, ben), ben)
    rated = make_match(ann, ben, rated=True, days_per_move=3)
    results.match_abort(match_id=rated.pk, user=ben)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert UserFactory(username="dee").ratings.count() == 0


@pytest.mark.django_db
def test_each_system_has_its_own_provisional_threshold(users):
    from matches.rating_keys import is_provisional
    from matches.selectors.players import leaderboard_query

    ann, ben, _ = users
    assert is_provisional("glicko2", 111) and not is_provisional("glicko2", 110)
    assert is_provisional("weng-lin", 271) and not is_provisional("weng-lin", 250)
    Rating.objects.create(user=ann, game="pearl-survival", system="weng-lin", deviation=250,
                          last_played_at=ann.date_joined)
    Rating.objects.create(user=ben, game="hasami-shogi", deviation=250, last_played_at=ben.date_joined)
    assert [r.user for r in leaderboard_query(RatingKey("pearl-survival"))] == [ann]
    assert not leaderboard_query(RatingKey("hasami-shogi")).exists()
