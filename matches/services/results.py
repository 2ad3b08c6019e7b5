"""Finishing matches: by the rules, by resignation, abort or timeout; then ratings, ladder
standings and events, all in the finishing transaction."""
from __future__ import annotations

from typing import Sequence

from django.db import transaction
from django.utils import timezone

import games
from matches.errors import ServiceError
from matches.models import Match, MatchSeat, TournamentGame

from . import ratings, standings
from .events import notify
from .match_rows import locked_match, require_active, seat_of


def finish(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome,
           status: str = Match.Status.FINISHED) -> None:
    """Settle the match in memory (the caller saves it) and write what follows from the result."""
    match.status = status
    match.result = outcome.to_dict()
    match.to_move = None
    match.deadline = None
    match.finished_at = timezone.now()
    if match.rated and status == Match.Status.FINISHED:
        ratings.apply_result(match, seats, outcome)
    if match.ladder_id and status == Match.Status.FINISHED:
        standings.record_ladder_result(match, seats, outcome)
    if status == Match.Status.FINISHED:
        standings.record_tournament_result(match, outcome)
    notify([s.user for s in seats], "match_finished", {"match": match.pk, "result": match.result})


def loss_for(seats: Sequence[MatchSeat], loser: int, termination: games.Termination) -> games.Outcome:
    """Every seat but `loser` wins."""
    others = tuple(s.seat for s in seats if s.seat != loser)
    scores = tuple(0.0 if s.seat == loser else 1.0 for s in seats)
    return games.Outcome(others, scores, termination)


@transaction.atomic
def match_resign(*, match_id: int, user) -> Match:
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    require_active(match)
    finish(match, seats, loss_for(seats, seat.seat, games.Termination.RESIGNATION))
    match.save()
    return match


@transaction.atomic
def match_abort(*, match_id: int, user) -> Match:
    match, seats = locked_match(match_id)
    seat_of(user, seats)
    require_active(match)
    if match.ply >= match.players:
        raise ServiceError("too_late_to_abort", "a match can be aborted only before every seat has moved")
    if TournamentGame.objects.filter(match=match).exists():
        raise ServiceError("tournament_game", "a tournament game cannot be aborted: resign instead")
    outcome = games.Outcome((), tuple(0.0 for _ in seats), games.Termination.ABORTED)
    finish(match, seats, outcome, status=Match.Status.ABORTED)
    match.save()
    return match


@transaction.atomic
def match_claim_timeouts(now=None) -> list[int]:
    """Finish every active match whose player to move let the deadline pass (they lose)."""
    now = now or timezone.now()
    expired = list(Match.objects.select_for_update(skip_locked=True)
                   .filter(status=Match.Status.ACTIVE, deadline__lt=now))
    for match in expired:
        seats = list(match.seats.select_related("user").order_by("seat"))
        finish(match, seats, loss_for(seats, match.to_move, games.Termination.TIMEOUT))
        match.save()
    return [m.pk for m in expired]
