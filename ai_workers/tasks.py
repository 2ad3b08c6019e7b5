"""Celery tasks (design §1): thin wrappers. Each receives an engine job as plain data (JSON), takes
it in the outbox (`matches.services.jobs`: running, with a lease), runs the pure function for its
kind (`ai_workers.engines.jobs`) and hands the result to a service. A duplicate message finds its
job taken or closed and does nothing; a reply is written only if the match is still at the ply it
was computed for (compare-and-set), so a redelivered or late task never moves twice. Acknowledged
late and rejected if the worker is lost: the broker keeps a message until its work is done."""
from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

import games
from ai_workers.engines.jobs import EngineJob, run_analysis, run_position, run_reply
from matches.services import jobs

log = logging.getLogger(__name__)
TASK_OPTIONS = dict(bind=True, acks_late=True, reject_on_worker_lost=True,
                    autoretry_for=(OperationalError,), retry_backoff=True)


@shared_task(name="ai_workers.tasks.engine_reply", max_retries=5, **TASK_OPTIONS)
def engine_reply(self, job: dict) -> str | None:
    """The engine's move for the job's position, written back if the match has not moved on."""
    engine_job = EngineJob.from_dict(job)
    job_id = engine_job.job_id
    if job_id is not None and not jobs.job_started(job_id=job_id, match_id=engine_job.match_id,
                                                   retry=self.request.retries > 0):
        log.info("engine job %s: taken or closed already; message dropped", job_id)
        return None
    try:
        reply = run_reply(engine_job)
    except Exception as exc:                  # a broken job: retried, then given up (random move)
        log.exception("engine job %s failed", job_id)
        if job_id is not None:
            jobs.job_error(job_id=job_id, error=repr(exc))
        return None
    applied = jobs.reply_done(job_id=job_id, match_id=engine_job.match_id, ply=engine_job.ply,
                              notation=reply.move)
    log.info("match %s ply %s: %s %s (%s nodes, %.2fs)%s", engine_job.match_id, engine_job.ply,
             engine_job.level, reply.move, reply.nodes, reply.seconds, "" if applied else " — stale, dropped")
    return reply.move if applied else None


def _serve(task, job: dict, *, match_id, run, refused, done) -> int:
    """Take the job, run it, hand its result to `done` (a size back) or its refusal by the rules to
    `refused`; any other failure is the job's error (the sweep retries it)."""
    engine_job = EngineJob.from_dict(job)
    job_id = engine_job.job_id
    if job_id is None or not jobs.job_started(job_id=job_id, match_id=match_id(engine_job),
                                              retry=task.request.retries > 0):
        log.info("engine job %s: taken or closed already; message dropped", job_id)
        return 0
    try:
        result = run(engine_job)
    except games.GameError as exc:
        refused(job_id=job_id, error=str(exc))
        return 0
    except Exception as exc:
        log.exception("engine job %s failed", job_id)
        jobs.job_error(job_id=job_id, error=repr(exc))
        return 0
    return done(job_id, result)


@shared_task(name="ai_workers.tasks.engine_analysis", max_retries=3, **TASK_OPTIONS)
def engine_analysis(self, job: dict) -> int:
    """Per-ply results of an analysis job, handed to the analysis service."""
    def done(job_id: int, rows: list) -> int:
        jobs.analysis_done(job_id=job_id, results=rows)
        return len(rows)

    return _serve(self, job, match_id=lambda engine_job: engine_job.match_id, run=run_analysis,
                  refused=jobs.analysis_refused, done=done)


@shared_task(name="ai_workers.tasks.engine_position", max_retries=3, **TASK_OPTIONS)
def engine_position(self, job: dict) -> int:
    """A position's best lines (the analysis board), handed to the positions service; its job
    belongs to no match."""
    def done(job_id: int, found: dict) -> int:
        jobs.position_done(job_id=job_id, result=found)
        return len(found["lines"])

    return _serve(self, job, match_id=lambda engine_job: None, run=run_position,
                  refused=jobs.position_refused, done=done)
