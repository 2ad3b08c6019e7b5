"""Draw and takeback offers: offer, accept, decline. An offer made while another seat's offer
is pending accepts it. Engine seats agree to takebacks in unrated matches and never to draws."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

import games
from matches.errors import ServiceError
from matches.models import Match, MatchSeat

from . import clocks, dispatch
from .events import notify
from .match_rows import (announce_turn, clear_offers, locked_match, remember_last_move, require_active,
                         require_in_time, seat_of)
from .results import finish

OFFER_ACTIONS = ("offer", "accept", "decline")


def _offer(match_id: int, user, kind: str, action: str):
    """Shared bookkeeping. Returns (match, seats, agreed, initiator): `initiator` is the seat
    whose offer this is (the first to offer); `agreed` is true once every seat agrees."""
    if action not in OFFER_ACTIONS:
        raise ServiceError("invalid_action", f"action must be one of {list(OFFER_ACTIONS)}")
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    require_active(match)
    require_in_time(match)
    if len(seats) < 2:
        raise ServiceError("no_opponent", f"a one-seat match has nobody to agree a {kind} with")
    others_pending = [s for s in seats if s.offer == kind and s.seat != seat.seat]
    if action == "decline":
        if not others_pending:
            raise ServiceError("no_offer", f"there is no {kind} offer to decline")
        clear_offers([s for s in seats if s.offer == kind])
        notify([s.user for s in seats if s != seat], "offer_declined",
               {"match": match.pk, "offer": kind, "by": user.username, "seat": seat.seat})
        return match, seats, False, None
    if action == "accept" and not others_pending:
        raise ServiceError("no_offer", f"there is no {kind} offer to accept")
    initiator = others_pending[0] if others_pending else seat
    seat.offer = kind
    seat.save(update_fields=["offer"])
    agreed = all(s.offer == kind or (s.ai_level and kind == "takeback" and not match.rated)
                 for s in seats)
    if not agreed:
        notify([s.user for s in seats if s != seat], "offer_made",
               {"match": match.pk, "offer": kind, "by": user.username, "seat": seat.seat, "ply": match.ply})
    return match, seats, agreed, initiator


@transaction.atomic
def match_draw(*, match_id: int, user, action: str = "offer") -> Match:
    match, seats, agreed, _ = _offer(match_id, user, "draw", action)
    if agreed:
        finish(match, seats, games.Outcome.draw(len(seats), games.Termination.AGREEMENT))
        match.save()
    return match


@transaction.atomic
def match_takeback(*, match_id: int, user, action: str = "offer") -> Match:
    """Undo the caller's last move (and everything after it) once every other seat agrees.

    Games with hidden information refuse takebacks: the moves replayed after one would reveal
    cards that were drawn."""
    match = Match.objects.filter(pk=match_id).first()
    if match is not None and games.get_game(match.game).has_hidden_information:
        raise ServiceError("takeback_unavailable", "takebacks are not offered in games with hidden information")
    match, seats, agreed, initiator = _offer(match_id, user, "takeback", action)
    if agreed:
        _take_back(match, seats, initiator)
    return match


def _take_back(match: Match, seats: list[MatchSeat], initiator: MatchSeat) -> None:
    last = match.moves.filter(seat=initiator.seat).order_by("-ply").first()
    if last is None:
        raise ServiceError("nothing_to_take_back", "there is no move of yours to take back")
    keep = list(match.moves.filter(ply__lt=last.ply).values_list("notation", flat=True))
    rules = games.get_game(match.game)
    state = rules.replay(players=match.players, seed=match.seed, options=match.options, moves=keep)
    match.moves.filter(ply__gte=last.ply).delete()
    match.ply, match.state, match.to_move = len(keep), state.to_dict(), state.current_player
    remember_last_move(match, match.moves.filter(ply=match.ply).first(), state)
    clear_offers(seats)
    clocks.turn_start(match, seats, timezone.now())
    match.save()
    notify([s.user for s in seats], "offer_accepted", {"match": match.pk, "offer": "takeback", "ply": match.ply})
    announce_turn(match, seats)
    dispatch.schedule_reply(match, seats)
