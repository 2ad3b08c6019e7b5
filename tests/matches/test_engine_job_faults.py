"""Faults against real processes: a private `redis-server` (started here, on a free port) and real
`celery worker` processes on PostgreSQL. The broker goes down during a move; a whole worker is
killed mid-search; one user floods the analysis lane and the reply lane. Each test prints what it
measured (`pytest -s` shows it). Skipped without PostgreSQL or a `redis-server` binary."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from kombu import pools as kombu_pools

from matches.models import EngineJob, Match
from matches.services import dispatch, jobs
from tests.processes import RedisServer

from .helpers import play, start_match

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


class Worker:
    """`celery worker` (solo pool: the process that searches is the worker) on the test database."""

    def __init__(self, broker: str, queues: str, name: str, tmp: Path, **env: str):
        db = connection.settings_dict
        url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "-Q", queues, "--pool", "solo",
             "--hostname", f"{name}-{os.getpid()}@%h", "--loglevel", "INFO", "--without-mingle",
             "--without-gossip"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": broker, "PYTHONUNBUFFERED": "1",
                 "PEARLSITE_VAR_DIR": str(tmp), **env})
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()
        _wait(lambda: any(" ready." in line for line in self.lines) or self.proc.poll() is not None, 60,
              "the worker did not start")
        assert self.proc.poll() is None, "".join(self.lines)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def _wait(condition, seconds: float, message: str, every: float = 0.02, between=None):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        if between is not None:
            between()
        time.sleep(every)


@pytest.fixture
def services(tmp_path, settings):
    """A private redis-server, this process's Celery app pointed at it, and workers to start."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    from pearlsite.celery import app

    server = RedisServer(tmp_path)
    server.start()
    saved = (app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER)
    _point_celery(app, server.url, eager=False)
    started: list[Worker] = []

    def worker(queues: str = "ai-move", name: str = "replies", **env) -> Worker:
        started.append(Worker(server.url, queues, name, tmp_path, **env))
        return started[-1]

    try:
        yield server, worker
    finally:
        for w in started:
            w.stop()
        server.stop()
        _point_celery(app, *saved)


def _point_celery(app, url: str, eager: bool) -> None:
    kombu_pools.reset()             # closes and forgets every pooled connection, then
    app._after_fork()               # the app builds new pools for the new URL
    app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER = url, eager
    dispatch._send_paused_until = 0.0


def _ply(match_id: int) -> int:
    return Match.objects.get(pk=match_id).ply


def test_a_move_made_while_the_broker_is_down_gets_its_reply_once_it_is_back(services, as_alice):
    server, worker = services
    worker()
    match_id = start_match(as_alice, opponents=["ai:random"])
    server.stop()
    started = time.monotonic()
    play(as_alice, match_id, "e1-e5", ply=0)                            # 201 all the same
    request_seconds = time.monotonic() - started
    job = EngineJob.objects.get(match_id=match_id)
    assert job.status == EngineJob.Status.QUEUED and job.last_error.startswith("not sent")
    server.start()
    back = time.monotonic()
    _wait(lambda: _ply(match_id) == 2, 60, "no reply within 60 s of the broker's return", every=0.5,
          between=jobs.sweep)                                            # beat's sweep, every 0.5 s here
    recovery = time.monotonic() - back
    print(f"\nbroker down: move answered in {request_seconds:.2f} s; reply {recovery:.2f} s after the broker returned")
    assert request_seconds < 2.0
    assert EngineJob.objects.get(pk=job.pk).status == EngineJob.Status.DONE


def test_a_worker_killed_mid_search_is_replaced_and_the_reply_comes_within_the_lease(services, as_alice, settings):
    server, worker = services
    settings.AI_TIME_SCALE = 1.0                                         # ai:strong thinks 3 s
    first = worker()
    match_id = start_match(as_alice, opponents=["ai:strong"])
    play(as_alice, match_id, "e1-e5", ply=0)
    _wait(lambda: EngineJob.objects.get(match_id=match_id).status == EngineJob.Status.RUNNING, 30,
          "the worker did not take the job")
    first.kill()                                                         # SIGKILL mid-search
    killed = time.monotonic()
    job = EngineJob.objects.get(match_id=match_id)
    assert job.attempts == 1 and _ply(match_id) == 1
    worker(name="replies-again")
    restarted = time.monotonic()
    assert jobs.sweep()["requeued"] == 0                                 # its lease still runs
    with time_machine.travel(job.lease_until + timedelta(seconds=1)):   # the next sweep after the lease
        assert jobs.sweep() == {"requeued": 1, "given_up": 0, "sent": 1}
    _wait(lambda: _ply(match_id) == 2, 30, "no reply from the new worker")
    done = time.monotonic()
    job.refresh_from_db()
    lease = dispatch.lease_seconds(job)
    print(f"\nworker killed: new worker up {restarted - killed:.2f} s after the kill, reply {done - restarted:.2f} s "
          f"after it (lease {lease:.0f} s: worst case ~{lease + settings.ENGINE_SWEEP_SECONDS:.0f} s after the kill)")
    assert (job.status, job.attempts) == (EngineJob.Status.DONE, 2)
    assert done - killed < lease


def test_floods_of_analyses_and_of_one_users_games_do_not_delay_another_users_reply(
        services, as_alice, as_bob, as_carol, settings):
    server, worker = services
    settings.AI_TIME_SCALE = 1.0                                         # ai:medium thinks 1 s
    settings.ANALYSIS_SECONDS_PER_PLY = 0.5
    settings.MAX_PENDING_ANALYSES = 0
    # A share of one job in flight per user, as the (solo) reply worker runs one at a time: at most
    # one of alice's jobs is ever ahead of carol's at the broker.
    settings.ENGINE_INFLIGHT_PER_USER = 1
    worker(PEARLSITE_ENGINE_INFLIGHT_PER_USER="1")
    worker("analysis-user,analysis-system", name="analyses")
    finished = []
    for _ in range(5):
        match_id = start_match(as_alice, as_bob)
        play(as_alice, match_id, "e1-e5", ply=0)
        play(as_bob, match_id, "a9-a8", ply=1)
        as_bob.post(f"/api/v1/matches/{match_id}/resign/")
        finished.append(match_id)
    for match_id in finished:                                            # 15 analyses, ~1 s each
        for level in ("easy", "medium", "strong"):
            assert as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {"level": level},
                                 format="json").status_code == 202
    flood = [start_match(as_alice, opponents=["ai:medium"]) for _ in range(8)]
    for match_id in flood:                                               # 8 replies of ~1 s each
        play(as_alice, match_id, "e1-e5", ply=0)
    assert EngineJob.objects.filter(user__username="alice", kind="reply", status="queued").count() >= 5
    theirs = start_match(as_carol, opponents=["ai:easy"])
    started = time.monotonic()
    play(as_carol, theirs, "e1-e5", ply=0)
    _wait(lambda: _ply(theirs) == 2, 30, "no reply for carol")
    waited = time.monotonic() - started
    analyses_left = EngineJob.objects.filter(kind="analysis", status__in=EngineJob.LIVE).count()
    alice_left = EngineJob.objects.filter(user__username="alice", kind="reply", status__in=EngineJob.LIVE).count()
    print(f"\nflood: carol's ai:easy reply in {waited:.2f} s with {analyses_left} analyses and "
          f"{alice_left} of alice's replies still waiting")
    assert analyses_left >= 5 and alice_left >= 3
    assert waited < 3.0                                                  # at most ~one job of alice's
