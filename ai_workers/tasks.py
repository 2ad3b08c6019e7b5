"""Celery tasks (design §1): thin wrappers. Each receives an engine job as plain data (JSON),
runs the pure function for its kind (`ai_workers.engines.jobs`) and hands the result to a service.
A reply is written only if the match is still at the ply it was computed for (compare-and-set),
so a redelivered or late task never moves twice."""
from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

import games
from ai_workers.engines.jobs import EngineJob, run_analysis, run_reply
from matches.services import analysis as analysis_service
from matches.services import play

log = logging.getLogger(__name__)


@shared_task(name="ai_workers.tasks.engine_reply", acks_late=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def engine_reply(job: dict) -> str | None:
    """The engine's move for the job's position, written back if the match has not moved on."""
    engine_job = EngineJob.from_dict(job)
    reply = run_reply(engine_job)
    applied = play.engine_move_apply(match_id=engine_job.match_id, ply=engine_job.ply,
                                     notation=reply.move) is not None
    log.info("match %s ply %s: %s %s (%s nodes, %.2fs)%s", engine_job.match_id, engine_job.ply,
             engine_job.level, reply.move, reply.nodes, reply.seconds, "" if applied else " — stale, dropped")
    return reply.move if applied else None


@shared_task(name="ai_workers.tasks.engine_analysis", acks_late=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def engine_analysis(job: dict) -> int:
    """Per-ply results of an analysis job, handed to the analysis service."""
    engine_job = EngineJob.from_dict(job)
    if not analysis_service.analysis_started(analysis_id=engine_job.job_id):
        return 0
    try:
        rows = run_analysis(engine_job)
    except games.GameError as exc:
        analysis_service.analysis_failed(analysis_id=engine_job.job_id, error=str(exc))
        return 0
    analysis_service.analysis_complete(analysis_id=engine_job.job_id, results=rows)
    return len(rows)
