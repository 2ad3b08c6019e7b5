"""Ladder reads."""
from __future__ import annotations

from django.db.models import Count, QuerySet

import games
from matches.errors import ServiceError
from matches.models import Ladder


def ladders_query() -> QuerySet[Ladder]:
    return Ladder.objects.annotate(player_count=Count("entries")).order_by("name")


def get_ladder(ladder_id: int) -> Ladder:
    ladder = ladders_query().filter(pk=ladder_id).first()
    if ladder is None:
        raise ServiceError("ladder_not_found", f"no ladder {ladder_id}")
    return ladder


def ladder_payload(ladder: Ladder, standings: bool = False) -> dict:
    players = getattr(ladder, "player_count", None)
    out = {"id": ladder.pk, "name": ladder.name, "game": ladder.game, "variant": games.get_game(ladder.game).public_variant(ladder.options),
           "options": ladder.options, "challenge_reach": ladder.challenge_reach,
           "days_per_move": ladder.days_per_move,
           "players": ladder.entries.count() if players is None else players}
    if standings:
        out["standings"] = [{"rank": e.rank, "player": e.user.username, "wins": e.wins,
                             "losses": e.losses} for e in ladder.entries.select_related("user")]
    return out
