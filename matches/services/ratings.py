"""Rating updates for a rated result (the math is `matches.glicko`)."""
from __future__ import annotations

from typing import Sequence

import games
from matches import glicko
from matches.models import Match, MatchSeat, Rating


def apply_result(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    """One Glicko-2 rating period for each player; a multi-seat result counts pairwise."""
    rows = {}
    for s in sorted(seats, key=lambda s: s.user_id):      # lock in a fixed order: no deadlocks
        Rating.objects.get_or_create(user_id=s.user_id, game=match.game)
        rows[s.seat] = Rating.objects.select_for_update().get(user_id=s.user_id, game=match.game)
    before = {seat: glicko.Glicko(r.rating, r.deviation, r.volatility) for seat, r in rows.items()}
    for seat, results in enumerate(glicko.pairwise_scores(outcome.scores)):
        new = glicko.update(before[seat], [(before[j], score) for j, score in results])
        row = rows[seat]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.save()
