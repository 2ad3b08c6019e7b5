"""Celery tasks observed through Celery's public signals: the request id of whatever sent a task
travels in the message's headers and is current while the task runs; each task ends with one log
line (name, id, request id, duration, outcome) and a sample in the task-duration histogram.

A worker's own exposition (PEARLSITE_WORKER_METRICS_PORT) serves the counts of all its pool
processes from PROMETHEUS_MULTIPROC_DIR, for a worker that shares no folder with the web.
"""
from __future__ import annotations

import logging
import os
import time

from celery.signals import (
    before_task_publish,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_shutdown,
)
from django.conf import settings

from . import metrics, request_ids

log = logging.getLogger("pearlsite.tasks")
HEADER = "pearlsite_request_id"
# task id -> (monotonic start, the request-id token to reset); a pool process runs one task at a time
# (threads: one per task), so entries never outlive their task.
_running: dict[str, tuple[float, object]] = {}


@before_task_publish.connect
def _send_request_id(sender=None, headers=None, **_):
    request_id = request_ids.current()
    if headers is not None and request_id and HEADER not in headers:
        headers[HEADER] = request_id


def _request_id_of(task) -> str:
    """The sender's id from the message; an eager task keeps the current one; else a new one."""
    sent = getattr(task.request, HEADER, None)
    if sent is None and isinstance(getattr(task.request, "headers", None), dict):
        sent = task.request.headers.get(HEADER)
    return request_ids.accepted(sent or request_ids.current())


@task_prerun.connect
def _task_started(task_id=None, task=None, **_):
    token = request_ids.bind(_request_id_of(task))
    _running[task_id] = (time.monotonic(), token)


@task_postrun.connect
def _task_finished(task_id=None, task=None, state=None, **_):
    started, token = _running.pop(task_id, (None, None))
    if started is None:
        return
    seconds = time.monotonic() - started
    outcome = (state or "unknown").lower()
    metrics.task_finished(task.name, outcome, seconds)
    log.info("task %s %s", task.name, outcome, extra={
        "task": task.name, "task_id": task_id, "request_id": request_ids.current(), "outcome": outcome,
        "duration_ms": round(seconds * 1000, 2)})
    request_ids.unbind(token)


@worker_init.connect
def _serve_worker_metrics(**_):
    port = settings.WORKER_METRICS_PORT
    if port:
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(port, addr=settings.WORKER_METRICS_ADDR, registry=registry)


@worker_process_shutdown.connect
def _pool_process_gone(pid=None, **_):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())
