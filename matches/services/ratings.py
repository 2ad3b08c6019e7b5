"""Rating updates for a rated result: Glicko-2 for two-seat games, Weng–Lin for games that seat
more (`matches.rating_keys`), each result written as one history point per player."""
from __future__ import annotations

from typing import Sequence

from django.utils import timezone

import games
from matches import glicko, weng_lin
from matches.models import Match, MatchSeat, Rating, RatingChange
from matches.rating_keys import GLICKO2, key_for, system_for

from . import standings


def apply_result(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    """One rating period for each player of a rated result (inside the finishing transaction)."""
    if match.ladder_id and standings.silent_seats(match, seats):
        return                       # a ladder side that never moved played no game: a forfeit
    key, system = key_for(match.game, match.options), system_for(match.game)
    rows = _locked_rows(seats, key, system)
    before = {s.seat: glicko.Glicko(rows[s.seat].rating, rows[s.seat].deviation, rows[s.seat].volatility)
              for s in seats}
    if system == GLICKO2:
        after = _glicko_period(before, outcome.scores)
    else:
        ordered = [before[s.seat] for s in seats]
        after = {s.seat: glicko.Glicko(*pair, before[s.seat].volatility)
                 for s, pair in zip(seats, weng_lin.update(ordered, [outcome.scores[s.seat] for s in seats]))}
    now = timezone.now()
    for s in seats:
        _record(rows[s.seat], before[s.seat], after[s.seat], _result_of(s.seat, outcome), match, now)


def _locked_rows(seats: Sequence[MatchSeat], key, system: str) -> dict[int, Rating]:
    rows = {}
    for s in sorted(seats, key=lambda s: s.user_id):      # lock in a fixed order: no deadlocks
        Rating.objects.get_or_create(user_id=s.user_id, game=key.game, variant=key.variant,
                                     defaults={"system": system})
        rows[s.seat] = Rating.objects.select_for_update().get(user_id=s.user_id, game=key.game,
                                                              variant=key.variant)
    return rows


def _glicko_period(before: dict[int, glicko.Glicko], scores: Sequence[float]) -> dict[int, glicko.Glicko]:
    """Both players' new ratings from one result, each computed from the other's old rating."""
    (a, b) = sorted(before)
    first = 1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0
    return {a: glicko.update(before[a], [(before[b], first)]),
            b: glicko.update(before[b], [(before[a], 1.0 - first)])}


def _result_of(seat: int, outcome: games.Outcome) -> str:
    if not outcome.winners:
        return "draw"
    return "win" if seat in outcome.winners else "loss"


def _record(row: Rating, old: glicko.Glicko, new: glicko.Glicko, result: str, match: Match, now) -> None:
    RatingChange.objects.create(rating=row, match=match, rating_before=old.rating, rating_after=new.rating,
                                deviation_before=old.deviation, deviation_after=new.deviation, created_at=now)
    row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
    row.games += 1
    row.wins += result == "win"
    row.draws += result == "draw"
    row.losses += result == "loss"
    row.last_played_at = now
    row.save()
