"""Engine jobs from the rows: everything a worker needs to think, as plain data."""
from __future__ import annotations

from typing import Sequence

from django.conf import settings

import games
from ai_workers.engines import get_engine
from ai_workers.engines.jobs import ANALYSIS, REPLY, EngineJob
from matches.models import Analysis, Match, MatchSeat


def _rng_seed(match: Match) -> int:
    """Derived from the match seed: searches are reproducible, and the seed itself stays home."""
    return games.seeded_rng(match.seed, "engine-job").getrandbits(62)


def _budget(game: str, level: str) -> float:
    limit = get_engine(game, level).default_limit.scaled(settings.AI_TIME_SCALE)
    return limit.seconds if limit.seconds is not None else 0.0


def reply_job(match: Match, seats: Sequence[MatchSeat]) -> EngineJob:
    level = seats[match.to_move].ai_level
    return EngineJob(kind=REPLY, game=match.game, options=match.options, players=match.players,
                     level=level, ply=match.ply, seconds=_budget(match.game, level),
                     rng_seed=_rng_seed(match), match_id=match.pk, state=match.state,
                     seat=match.to_move)


def analysis_job(analysis: Analysis) -> EngineJob:
    match = analysis.match
    moves = tuple(match.moves.filter(ply__lte=analysis.upto_ply).order_by("ply")
                  .values_list("notation", flat=True))
    return EngineJob(kind=ANALYSIS, game=match.game, options=match.options, players=match.players,
                     level=analysis.level, ply=analysis.upto_ply,
                     seconds=settings.ANALYSIS_SECONDS_PER_PLY, rng_seed=_rng_seed(match),
                     match_id=match.pk, job_id=analysis.pk, moves=moves, seed=match.seed,
                     seat=analysis.seat)
