"""Engine jobs from the workers' side, and the sweep that keeps them moving.

A worker takes a job (`job_started`: running, with a lease of 2 x its thinking time + a grace),
and hands the result back (`reply_done`, `analysis_done`, `position_done`) or its error (`job_error`); each end frees
a slot, so the next fair job is sent at once. The sweep (beat, every ~30 s) takes back jobs whose
lease ran out (a worker died, or a message was lost) and sends whatever is queued, e.g. after the
broker was down. A job started `ENGINE_MAX_ATTEMPTS` times is given up: an analysis fails; a reply
falls back to a random legal move, so no match waits forever for an engine.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import games
from ai_workers.engines import get_engine
from matches.errors import ServiceError
from matches.models import Analysis, EngineJob, Match
from matches.selectors.matches import match_state
from pearlsite import metrics

from . import analysis, dispatch, play, positions

log = logging.getLogger(__name__)
Status = EngineJob.Status


@transaction.atomic
def job_started(*, job_id: int, match_id: int | None, retry: bool = False) -> bool:
    """A worker takes the job (of this match); False if it must not run it (a duplicate, or
    nothing left to do)."""
    job = dispatch.job_start(job_id, match_id, retry=retry)
    if job is None:
        return False
    if job.kind == EngineJob.Kind.ANALYSIS and not analysis.analysis_started(analysis_id=job.analysis_id):
        dispatch.job_finish(job_id, lane=job.lane)
        return False
    if job.kind == EngineJob.Kind.POSITION and not positions.position_started(position_id=job.position_id):
        dispatch.job_finish(job_id, lane=job.lane)
        return False
    return True


def reply_done(*, job_id: int | None, match_id: int, ply: int, notation: str) -> bool:
    """Write the engine's move back (compare-and-set on the job and the ply); True if it was played."""
    played = play.engine_move_apply(match_id=match_id, ply=ply, notation=notation, job_id=job_id)
    dispatch.release([EngineJob.Lane.REPLY])
    return played is not None


def analysis_done(*, job_id: int, results: list[dict]) -> None:
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    with transaction.atomic():
        if dispatch.job_finish(job_id, lane=job.lane):
            analysis.analysis_complete(analysis_id=job.analysis_id, results=results)
    dispatch.release(_lanes_after(job))


def analysis_refused(*, job_id: int, error: str) -> None:
    """The record cannot be analysed (the rules refuse it): no retry helps."""
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    with transaction.atomic():
        if dispatch.job_finish(job_id, Status.FAILED, error, lane=job.lane):
            analysis.analysis_failed(analysis_id=job.analysis_id, error=error)
    dispatch.release(_lanes_after(job))


def position_done(*, job_id: int, result: dict) -> None:
    """A position's lines, written to its row (once: a duplicate finds the job closed)."""
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    with transaction.atomic():
        if dispatch.job_finish(job_id, lane=job.lane):
            positions.position_complete(position_id=job.position_id, result=result)
    dispatch.release(_lanes_after(job))


def position_refused(*, job_id: int, error: str) -> None:
    """The position cannot be searched (the rules refuse it): no retry helps."""
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    with transaction.atomic():
        if dispatch.job_finish(job_id, Status.FAILED, error, lane=job.lane):
            positions.position_failed(position_id=job.position_id, error=error)
    dispatch.release(_lanes_after(job))


def job_error(*, job_id: int, error: str) -> None:
    """A worker failed on the job: back in the queue, or given up after its last attempt."""
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    with transaction.atomic():
        if job.attempts >= settings.ENGINE_MAX_ATTEMPTS:
            _give_up(job, f"gave up after {job.attempts} attempts: {error}")
        else:
            dispatch.job_requeue(job_id, error, lane=job.lane)
    dispatch.release(_lanes_after(job))


def _lanes_after(job: EngineJob) -> list[str]:
    """The lanes a finished job frees a slot in (the server's analyses go when people's are out)."""
    if job.kind == EngineJob.Kind.REPLY:
        return [EngineJob.Lane.REPLY]
    return [EngineJob.Lane.ANALYSIS_USER, EngineJob.Lane.ANALYSIS_SYSTEM]


def sweep(now=None) -> dict[str, int]:
    """Take back jobs whose lease ran out, give up those out of attempts, send what is queued."""
    now = now or timezone.now()
    expired = EngineJob.objects.filter(status__in=EngineJob.IN_FLIGHT, lease_until__lt=now)
    requeued = given_up = 0
    metrics.sweep_ran()
    for job in expired:
        metrics.lease_expired()
        if job.attempts >= settings.ENGINE_MAX_ATTEMPTS:
            given_up += _give_up(job, f"gave up: lease lost after {job.attempts} attempts")
        elif dispatch.job_requeue(job.pk, f"lease expired (attempt {job.attempts})", expired_before=now,
                                  lane=job.lane):
            requeued += 1
    sent = dispatch.release(force=True)
    if requeued or given_up or sent:
        log.info("engine job sweep: %s taken back, %s given up, %s sent", requeued, given_up, len(sent))
    return {"requeued": requeued, "given_up": given_up, "sent": len(sent)}


@transaction.atomic
def job_retry(*, job_id: int) -> EngineJob:
    """Staff: run a failed job again from its first attempt, if its work is still wanted (a reply:
    the match still waits at that ply for that engine; an analysis: not done)."""
    job = EngineJob.objects.filter(pk=job_id).first()
    if job is None:
        raise ServiceError("engine_job_not_found", f"no engine job {job_id}")
    # The match row first, then the job's, in the order a reply being written takes them.
    match = Match.objects.select_for_update().filter(pk=job.match_id).first()
    job = EngineJob.objects.select_for_update(of=("self",)).select_related("analysis", "position").get(pk=job_id)
    reason = _why_not_retryable(job, match)
    if reason:
        raise ServiceError("job_not_retryable", f"engine job {job_id} cannot run again: {reason}",
                           detail={"reason": reason})
    if job.kind == EngineJob.Kind.ANALYSIS:
        analysis.analysis_requeued(analysis_id=job.analysis_id)
    if job.kind == EngineJob.Kind.POSITION:
        positions.position_requeued(position_id=job.position_id)
    dispatch.job_reopen(job)
    job.refresh_from_db()
    return job


def _why_not_retryable(job: EngineJob, match: Match | None) -> str:
    if job.status != Status.FAILED:
        return f"it is {job.status}, not failed"
    if job.kind == EngineJob.Kind.ANALYSIS:
        done = job.analysis is None or job.analysis.status == Analysis.Status.DONE
        return "the analysis is done" if done else ""
    if job.kind == EngineJob.Kind.POSITION:
        done = job.position is None or job.position.status == job.position.Status.DONE
        return "the lines are done" if done else ""
    seats = list(match.seats.order_by("seat")) if match else []
    if match is None or match.ply != job.ply or not dispatch.engine_to_move(match, seats):
        return "the match has moved on"
    if EngineJob.objects.filter(match=match, kind=EngineJob.Kind.REPLY, status__in=EngineJob.LIVE).exists():
        return "another reply job is under way"
    return ""


def _give_up(job: EngineJob, error: str) -> bool:
    """Close the job as failed; a reply is replaced by a random legal move (if still wanted)."""
    log.warning("engine job %s: %s", job.pk, error)
    if job.kind == EngineJob.Kind.ANALYSIS:
        with transaction.atomic():
            closed = dispatch.job_finish(job.pk, Status.FAILED, error, lane=job.lane)
            if closed:
                analysis.analysis_failed(analysis_id=job.analysis_id, error="the engine could not finish")
        return closed
    if job.kind == EngineJob.Kind.POSITION:
        with transaction.atomic():
            closed = dispatch.job_finish(job.pk, Status.FAILED, error, lane=job.lane)
            if closed:
                positions.position_failed(position_id=job.position_id, error="the engine could not finish")
        return closed
    match = Match.objects.filter(pk=job.match_id).first()
    seats = list(match.seats.order_by("seat")) if match else []
    if match is None or match.ply != job.ply or not dispatch.engine_to_move(match, seats):
        return dispatch.job_finish(job.pk, Status.FAILED, error, lane=job.lane)
    state = match_state(match)
    move = get_engine(match.game, "random").search(state, rng=games.seeded_rng(match.seed, "fallback", job.ply)).move
    play.engine_move_apply(match_id=match.pk, ply=job.ply, notation=str(move), job_id=job.pk,
                           job_status=Status.FAILED, job_error=f"{error}; played a random legal move")
    return True
