"""Engine jobs from the rows: everything a worker needs to think, as plain data."""
from __future__ import annotations

from typing import Sequence

from django.conf import settings
from django.db.models import Count

import games
from ai_workers.engines import get_engine
from ai_workers.engines import jobs as work
from matches.models import Analysis, EngineJob, Match, MatchSeat, PositionAnalysis


def engine_to_move(match: Match, seats: Sequence[MatchSeat]) -> bool:
    return (match.status == Match.Status.ACTIVE and match.to_move is not None
            and bool(seats[match.to_move].ai_level))


def _rng_seed(match: Match) -> int:
    """Derived from the match seed: searches are reproducible, and the seed itself stays home."""
    return games.seeded_rng(match.seed, "engine-job").getrandbits(62)


def reply_budget(game: str, level: str) -> float:
    """The level's thinking time in seconds (0 for levels limited by nodes only)."""
    limit = get_engine(game, level).default_limit.scaled(settings.AI_TIME_SCALE)
    return limit.seconds if limit.seconds is not None else 0.0


def analysis_budget(analysis: Analysis) -> float:
    """The analysis's thinking time: a search per ply, and at most one more per ply for the
    candidates of a move judged an inaccuracy or worse."""
    return 2 * settings.ANALYSIS_SECONDS_PER_PLY * analysis.upto_ply


def reply_job(match: Match, seats: Sequence[MatchSeat], job_id: int | None = None) -> work.EngineJob:
    level = seats[match.to_move].ai_level
    return work.EngineJob(kind=work.REPLY, game=match.game, options=match.options, players=match.players,
                          level=level, ply=match.ply, seconds=reply_budget(match.game, level),
                          rng_seed=_rng_seed(match), match_id=match.pk, job_id=job_id, state=match.state,
                          seat=match.to_move)


def analysis_job(analysis: Analysis, job_id: int | None = None) -> work.EngineJob:
    match = analysis.match
    moves = tuple(match.moves.filter(ply__lte=analysis.upto_ply).order_by("ply")
                  .values_list("notation", flat=True))
    return work.EngineJob(kind=work.ANALYSIS, game=match.game, options=match.options, players=match.players,
                          level=analysis.level, ply=analysis.upto_ply,
                          seconds=settings.ANALYSIS_SECONDS_PER_PLY, rng_seed=_rng_seed(match),
                          match_id=match.pk, job_id=job_id, moves=moves, seed=match.seed,
                          seat=analysis.seat, lines=settings.ANALYSIS_CANDIDATES)


def position_job(position: PositionAnalysis, job_id: int | None = None) -> work.EngineJob:
    """A position's lines: the snapshot, the level, its thinking time and the line count; the
    search's randomness is derived from the position, so equal requests search alike."""
    return work.EngineJob(kind=work.POSITION, game=position.game, options=position.options,
                          players=position.players, level=position.level, ply=position.ply,
                          seconds=position.seconds, rng_seed=int(position.state_key[:15], 16),
                          job_id=job_id, state=position.state, lines=position.lines)


def job_payload(job: EngineJob) -> dict | None:
    """What a worker receives for an outbox row, built from the rows as they are now; None once the
    work is moot (the match has moved on or ended, the analysis is gone)."""
    if job.kind == EngineJob.Kind.REPLY:
        match = Match.objects.filter(pk=job.match_id).first()
        if match is None:
            return None
        seats = list(match.seats.order_by("seat"))
        if match.ply != job.ply or not engine_to_move(match, seats):
            return None
        return reply_job(match, seats, job_id=job.pk).to_dict()
    if job.kind == EngineJob.Kind.POSITION:
        position = PositionAnalysis.objects.filter(pk=job.position_id).first()
        return position_job(position, job_id=job.pk).to_dict() if position is not None else None
    analysis = Analysis.objects.select_related("match").filter(pk=job.analysis_id).first()
    return analysis_job(analysis, job_id=job.pk).to_dict() if analysis is not None else None


def oldest_unsent_created_at():
    """When the oldest job still waiting in the table (queued, not yet sent) was made; None if none."""
    return (EngineJob.objects.filter(status=EngineJob.Status.QUEUED).order_by("created_at")
            .values_list("created_at", flat=True).first())


def live_job_counts() -> dict[tuple[str, str], int]:
    """Jobs not yet done or failed, by (lane, status)."""
    rows = (EngineJob.objects.filter(status__in=EngineJob.LIVE).values_list("lane", "status")
            .annotate(n=Count("id")).order_by())
    return {(lane, status): n for lane, status, n in rows}
