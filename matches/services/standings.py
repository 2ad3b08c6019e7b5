"""Ladder standings after a ladder match: the winner climbs by leapfrog (everyone between moves
down one). Called inside the finishing transaction (`results.finish`)."""
from __future__ import annotations

from typing import Sequence

from django.db.models import F

import games
from matches.models import LadderEntry, Match, MatchSeat


def record_ladder_result(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    challenger_id = match.challenge.created_by_id if hasattr(match, "challenge") else None
    entries = {e.user_id: e for e in LadderEntry.objects.select_for_update()
               .filter(ladder_id=match.ladder_id, user_id__in=[s.user_id for s in seats])}
    if len(entries) != 2 or challenger_id not in entries:
        return                               # someone left the ladder meanwhile: no rank change
    by_seat = {s.seat: entries[s.user_id] for s in seats}
    for seat, entry in by_seat.items():
        if seat in outcome.winners:
            entry.wins += 1
        elif outcome.winners:
            entry.losses += 1
        entry.save(update_fields=["wins", "losses"])
    challenger = entries[challenger_id]
    defender = next(e for e in entries.values() if e.user_id != challenger_id)
    won = any(by_seat[w].user_id == challenger_id for w in outcome.winners)
    if won and challenger.rank > defender.rank:
        old, new = challenger.rank, defender.rank
        # Ranks are unique (deferred constraint): shift the block, then drop the climber in.
        LadderEntry.objects.filter(ladder_id=match.ladder_id, rank__gte=new, rank__lt=old) \
            .update(rank=F("rank") + 1)
        LadderEntry.objects.filter(pk=challenger.pk).update(rank=new)
