"""Draw and takeback offers: offer, accept, decline, withdraw. An offer made while another seat's
offer of the same kind is pending accepts it; the next move lets pending offers lapse
(`offer_expired`). Engine seats answer a draw at once, by a quick look at the position
(`ai_workers.engines.offers`); they never agree to a takeback, so none is asked for at a table
with an engine (`takeback_against_engine`). Who may do what: `selectors.capabilities`."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import games
from ai_workers.engines.offers import accepts_draw, accepts_takeback
from matches.errors import ServiceError
from matches.models import Match, MatchSeat
from matches.selectors import capabilities
from matches.selectors.capabilities import DRAW, OFFER_ACTIONS, TAKEBACK
from matches.selectors.matches import match_state

from . import clocks, conditional, dispatch
from .events import notify
from .match_rows import announce_turn, clear_offers, locked_match, remember_last_move
from .results import finish


def _event(seats, kind: str, match: Match, offer: str, by: MatchSeat, everyone: bool = False, **extra) -> None:
    """Tell every person at the table but the one who acted (or everyone)."""
    notify([s.user for s in seats if everyone or s.seat != by.seat], kind,
           {"match": match.pk, "offer": offer, "by": by.player_name, "seat": by.seat, **extra})


def _pending(seats, kind: str, exclude: MatchSeat | None = None) -> list[MatchSeat]:
    return [s for s in seats if s.offer == kind and (exclude is None or s.seat != exclude.seat)]


def _set_offer(seat: MatchSeat, kind: str, ply: int | None) -> None:
    seat.offer, seat.offer_ply = kind, ply
    seat.save(update_fields=["offer", "offer_ply"])


def _engines_answer(match: Match, seats: list[MatchSeat], kind: str) -> bool:
    """Every engine seat answers at once: True if they all agree (their agreement is recorded as
    their own offer); on the first no, the offer is declined and cleared."""
    engines = [s for s in seats if s.ai_level and s.offer != kind]
    state = match_state(match) if engines and kind == DRAW else None
    rules = games.get_game(match.game)
    for engine in engines:
        agrees = accepts_takeback() if kind == TAKEBACK else accepts_draw(
            state, engine.seat, game=match.game, level=engine.ai_level, ply=match.ply, seats=len(seats),
            hidden_information=rules.has_hidden_information,
            rng=games.seeded_rng(match.seed, "draw-offer", match.ply), time_scale=settings.AI_TIME_SCALE)
        if not agrees:
            clear_offers(_pending(seats, kind))
            _event(seats, "offer_declined", match, kind, engine)
            return False
        _set_offer(engine, kind, match.ply)
    return True


def _respond(match_id: int, user, kind: str, action: str) -> tuple[Match, list[MatchSeat], MatchSeat | None]:
    """Apply `action`; returns the match, its seats and, once every seat agrees, the seat whose
    offer it was (None while there is no agreement)."""
    if action not in OFFER_ACTIONS:
        raise ServiceError("invalid_action", f"action must be one of {list(OFFER_ACTIONS)}")
    match, seats = locked_match(match_id)
    table = capabilities.Table(match, seats, user)
    capabilities.offer_verdict(table, kind, action).check()
    seat = table.seat
    if action == "withdraw":
        clear_offers([seat])
        _event(seats, "offer_withdrawn", match, kind, seat)
        return match, seats, None
    if action == "decline":
        clear_offers(_pending(seats, kind))
        _event(seats, "offer_declined", match, kind, seat)
        return match, seats, None
    maker = capabilities.offer_maker(table, kind)
    _set_offer(seat, kind, match.ply)
    if not _engines_answer(match, seats, kind):
        return match, seats, None
    if all(s.offer == kind for s in seats):
        _event(seats, "offer_accepted", match, kind, seat, everyone=True, ply=match.ply)
        return match, seats, maker
    _event(seats, "offer_made", match, kind, seat, ply=match.ply)
    return match, seats, None


@transaction.atomic
def match_draw(*, match_id: int, user, action: str = "offer") -> Match:
    match, seats, agreed = _respond(match_id, user, DRAW, action)
    if agreed:
        clear_offers(seats)
        finish(match, seats, games.Outcome.draw(len(seats), games.Termination.AGREEMENT))
        match.save()
    return match


@transaction.atomic
def match_takeback(*, match_id: int, user, action: str = "offer") -> Match:
    """Undo the last move of the seat that asked (and everything after it) once every other seat
    agrees. Refused at once when that seat has no move to take back."""
    match, seats, maker = _respond(match_id, user, TAKEBACK, action)
    if maker is not None:
        _take_back(match, seats, maker)
    return match


def _take_back(match: Match, seats: list[MatchSeat], maker: MatchSeat) -> None:
    last = match.moves.filter(seat=maker.seat).order_by("-ply").first()
    keep = list(match.moves.filter(ply__lt=last.ply).values_list("notation", flat=True))
    rules = games.get_game(match.game)
    state = rules.replay(players=match.players, seed=match.seed, options=match.options, moves=keep)
    match.moves.filter(ply__gte=last.ply).delete()
    match.ply, match.state, match.to_move = len(keep), state.to_dict(), state.current_player
    remember_last_move(match, match.moves.filter(ply=match.ply).first(), state)
    clear_offers(seats)
    conditional.conditional_drop(match)
    clocks.turn_start(match, seats, timezone.now())
    match.save()
    announce_turn(match, seats)
    dispatch.cancel_replies(match, "moot: moves were taken back")
    dispatch.schedule_reply(match, seats, cause=maker.user)
