"""Engine work leaves the request path here: after commit, a job (plain data) is sent to the
workers by task name, so this app never imports the worker package."""
from __future__ import annotations

import logging
from typing import Sequence

from celery import current_app
from django.db import transaction

from matches.models import Analysis, Match, MatchSeat
from matches.selectors import engine_jobs

log = logging.getLogger(__name__)

REPLY_TASK = "ai_workers.tasks.engine_reply"
ANALYSIS_TASK = "ai_workers.tasks.engine_analysis"
REPLY_QUEUE = "ai-move"
USER_ANALYSIS_QUEUE, SYSTEM_ANALYSIS_QUEUE = "analysis-user", "analysis-system"


def engine_to_move(match: Match, seats: Sequence[MatchSeat]) -> bool:
    return (match.status == Match.Status.ACTIVE and match.to_move is not None
            and bool(seats[match.to_move].ai_level))


def schedule_reply(match: Match, seats: Sequence[MatchSeat]) -> None:
    """If an engine holds the seat to move, send it the position once this transaction commits."""
    if engine_to_move(match, seats):
        job = engine_jobs.reply_job(match, seats)
        transaction.on_commit(lambda: _send(REPLY_TASK, job.to_dict(), REPLY_QUEUE))


def schedule_analyses(analyses: Sequence[Analysis], queue: str = USER_ANALYSIS_QUEUE) -> None:
    jobs = [engine_jobs.analysis_job(a).to_dict() for a in analyses]
    transaction.on_commit(lambda: [_send(ANALYSIS_TASK, job, queue) for job in jobs])


def _send(task_name: str, payload: dict, queue: str) -> None:
    # A signature by name runs in-process when the task is registered here and tasks are eager
    # (tests), and otherwise goes to the broker.
    current_app.signature(task_name, args=(payload,)).apply_async(queue=queue)
