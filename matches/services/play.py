"""Playing: starting a match, submitting a move, and writing an engine's reply back.

A move submission is one transaction: lock the match row, check seat, ply (first, so an
out-of-date client always hears `stale_ply`) and turn, play through `games`, append the move,
update the snapshot, settle the result if the game ended, and send engine work after commit."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Sequence

from django.db import transaction

import games
from matches.errors import ServiceError
from matches.models import Challenge, ChallengeSeat, Match, MatchSeat, Move
from matches.selectors.matches import match_state, public_move_text

from . import dispatch
from .events import notify
from .match_rows import clear_offers, locked_match, require_active, seat_of, set_deadline
from .results import finish


@dataclass(frozen=True)
class Played:
    """A recorded move with the match as it now stands (so callers need not read it again)."""

    record: Move
    match: Match
    seats: list[MatchSeat]
    state: games.State


def match_start(challenge: Challenge, seats: Sequence[ChallengeSeat]) -> Match:
    """The match of a challenge whose every seat has accepted (inside the caller's transaction)."""
    rules = games.get_game(challenge.game)
    seed = secrets.randbits(62)
    state = rules.new_state(players=len(seats), seed=seed, options=challenge.options)
    match = Match(
        game=rules.slug, variant=challenge.variant, options=challenge.options, seed=seed,
        players=len(seats), state=state.to_dict(), to_move=state.current_player,
        rated=challenge.rated, days_per_move=challenge.days_per_move, ladder=challenge.ladder)
    set_deadline(match, seats)
    match.save()
    match_seats = MatchSeat.objects.bulk_create([
        MatchSeat(match=match, seat=s.seat, user=s.user, ai_level=s.ai_level) for s in seats])
    notify([s.user for s in seats], "match_started", {"match": match.pk, "game": rules.slug,
                                                      "variant": rules.public_variant(match.options)})
    dispatch.schedule_reply(match, match_seats)
    return match


def record_move(match: Match, seats: list[MatchSeat], seat: int, move, state: games.State) -> Played:
    rules = games.get_game(match.game)
    record = Move.objects.create(match=match, ply=match.ply + 1, seat=seat, notation=str(move))
    match.ply += 1
    match.state = state.to_dict()
    match.to_move = state.current_player
    clear_offers(seats)
    if state.is_terminal:
        finish(match, seats, state.outcome)
    else:
        set_deadline(match, seats)
    match.save()
    shown = public_move_text(rules, record.notation, state)
    notify([s.user for s in seats if s.seat != seat], "move",
           {"match": match.pk, "ply": record.ply, "seat": seat, "move": shown})
    dispatch.schedule_reply(match, seats)
    return Played(record, match, seats, state)


@transaction.atomic
def move_submit(*, match_id: int, user, move: str, ply: int | None = None) -> Played:
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    require_active(match)
    if ply is not None and ply != match.ply:     # first: the client's picture is out of date
        raise ServiceError("stale_ply", f"the match is at ply {match.ply}, not {ply}",
                           detail={"ply": match.ply})
    if match.to_move != seat.seat:
        raise ServiceError("not_your_turn", f"it is seat {match.to_move}'s turn, not yours")
    state = match_state(match)
    parsed = state.parse_move(move)
    return record_move(match, seats, seat.seat, parsed, state.apply(parsed))


@transaction.atomic
def engine_move_apply(*, match_id: int, ply: int, notation: str) -> Played | None:
    """Write an engine's reply, only if the match is still where the engine looked (compare-and-set
    on ply), so a late or duplicated job never moves twice."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        return None
    seats = list(match.seats.select_related("user").order_by("seat"))
    if not (match.ply == ply and dispatch.engine_to_move(match, seats)):
        return None
    state = match_state(match)
    parsed = state.parse_move(notation)
    return record_move(match, seats, match.to_move, parsed, state.apply(parsed))
