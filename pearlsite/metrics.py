"""Every Prometheus metric the server keeps, and the small functions the code counts through
(docs/operations.md §Metrics says what each means and which alerts to set on it).

Several processes count: gunicorn's workers and Celery's pool. With PROMETHEUS_MULTIPROC_DIR set
(before this module is imported), each process writes its values to files in that folder and a
scrape adds them up (pearlsite/metrics_view.py); without it (development, tests) the process keeps
them in memory. Values computed from the database at scrape time (the oldest unsent engine job)
are not here: the scrape reads them (metrics_view.DatabaseCollector).
"""
from __future__ import annotations

import os

# The folder must exist before the first value is made (at import, for metrics without labels).
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

from prometheus_client import Counter, Gauge, Histogram  # noqa: E402

http_request_duration = Histogram(
    "pearlsite_http_request_duration_seconds",
    "Time from a request's arrival to its response, by URL pattern (never the raw path), method and status.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
moves = Counter("pearlsite_moves", "Moves recorded, by game and by whom (human or engine).", ["game", "by"])
engine_jobs = Counter(
    "pearlsite_engine_jobs",
    "Engine jobs entering a state (queued: new or taken back; sent; running; done; failed; cancelled: "
    "moot before it ran, the match moved on), by lane.",
    ["lane", "state"])
engine_lease_expiries = Counter(
    "pearlsite_engine_lease_expiries", "Engine jobs whose worker lease ran out (found by the sweep).")
engine_sweeps = Counter("pearlsite_engine_sweeps", "Runs of the engine-job sweep.")
throttle_refusals = Counter(
    "pearlsite_throttle_refusals", "Requests refused (429) by a rate limit, by its scope.", ["scope"])
event_streams_open = Gauge(
    "pearlsite_event_streams_open", "Server-Sent Event streams open now (in live processes).",
    multiprocess_mode="livesum")
notifications = Counter(
    "pearlsite_notifications", "Notifications handed on, by channel (email, webhook) and outcome (sent, failed).",
    ["channel", "outcome"])
task_duration = Histogram(
    "pearlsite_celery_task_duration_seconds", "Time a Celery task ran, by task name and outcome.",
    ["task", "outcome"], buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0))

HUMAN, ENGINE = "human", "engine"
CANCELLED = "cancelled"      # an engine job closed as failed because its work became moot
NOTIFICATION_CHANNELS = ("email", "webhook")


def request_finished(route: str, method: str, status: int, seconds: float) -> None:
    http_request_duration.labels(route=route, method=method, status=str(status)).observe(seconds)


def move_made(game: str, by: str) -> None:
    """One move recorded: `by` is HUMAN or ENGINE."""
    moves.labels(game=game, by=by).inc()


def engine_job_state(lane: str, state: str, count: int = 1) -> None:
    """`count` engine jobs of `lane` entered `state`."""
    if count:
        engine_jobs.labels(lane=lane, state=state).inc(count)


def lease_expired() -> None:
    engine_lease_expiries.inc()


def sweep_ran() -> None:
    engine_sweeps.inc()


def throttle_checked(scope: str, allowed: bool) -> None:
    """A rate limit of `scope` answered; refusals are counted."""
    if not allowed:
        throttle_refusals.labels(scope=scope).inc()


def stream_opened() -> None:
    event_streams_open.inc()


def stream_closed() -> None:
    event_streams_open.dec()


def notification_sent(channel: str, ok: bool) -> None:
    """One attempt to send a notification on `channel` (email or webhook) succeeded (`ok`) or failed."""
    if channel not in NOTIFICATION_CHANNELS:
        raise ValueError(f"unknown notification channel {channel!r}")
    notifications.labels(channel=channel, outcome="sent" if ok else "failed").inc()


def task_finished(task: str, outcome: str, seconds: float) -> None:
    task_duration.labels(task=task, outcome=outcome).observe(seconds)
