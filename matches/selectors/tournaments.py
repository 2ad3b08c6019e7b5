"""Tournament reads: the list, and one tournament with standings (tie-breaks), crosstable and the
pairings of every round."""
from __future__ import annotations

from django.db.models import Count, QuerySet

from matches.pairing import Game, Standing, standings
from matches.errors import first_or_error
from matches.models import Tournament


def tournaments_query(status: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("created_by").annotate(entrant_count=Count("entries")).order_by("-id")
    return qs.filter(status=status) if status else qs


def get_tournament(tournament_id: int) -> Tournament:
    return first_or_error(tournaments_query().filter(pk=tournament_id),
                          "tournament_not_found", f"no tournament {tournament_id}")


def tournament_summary(t: Tournament) -> dict:
    return {"id": t.pk, "name": t.name, "game": t.game, "variant": t.variant or None, "options": t.options,
            "days_per_move": t.days_per_move, "kind": t.kind, "rounds": t.rounds or None,
            "max_entrants": t.max_entrants, "starts_at": t.starts_at, "status": t.status,
            "current_round": t.current_round, "organiser": t.created_by.username,
            "entrants": t.entrant_count if hasattr(t, "entrant_count") else t.entries.count(),
            "created_at": t.created_at, "finished_at": t.finished_at}


def tournament_detail(t: Tournament) -> dict:
    entries = list(t.entries.select_related("user").order_by("seed", "joined_at", "id"))
    names = {e.user_id: e.user.username for e in entries}
    rows = list(t.games.select_related("match").order_by("round", "id"))
    played = [Game(g.round, g.first_id, g.second_id, g.first_score) for g in rows]
    table = standings([e.user_id for e in entries], played, t.kind)
    return {**tournament_summary(t),
            "standings": [_standing(i, s, names) for i, s in enumerate(table, start=1)],
            "crosstable": _crosstable(table, played, names),
            "pairings": _rounds(rows, names)}


def _standing(place: int, s: Standing, names: dict) -> dict:
    return {"rank": place, "player": names[s.player], "score": s.score, "buchholz": s.buchholz,
            "sonneborn_berger": s.sonneborn_berger, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "byes": s.byes}


def _crosstable(table: list[Standing], played: list[Game], names: dict) -> list[dict]:
    """A row per player in standings order; cell j is their score against the j-th player (null:
    not played or not decided yet)."""
    column = {s.player: j for j, s in enumerate(table)}
    cells = {s.player: [None] * len(table) for s in table}
    for g in played:
        if g.second is not None and g.first_score is not None:
            cells[g.first][column[g.second]] = g.first_score
            cells[g.second][column[g.first]] = 1.0 - g.first_score
    return [{"player": names[s.player], "cells": cells[s.player]} for s in table]


def _rounds(rows, names: dict) -> list[dict]:
    rounds: dict[int, list[dict]] = {}
    for g in rows:
        rounds.setdefault(g.round, []).append({
            "first": names[g.first_id], "second": names.get(g.second_id) if g.second_id else None,
            "match": g.match_id, "first_score": g.first_score,
            "status": g.match.status if g.match_id else "bye"})
    return [{"round": number, "games": games} for number, games in sorted(rounds.items())]
