"""Celery tasks (design §1): thin wrappers that take ids, load, run an engine within a budget and
write back through a service. An engine reply is applied only if the match is still at the ply it
was computed for (compare-and-set), so a redelivered or late task never moves twice."""
from __future__ import annotations

import logging
from random import Random

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

import games
from ai_workers.engines import Limit, get_engine
from matches import services
from matches.models import Analysis, Match
from matches import selectors
from matches.selectors import match_state

log = logging.getLogger(__name__)


def _engine_rng(match: Match, ply: int) -> Random:
    """Reproducible per match and ply, and unguessable to players (the seed is never shown)."""
    return games.seeded_rng(match.seed, "engine", ply)


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=5)
def ai_move(self, match_id: int, ply: int) -> str | None:
    """Compute and submit the engine's move for the seat to move at `ply`."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.ply != ply or match.to_move is None:
        return None
    seat = match.seats.get(seat=match.to_move)
    if not seat.ai_level:
        return None
    state = match_state(match)
    result = _search(match, seat.ai_level, state, ply)
    notation = str(result.move)
    applied = services.ai_move_apply(match_id=match_id, ply=ply, notation=notation) is not None
    log.info("match %s ply %s: %s %s (%s nodes, %.2fs)%s", match_id, ply, seat.ai_level, notation,
             result.nodes, result.seconds, "" if applied else " — stale, dropped")
    return notation if applied else None


def _search(match: Match, level: str, state: games.State, ply: int):
    """The level's engine within its budget; should it fail, the random player keeps the match going."""
    engine = get_engine(match.game, level)
    try:
        return engine.search(state, limit=engine.default_limit.scaled(settings.AI_TIME_SCALE),
                             rng=_engine_rng(match, ply))
    except Exception:
        log.exception("engine %s failed on match %s ply %s; playing a random move", level, match.pk, ply)
        return get_engine(match.game, "random").search(state, rng=_engine_rng(match, ply))


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=3)
def run_analysis(self, analysis_id: int) -> int:
    """Search every position of the record; results per ply: best move, value, line, played."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.status == Analysis.Status.DONE:
        return 0
    services.analysis_update(analysis_id=analysis_id, status=Analysis.Status.RUNNING)
    try:
        results = _analyse(analysis)
    except games.GameError as exc:
        services.analysis_update(analysis_id=analysis_id, status=Analysis.Status.FAILED, error=str(exc))
        return 0
    services.analysis_update(analysis_id=analysis_id, status=Analysis.Status.DONE, results=results)
    return len(results)


def _analyse(analysis: Analysis) -> list[dict]:
    match = analysis.match
    rules = games.get_game(match.game)
    moves = list(match.moves.filter(ply__lte=analysis.upto_ply).order_by("ply")
                 .values_list("notation", flat=True))
    engine = get_engine(match.game, analysis.level)
    limit = Limit(seconds=settings.ANALYSIS_SECONDS_PER_PLY)
    state = rules.new_state(players=match.players, seed=match.seed, options=match.options)
    results = []
    for ply, played in enumerate(moves, start=1):
        after = state.play(played)
        if analysis.seat is None or state.current_player == analysis.seat:
            found = engine.search(state, limit=limit, rng=_engine_rng(match, ply))
            results.append({"ply": ply, "seat": state.current_player,
                            "played": selectors.public_move_text(rules, played, after),
                            "best": str(found.move), "value": round(found.value, 3),
                            "pv": [str(m) for m in found.pv[:8]], "nodes": found.nodes})
        state = after
    return results
