"""Finishing matches: by the rules, by resignation, abort or timeout; then ratings, ladder
standings and events, all in the finishing transaction."""
from __future__ import annotations

from datetime import datetime
from typing import Sequence

from django.db import transaction
from django.utils import timezone

import games
from matches.errors import ServiceError
from matches.models import Match, MatchSeat, TournamentGame
from matches.selectors import capabilities

from . import clocks, conditional, dispatch, ratings, standings
from .events import notify
from .match_rows import locked_match, require_active


def finish(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome,
           status: str = Match.Status.FINISHED) -> None:
    """Settle the match in memory (the caller saves it) and write what follows from the result."""
    now = timezone.now()
    clocks.clock_stop(match, seats, now)
    match.status = status
    match.result = outcome.to_dict()
    match.to_move = None
    match.finished_at = now
    conditional.conditional_drop(match)
    dispatch.cancel_replies(match, f"moot: the match is {status}")
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


def _abort(match: Match, seats: Sequence[MatchSeat]) -> None:
    """No result at all: unrated, no ladder change."""
    outcome = games.Outcome((), tuple(0.0 for _ in seats), games.Termination.ABORTED)
    finish(match, seats, outcome, status=Match.Status.ABORTED)


def _seats_that_moved(match: Match) -> set[int]:
    return set(match.moves.values_list("seat", flat=True).distinct())


@transaction.atomic
def match_resign(*, match_id: int, user) -> Match:
    match, seats = locked_match(match_id)
    table = capabilities.Table(match, seats, user)
    capabilities.resign_verdict(table).check()
    finish(match, seats, loss_for(seats, table.seat.seat, games.Termination.RESIGNATION))
    match.save()
    return match


@transaction.atomic
def match_abort(*, match_id: int, user) -> Match:
    """Either player may call the match off while some seat has not moved yet, unless it is a
    ladder or tournament game (`selectors.capabilities.abort_verdict`)."""
    match, seats = locked_match(match_id)
    capabilities.abort_verdict(capabilities.Table(match, seats, user)).check()
    _abort(match, seats)
    match.save()
    return match


@transaction.atomic
def match_abort_by_staff(*, match_id: int) -> Match:
    """Staff call off a stuck match at any point: no result, unrated, no ladder change. A
    tournament game needs a result for its round to end: adjudicate it instead."""
    match, seats = locked_match(match_id)
    require_active(match)
    if TournamentGame.objects.filter(match=match).exists():
        raise ServiceError("abort_unavailable", "a tournament game needs a result: adjudicate it instead")
    _abort(match, seats)
    match.save()
    return match


@transaction.atomic
def match_adjudicate(*, match_id: int, winner: int | None) -> Match:
    """Staff decide a stuck match: `winner` (a seat) wins and every other seat loses, or None for a
    draw. It counts as a result like any other (ratings, ladders, tournaments)."""
    match, seats = locked_match(match_id)
    require_active(match)
    if winner is None:
        outcome = games.Outcome.draw(len(seats), games.Termination.ADJUDICATED)
    elif 0 <= winner < len(seats):
        outcome = games.Outcome((winner,), tuple(1.0 if s.seat == winner else 0.0 for s in seats),
                                games.Termination.ADJUDICATED)
    else:
        raise ServiceError("invalid_seat_choice", f"the match has seats 0 to {len(seats) - 1}, not {winner}",
                           detail={"winner": winner})
    finish(match, seats, outcome)
    match.save()
    return match


def _settle_timeout(match: Match, seats: Sequence[MatchSeat]) -> None:
    """The seat to move ran out of time: it loses, unless it never moved (then nobody played a
    game worth a result: aborted, unrated)."""
    if match.to_move not in _seats_that_moved(match):
        absent = match.to_move
        _abort(match, seats)
        standings.record_no_show(match, seats, absent)     # ladders and tournaments: a forfeit
    else:
        finish(match, seats, loss_for(seats, match.to_move, games.Termination.TIMEOUT))
    match.save()


def match_claim_timeouts(now: datetime | None = None, batch: int = 100) -> list[int]:
    """Settle every active match whose seat to move let its deadline pass. Each batch locks its
    rows and skips rows another sweeper (or a move) holds, and a settled match no longer matches
    the filter, so each timeout is settled exactly once."""
    now = now or timezone.now()
    settled: list[int] = []
    while True:
        with transaction.atomic():
            expired = list(Match.objects.select_for_update(skip_locked=True)
                           .filter(status=Match.Status.ACTIVE, deadline__lte=now).order_by("deadline", "id")[:batch])
            for match in expired:
                _settle_timeout(match, list(match.seats.select_related("user").order_by("seat")))
                settled.append(match.pk)
        if len(expired) < batch:
            return settled


@transaction.atomic
def match_void(*, match_id: int) -> Match:
    """Staff end an active match without a result (docs/moderation.md): unrated, no ladder score,
    whoever has moved; a tournament game is scored as a pairing with an absent player (one whose
    `is_active` is cleared). The seats are told as for any finish."""
    match, seats = locked_match(match_id)
    require_active(match)
    _abort(match, seats)
    standings.score_voided_tournament_game(match, seats)
    match.save()
    return match
