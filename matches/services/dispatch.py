"""Engine work leaves the request path here, through an outbox.

Every engine reply and analysis is first an `EngineJob` row written in the caller's transaction, so
a committed move, challenge or analysis request always has its engine work on record. After commit
`release` sends queued rows to the workers by task name (this app never imports the worker
package). Sending may fail (broker down): the row stays queued, the request still succeeds, and
the sweep (`services.jobs.sweep`) sends it later.

Sending is fair: per lane, a user has at most `ENGINE_INFLIGHT_PER_USER` jobs sent or running;
the rest wait here, and each free slot goes to the oldest queued job of the user with the fewest
jobs in flight. So one user's hundreds of engine games cannot queue in front of another user's
reply at the broker. The server's own analyses (no user) count as one user, sent only while no
person's analysis waits.
"""
from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Iterable, Sequence

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from kombu.exceptions import KombuError

from matches import redis_link
from matches.models import Analysis, EngineJob, Match, MatchSeat, PositionAnalysis
from matches.selectors import engine_jobs
from pearlsite import metrics

log = logging.getLogger(__name__)

Kind, Lane, Status = EngineJob.Kind, EngineJob.Lane, EngineJob.Status
REPLY_TASK = "ai_workers.tasks.engine_reply"
ANALYSIS_TASK = "ai_workers.tasks.engine_analysis"
POSITION_TASK = "ai_workers.tasks.engine_position"
TASKS = {Kind.REPLY: REPLY_TASK, Kind.ANALYSIS: ANALYSIS_TASK, Kind.POSITION: POSITION_TASK}
REPLY_QUEUE = Lane.REPLY.value
USER_ANALYSIS_QUEUE, SYSTEM_ANALYSIS_QUEUE = Lane.ANALYSIS_USER.value, Lane.ANALYSIS_SYSTEM.value
LANES = tuple(Lane)
BATCH = 50

engine_to_move = engine_jobs.engine_to_move

# Monotonic time until which this process leaves sending to the sweep (the broker just failed).
_send_paused_until = 0.0
_last_send_error = ""


def schedule_reply(match: Match, seats: Sequence[MatchSeat], cause=None) -> EngineJob | None:
    """If an engine holds the seat to move, record its job (sent once this transaction commits).
    `cause` is the person whose action led here: the job counts against their fair share."""
    if not engine_to_move(match, seats):
        return None
    level = seats[match.to_move].ai_level
    job = EngineJob.objects.create(
        kind=Kind.REPLY, lane=Lane.REPLY, match=match, ply=match.ply, level=level,
        user=cause if getattr(cause, "pk", None) else None,
        budget_seconds=engine_jobs.reply_budget(match.game, level))
    metrics.engine_job_state(Lane.REPLY, Status.QUEUED)
    _release_after_commit([Lane.REPLY])
    return job


def schedule_analyses(analyses: Sequence[Analysis], lane: str = USER_ANALYSIS_QUEUE) -> list[EngineJob]:
    jobs = EngineJob.objects.bulk_create([
        EngineJob(kind=Kind.ANALYSIS, lane=lane, match_id=a.match_id, analysis=a, ply=a.upto_ply,
                  level=a.level, user_id=a.requested_by_id, budget_seconds=engine_jobs.analysis_budget(a))
        for a in analyses])
    if jobs:
        metrics.engine_job_state(lane, Status.QUEUED, len(jobs))
        _release_after_commit([lane])
    return jobs


def schedule_position(position: PositionAnalysis) -> EngineJob:
    """A position's lines (the analysis board): on the people's analysis lane, counted against
    the requester's fair share like an analysis."""
    job = EngineJob.objects.create(
        kind=Kind.POSITION, lane=Lane.ANALYSIS_USER, match=None, position=position, ply=position.ply,
        level=position.level, user_id=position.requested_by_id, budget_seconds=position.seconds)
    metrics.engine_job_state(Lane.ANALYSIS_USER, Status.QUEUED)
    _release_after_commit([Lane.ANALYSIS_USER])
    return job


def _release_after_commit(lanes: list[str]) -> None:
    # Robust: whatever goes wrong while sending is logged and never fails the committed request;
    # the job waits in the table for the sweep.
    transaction.on_commit(lambda: release(lanes), robust=True)


def cancel_replies(match: Match, reason: str) -> int:
    """The match moved on without the engine (takeback, result): its live reply job is moot."""
    cancelled = EngineJob.objects.filter(match=match, kind=Kind.REPLY, status__in=EngineJob.LIVE).update(
        status=Status.FAILED, last_error=reason, lease_until=None, finished_at=timezone.now())
    metrics.engine_job_state(Lane.REPLY, metrics.CANCELLED, cancelled)
    return cancelled


def job_reopen(job: EngineJob) -> None:
    """A failed job, queued again from its first attempt (inside the caller's transaction, which
    holds the row); sent once that commits."""
    EngineJob.objects.filter(pk=job.pk, status=Status.FAILED).update(
        status=Status.QUEUED, attempts=0, last_error="", lease_until=None, sent_at=None, started_at=None,
        finished_at=None)
    metrics.engine_job_state(job.lane, Status.QUEUED)
    _release_after_commit([job.lane])


def lease_seconds(job: EngineJob) -> float:
    return 2 * job.budget_seconds + settings.ENGINE_LEASE_GRACE


# --- sending ----------------------------------------------------------------------------------

def release(lanes: Iterable[str] = LANES, *, force: bool = False) -> list[int]:
    """Send what the fair shares allow; the ids sent. After a failed send this process leaves
    sending to the sweep for a few seconds, and so it does while the broker is the Redis the rate
    limits just found down (`force` sends anyway: the sweep)."""
    if not force and (time.monotonic() < _send_paused_until or _broker_failed_just_now()):
        return []
    sent: list[int] = []
    for lane in lanes:
        while True:
            batch = _take_fair(lane)
            for i, (job, payload) in enumerate(batch):
                if not _publish(job, payload):
                    _unsend(lane, [j.pk for j, _ in batch[i:]], f"not sent: {_last_send_error}")
                    return sent
                sent.append(job.pk)
            if len(batch) < BATCH:
                break
    return sent


def _broker_failed_just_now() -> bool:
    """The broker is the request path's Redis, which just failed (matches/redis_link.py: the rate
    limits found out within its short timeout): a send would only wait for it."""
    return bool(settings.REDIS_URL) and current_app.conf.broker_url == settings.REDIS_URL \
        and redis_link.breaker.is_open


@transaction.atomic
def _take_fair(lane: str) -> list[tuple[EngineJob, dict]]:
    """Mark up to BATCH queued jobs of `lane` sent, fairly; with their payloads."""
    _lock_lane(lane)
    if lane == Lane.ANALYSIS_SYSTEM and EngineJob.objects.filter(
            lane=Lane.ANALYSIS_USER, status=Status.QUEUED).exists():
        return []
    cap = settings.ENGINE_INFLIGHT_PER_USER
    in_flight = Counter(dict(EngineJob.objects.filter(lane=lane, status__in=EngineJob.IN_FLIGHT)
                             .values_list("user").annotate(n=Count("id")).order_by()))
    waiting: dict[int | None, list[EngineJob]] = defaultdict(list)
    oldest_first = (EngineJob.objects.filter(lane=lane, status=Status.QUEUED)
                    .annotate(rank=Window(RowNumber(), partition_by=[F("user_id")], order_by=F("id").asc()))
                    .filter(rank__lte=cap).order_by("id"))
    for job in oldest_first:
        waiting[job.user_id].append(job)
    taken: list[tuple[EngineJob, dict]] = []
    while len(taken) < BATCH:
        open_users = [u for u, jobs in waiting.items() if jobs and in_flight[u] < cap]
        if not open_users:
            break
        user = min(open_users, key=lambda u: (in_flight[u], waiting[u][0].pk))
        job = waiting[user].pop(0)
        payload = engine_jobs.job_payload(job)
        if payload is None:
            _finish(job.pk, Status.FAILED, "moot: the match moved on", lane, counted_as=metrics.CANCELLED)
            continue
        now = timezone.now()
        if EngineJob.objects.filter(pk=job.pk, status=Status.QUEUED).update(
                status=Status.SENT, sent_at=now, lease_until=now + timedelta(seconds=lease_seconds(job))):
            in_flight[user] += 1
            taken.append((job, payload))
    metrics.engine_job_state(lane, Status.SENT, len(taken))
    return taken


def _lock_lane(lane: str) -> None:
    """One sender per lane at a time, so two processes never both fill the same free slot.
    (SQLite transactions here are IMMEDIATE: they are one at a time already.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"pearlsite-lane-{lane}"])


def _publish(job: EngineJob, payload: dict) -> bool:
    global _send_paused_until, _last_send_error
    try:
        # By name: runs in-process when tasks are eager (tests), otherwise goes to the broker.
        current_app.signature(TASKS[job.kind], args=(payload,)).apply_async(queue=job.lane)
        return True
    except (KombuError, OSError) as exc:
        log.warning("engine job %s not sent (%s); it stays queued for the sweep", job.pk, exc)
        _last_send_error = str(exc)
        _send_paused_until = time.monotonic() + settings.ENGINE_SEND_PAUSE
        return False


def _unsend(lane: str, job_ids: list[int], error: str) -> None:
    unsent = EngineJob.objects.filter(pk__in=job_ids, status=Status.SENT).update(
        status=Status.QUEUED, sent_at=None, lease_until=None, last_error=error[:500])
    metrics.engine_job_state(lane, Status.QUEUED, unsent)


# --- the worker's side ------------------------------------------------------------------------

@transaction.atomic
def job_start(job_id: int, match_id: int | None, *, retry: bool = False) -> EngineJob | None:
    """A worker takes the job: running, with a lease. None if it is not there to take (done,
    failed, or running under another worker's live lease): the message is a duplicate. `retry`:
    the same task again after a database hiccup (it keeps its running job, with a new lease)."""
    job = EngineJob.objects.select_for_update().filter(pk=job_id, match_id=match_id).first()
    now = timezone.now()
    if job is None:
        return None
    if retry and job.status == Status.RUNNING:
        job.lease_until = now + timedelta(seconds=lease_seconds(job))
        job.save(update_fields=["lease_until"])
        return job
    lapsed = job.status == Status.RUNNING and job.lease_until is not None and job.lease_until < now
    if job.attempts >= settings.ENGINE_MAX_ATTEMPTS or (
            job.status not in (Status.QUEUED, Status.SENT) and not lapsed):
        return None
    job.status, job.started_at, job.attempts = Status.RUNNING, now, job.attempts + 1
    job.lease_until = now + timedelta(seconds=lease_seconds(job))
    job.save(update_fields=["status", "started_at", "attempts", "lease_until"])
    metrics.engine_job_state(job.lane, Status.RUNNING)
    return job


def job_finish(job_id: int, status: str = Status.DONE, error: str = "", lane: str | None = None) -> bool:
    """Close a live job (inside the caller's transaction); False if it was closed already.
    `lane`, when the caller has the job at hand, spares reading it for the metrics."""
    return _finish(job_id, status, error, lane)


def _finish(job_id: int, status: str, error: str, lane: str | None = None, counted_as: str | None = None) -> bool:
    closed = bool(EngineJob.objects.filter(pk=job_id, status__in=EngineJob.LIVE).update(
        status=status, last_error=error[:2000], lease_until=None, finished_at=timezone.now()))
    if closed:
        lane = lane or EngineJob.objects.filter(pk=job_id).values_list("lane", flat=True).first()
        metrics.engine_job_state(lane, counted_as or status)
    return closed


@transaction.atomic
def job_requeue(job_id: int, error: str = "", *, expired_before=None, lane: str | None = None) -> bool:
    """Back in the queue (a worker failed or lost it); `expired_before`: only if its lease ran out
    by then (the sweep)."""
    live = EngineJob.objects.filter(pk=job_id, status__in=EngineJob.IN_FLIGHT)
    if expired_before is not None:
        live = live.filter(lease_until__lt=expired_before)
    requeued = bool(live.update(status=Status.QUEUED, sent_at=None, lease_until=None, last_error=error[:2000]))
    if requeued:
        lane = lane or EngineJob.objects.filter(pk=job_id).values_list("lane", flat=True).first()
        metrics.engine_job_state(lane, Status.QUEUED)
    return requeued
