"""Tournaments without HTTP: entries, the start (organiser or beat), rounds that follow when the
last game of a round ends, byes, ratings and the end."""
from datetime import datetime, timedelta, timezone as tz

import pytest
import time_machine

from matches.models import Match, Rating, Tournament, TournamentGame
from matches.services import results, tournaments

from .factories import UserFactory, refusal_code

pytestmark = pytest.mark.django_db
START = datetime(2030, 5, 1, 9, 0, tzinfo=tz.utc)


def _tournament(organiser, kind="round-robin", **extra):
    return tournaments.tournament_create(creator=organiser, name="Spring", game="hasami-shogi", kind=kind,
                                         max_entrants=extra.pop("max_entrants", 8), **extra)


def _enter(tournament, *users):
    for user in users:
        tournaments.tournament_join(tournament_id=tournament.pk, user=user)


def _finish_round(tournament, callbacks, winner=lambda g: g.first):
    """Every undecided game of the current round ends: `winner(game)` wins (the other resigns)."""
    tournament.refresh_from_db()
    for game in TournamentGame.objects.filter(tournament=tournament, round=tournament.current_round,
                                              second__isnull=False, first_score__isnull=True):
        loser = game.second if winner(game) == game.first else game.first
        with callbacks(execute=True):
            results.match_resign(match_id=game.match_id, user=loser)
    tournament.refresh_from_db()


def test_creation_checks_its_settings(users):
    ann = users[0]
    assert refusal_code(lambda: _tournament(ann, kind="swiss")) == "invalid_tournament"
    assert refusal_code(lambda: _tournament(ann, kind="swiss", rounds=8)) == "invalid_tournament"
    assert refusal_code(lambda: tournaments.tournament_create(
        creator=ann, name="E", game="new-eleusis", kind="swiss", rounds=3, max_entrants=8)) == "not_two_player"
    past = datetime(2000, 1, 1, tzinfo=tz.utc)
    assert refusal_code(lambda: _tournament(ann, starts_at=past)) == "invalid_tournament"
    assert _tournament(ann, kind="swiss", rounds=3, variant="tenbin").options["tenbin"] is True


def test_entries_open_until_the_start(users):
    ann, ben, cid = users
    tournament = _tournament(ann, max_entrants=2)
    _enter(tournament, ann, ben)
    assert refusal_code(lambda: _enter(tournament, ben)) == "already_entered"
    assert refusal_code(lambda: _enter(tournament, cid)) == "tournament_full"
    assert refusal_code(lambda: tournaments.tournament_leave(tournament_id=tournament.pk, user=cid)) == "not_entered"
    tournaments.tournament_leave(tournament_id=tournament.pk, user=ben)
    _enter(tournament, cid)
    assert refusal_code(lambda: tournaments.tournament_start(tournament_id=tournament.pk, user=cid)) == "not_organiser"
    tournaments.tournament_start(tournament_id=tournament.pk, user=ann)
    assert refusal_code(lambda: _enter(tournament, ben)) == "tournament_closed"
    assert refusal_code(lambda: tournaments.tournament_leave(tournament_id=tournament.pk, user=cid)) \
        == "tournament_closed"
    assert refusal_code(lambda: tournaments.tournament_start(tournament_id=tournament.pk, user=ann)) \
        == "tournament_closed"
    assert refusal_code(lambda: tournaments.tournament_start(
        tournament_id=_tournament(ann).pk, user=ann)) == "too_few_entrants"


def test_a_round_robin_of_three_runs_round_by_round_with_byes(users, django_capture_on_commit_callbacks):
    ann, ben, cid = users
    tournament = _tournament(ann)
    _enter(tournament, ann, ben, cid)
    tournaments.tournament_start(tournament_id=tournament.pk, user=ann)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.rounds, tournament.current_round) == ("running", 3, 1)
    for number in (1, 2, 3):
        games = TournamentGame.objects.filter(tournament=tournament, round=number)
        assert games.count() == 2 and games.filter(second__isnull=True).count() == 1    # one bye a round
        played = games.get(second__isnull=False)
        assert played.match.status == Match.Status.ACTIVE and played.match.rated
        _finish_round(tournament, django_capture_on_commit_callbacks)
    assert tournament.status == "finished" and tournament.finished_at is not None
    pairs = {frozenset((g.first_id, g.second_id)) for g in TournamentGame.objects.filter(second__isnull=False)}
    assert len(pairs) == 3
    byes = sorted(TournamentGame.objects.filter(second__isnull=True).values_list("first_id", flat=True))
    assert byes == sorted(u.pk for u in users)
    assert Rating.objects.filter(game="hasami-shogi").count() == 3
    assert ann.events.filter(kind="tournament_finished").exists()


def test_a_swiss_pairs_winners_with_winners(django_capture_on_commit_callbacks):
    players = [UserFactory(username=f"s{i}") for i in range(4)]
    for rank, user in enumerate(players):                     # seeds follow ratings
        Rating.objects.create(user=user, game="hasami-shogi", rating=1900 - 100 * rank)
    tournament = _tournament(players[0], kind="swiss", rounds=2)
    _enter(tournament, *reversed(players))
    tournaments.tournament_start(tournament_id=tournament.pk, user=players[0])
    first = {frozenset((g.first.username, g.second.username))
             for g in TournamentGame.objects.filter(round=1).select_related("first", "second")}
    assert first == {frozenset(("s0", "s2")), frozenset(("s1", "s3"))}
    _finish_round(tournament, django_capture_on_commit_callbacks,
                  winner=lambda g: g.first if g.first.username < g.second.username else g.second)
    second = {frozenset((g.first.username, g.second.username))
              for g in TournamentGame.objects.filter(round=2).select_related("first", "second")}
    assert second == {frozenset(("s0", "s1")), frozenset(("s2", "s3"))}
    _finish_round(tournament, django_capture_on_commit_callbacks)
    assert tournament.status == "finished"


def test_tournament_games_cannot_be_aborted(users):
    ann, ben, _ = users
    tournament = _tournament(ann)
    _enter(tournament, ann, ben)
    tournaments.tournament_start(tournament_id=tournament.pk, user=ann)
    game = TournamentGame.objects.get()
    assert refusal_code(lambda: results.match_abort(match_id=game.match_id, user=ben)) == "abort_unavailable"


def test_the_beat_starts_at_the_start_time_and_catches_finished_rounds(users):
    ann, ben, cid = users
    with time_machine.travel(START, tick=False) as clock:
        ready = _tournament(ann, starts_at=START + timedelta(hours=2))
        _enter(ready, ann, ben)
        lonely = _tournament(ann, starts_at=START + timedelta(hours=3))
        _enter(lonely, cid)
        assert tournaments.tournaments_tick() == {"started": [], "cancelled": [], "advanced": []}
        clock.shift(timedelta(hours=3))
        assert tournaments.tournaments_tick() == {"started": [ready.pk], "cancelled": [lonely.pk], "advanced": []}
    game = TournamentGame.objects.get(tournament=ready)
    results.match_resign(match_id=game.match_id, user=game.second)      # no commit hook runs here
    assert Tournament.objects.get(pk=ready.pk).status == "running"
    assert tournaments.tournaments_tick()["advanced"] == [ready.pk]
    assert Tournament.objects.get(pk=ready.pk).status == "finished"
    assert Tournament.objects.get(pk=lonely.pk).status == "cancelled"


def test_a_player_who_never_moves_loses_the_tournament_game_by_forfeit(users, django_capture_on_commit_callbacks):
    ann, ben, _ = users
    tournament = _tournament(ann)
    _enter(tournament, ann, ben)
    tournaments.tournament_start(tournament_id=tournament.pk, user=ann)
    game = TournamentGame.objects.select_related("match").get()
    with django_capture_on_commit_callbacks(execute=True):
        results.match_claim_timeouts(now=game.match.created_at + timedelta(days=30))
    game.refresh_from_db()
    assert game.match.status == Match.Status.ABORTED and game.first_score == 0.0     # seat 0 never moved
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert not Rating.objects.exists()
