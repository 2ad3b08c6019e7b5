"""The match row as every write service takes it: locked, with its seats, checked."""
from __future__ import annotations

from typing import Sequence

import games
from matches.errors import ServiceError
from matches.models import Match, MatchSeat, Move
from matches.selectors import capabilities
from matches.selectors.matches import match_with_seats, public_move_text

from .events import notify


def locked_match(match_id: int) -> tuple[Match, list[MatchSeat]]:
    """The match row, locked until the transaction ends, and its seats (in seat order): one statement."""
    match = match_with_seats(match_id, lock=True)
    if match is None:
        raise ServiceError("match_not_found", f"no match {match_id}")
    return match, match.seat_list


def seat_of(user, seats: Sequence[MatchSeat]) -> MatchSeat:
    """The caller's seat; anyone else is refused (the rules of `selectors.capabilities`)."""
    capabilities.person_verdict(user).check()
    seat = capabilities.seat_for(user, seats)
    capabilities.seated_verdict(seat).check()
    return seat


def require_active(match: Match) -> None:
    capabilities.active_verdict(match).check()


def require_in_time(match: Match) -> None:
    capabilities.in_time_verdict(match).check()


def clear_offers(seats: Sequence[MatchSeat]) -> list[tuple[int, str, int | None]]:
    """Clear these seats' pending offers; returns what was pending: (seat, offer, ply) each."""
    pending = [s for s in seats if s.offer]
    had = [(s.seat, s.offer, s.offer_ply) for s in pending]
    for s in pending:
        s.offer, s.offer_ply = "", None
    if pending:
        MatchSeat.objects.bulk_update(pending, ["offer", "offer_ply"])
    return had


def expire_offers(match: Match, seats: Sequence[MatchSeat]) -> None:
    """A move lets every pending offer lapse: each person at the table hears of it."""
    for seat, offer, ply in clear_offers(seats):
        notify([s.user for s in seats], "offer_expired", {"match": match.pk, "offer": offer, "seat": seat, "ply": ply})


def remember_last_move(match: Match, record: Move | None, state: games.State) -> None:
    """Keep the latest move on the match row, in the form everyone may see while `state` stands."""
    if record is None:
        match.last_move = None
        return
    shown = public_move_text(games.get_game(match.game), record.notation, state)
    match.last_move = {"ply": record.ply, "seat": record.seat, "move": shown,
                       "created_at": record.created_at.isoformat()}


def announce_turn(match: Match, seats: Sequence[MatchSeat]) -> None:
    """A `your_turn` event for the person now to move (engines are sent work instead)."""
    if match.status != Match.Status.ACTIVE or match.to_move is None:
        return
    deadline = match.deadline.isoformat() if match.deadline else None
    notify([seats[match.to_move].user], "your_turn", {"match": match.pk, "ply": match.ply, "deadline": deadline})
