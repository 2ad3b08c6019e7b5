"""Against the real services: PostgreSQL row locks under concurrent submissions, and a real Celery
worker (Redis broker) computing an engine reply off the request path. CI runs both; on the default
SQLite/filesystem set-up they are skipped."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from matches.services import play as play_service
from matches.errors import ServiceError
from matches.models import Match

from .helpers import play, start_match

ROOT = Path(__file__).resolve().parents[2]


def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")


def _race(callables):
    """Run the callables at the same instant on separate threads (each with its own connection)."""
    barrier = threading.Barrier(len(callables))
    results = [None] * len(callables)

    def run(i, fn):
        barrier.wait()
        try:
            results[i] = fn()
        except ServiceError as exc:
            results[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(callables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_submissions_of_one_ply_exactly_one_wins(as_alice, as_bob, alice):
    _needs_postgres()
    for attempt in range(5):
        match_id = start_match(as_alice, as_bob)
        results = _race([
            lambda m=match_id: play_service.move_submit(match_id=m, user=alice, move="e1-e5", ply=0) and "ok",
            lambda m=match_id: play_service.move_submit(match_id=m, user=alice, move="d1-d5", ply=0) and "ok",
        ])
        assert sorted(results) == ["ok", "stale_ply"], results
        match = Match.objects.get(pk=match_id)
        assert match.ply == 1 and match.moves.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_many_concurrent_requests_keep_the_record_consistent(as_alice, as_bob, alice, bob):
    _needs_postgres()
    match_id = start_match(as_alice, as_bob)
    moves = [(alice, "e1-e5"), (bob, "a9-a8"), (alice, "d1-d4"), (bob, "b9-b7")]
    for ply, (user, move) in enumerate(moves):
        racers = [lambda u=user, mv=move, p=ply: play_service.move_submit(match_id=match_id, user=u, move=mv,
                                                                          ply=p).record.pk
                  for _ in range(4)]
        recorded = _race(racers)
        # One submission records the move; the three identical ones are answered that move (a replay).
        assert len(set(recorded)) == 1 and isinstance(recorded[0], int), recorded
    match = Match.objects.get(pk=match_id)
    assert list(match.moves.values_list("notation", flat=True)) == [m for _, m in moves]


def _worker_env() -> dict:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "PEARLSITE_AI_TIME_SCALE": "0.1", "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def celery_worker_process():
    """A real `celery worker` in a subprocess, on the ai-move queue of the Redis broker."""
    from pearlsite.celery import app

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("needs Redis (set REDIS_URL=redis://...)")
    _needs_postgres()
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app.control.purge()
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "-Q", "ai-move,analysis-user",
         "--pool", "solo", "--loglevel", "INFO", "--hostname", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=_worker_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            assert proc.poll() is None, proc.stdout.read()
            assert time.monotonic() < deadline, "the worker did not start"
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_replies_off_the_request_path(as_alice, celery_worker_process):
    match_id = start_match(as_alice, opponents=["ai:medium"])
    started = time.monotonic()
    body = play(as_alice, match_id, "e1-e5", ply=0)
    request_seconds = time.monotonic() - started
    assert body["match"]["ply"] == 1 and body["match"]["to_move"] == 1     # not waited for
    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match_id).ply < 2:
        assert time.monotonic() < deadline, "no engine reply within 60 s"
        time.sleep(0.1)
    match = Match.objects.get(pk=match_id)
    assert match.to_move == 0 and match.moves.get(ply=2).seat == 1
    detail = as_alice.get(f"/api/v1/matches/{match_id}/").json()
    assert detail["ply"] == 2 and detail["legal_moves"]
    assert request_seconds < 2.0


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_redelivered_task_is_not_applied_twice(as_alice, celery_worker_process):
    from ai_workers.tasks import engine_reply
    from matches.selectors.engine_jobs import reply_job

    match_id = start_match(as_alice, opponents=["ai:random"])
    play(as_alice, match_id, "e1-e5", ply=0)
    for _ in range(3):                          # duplicates of the task for the same ply
        match = Match.objects.get(pk=match_id)
        engine_reply.delay(reply_job(match, list(match.seats.order_by("seat"))).to_dict())
    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match_id).ply < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(1.0)                              # let the duplicates run
    assert Match.objects.get(pk=match_id).ply == 2


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_answers_a_board_position(as_alice, celery_worker_process):
    """The analysis board off the request path: the job goes to the analysis-user queue, the
    worker writes the lines, the requester is told."""
    asked = as_alice.post("/api/v1/positions/", {"game": "hasami-shogi", "moves": ["e1-e5"], "level": "easy",
                                                 "lines": 3}, format="json")
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    url = f"/api/v1/positions/{asked.json()['id']}/"
    deadline = time.monotonic() + 60
    while (done := as_alice.get(url).json())["status"] != "done":
        assert done["status"] != "failed" and time.monotonic() < deadline, done
        time.sleep(0.1)
    assert len(done["lines"]) == 3 and done["seat"] == 1 and done["value"] == done["lines"][0]["value"]
    events = as_alice.get("/api/v1/events/").json()["results"]
    assert {"position": done["id"], "status": "done"} in [e["payload"] for e in events if e["kind"] == "position_done"]
