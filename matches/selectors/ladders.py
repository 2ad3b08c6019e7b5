"""Ladder reads: the list, a ladder with its standings, and the history of its standings."""
from __future__ import annotations

from django.db.models import Count, QuerySet

import games
from matches.errors import first_or_error
from matches.models import Ladder, LadderEvent


def ladders_query() -> QuerySet[Ladder]:
    return Ladder.objects.select_related("created_by").annotate(player_count=Count("entries")).order_by("name")


def get_ladder(ladder_id: int) -> Ladder:
    return first_or_error(ladders_query().filter(pk=ladder_id),
                          "ladder_not_found", f"no ladder {ladder_id}")


def ladder_payload(ladder: Ladder, standings: bool = False) -> dict:
    players = getattr(ladder, "player_count", None)
    out = {"id": ladder.pk, "name": ladder.name, "game": ladder.game, "variant": games.get_game(ladder.game).public_variant(ladder.options),
           "options": ladder.options, "challenge_reach": ladder.challenge_reach,
           "days_per_move": ladder.days_per_move, "answer_days": ladder.answer_days,
           "created_by": ladder.created_by.username if ladder.created_by else None,
           "players": ladder.entries.count() if players is None else players}
    if standings:
        out["standings"] = [{"rank": e.rank, "player": e.user.username, "wins": e.wins,
                             "losses": e.losses, "forfeits": e.forfeits}
                            for e in ladder.entries.select_related("user")]
    return out


def ladder_history(ladder_id: int) -> QuerySet[LadderEvent]:
    ladder = get_ladder(ladder_id)
    return ladder.events.select_related("challenger", "defender", "forfeited_by").order_by("-id")


def _name(user) -> str | None:
    return user.username if user else None


def ladder_event_payload(event: LadderEvent) -> dict:
    name = _name
    return {"id": event.pk, "kind": event.kind, "at": event.created_at,
            "challenger": name(event.challenger), "challenger_rank": event.challenger_rank,
            "defender": name(event.defender), "defender_rank": event.defender_rank,
            "forfeited_by": name(event.forfeited_by), "challenge": event.challenge_id, "match": event.match_id}
