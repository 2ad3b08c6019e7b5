"""GET /metrics: hidden without its token; parsed with prometheus_client's own parser, its figures
move as a player registers, challenges an engine, moves, gets the engine's reply and an analysis;
rate-limit refusals, streams, sweeps and lease expiries are counted."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from matches.models import EngineJob, Match
from matches.services import jobs
from pearlsite import metrics

from .helpers import start_match

pytestmark = pytest.mark.django_db
TOKEN = "metrics-token-for-the-tests-0123456789"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN


def scrape(client) -> dict[tuple, float]:
    """Every sample as {(name, sorted label pairs): value}."""
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.content.decode()) for s in family.samples}


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_the_endpoint_is_hidden_without_its_token(anon, settings):
    assert anon.get("/metrics").status_code == 404
    assert anon.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong-token-of-some-length").status_code == 404
    assert anon.get("/metrics", HTTP_AUTHORIZATION=f"Token {TOKEN}").status_code == 404
    assert anon.post("/metrics").status_code == 404
    assert anon.post("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 405
    settings.METRICS_TOKEN = ""
    assert anon.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    assert anon.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 404


def test_scraped_over_plain_http_inside_the_network(anon, settings):
    """Production redirects plain HTTP to HTTPS; the scrape, on the private network, is exempt."""
    settings.SECURE_SSL_REDIRECT = True
    assert anon.get("/api/v1/games/").status_code == 301
    assert anon.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


def test_a_walkthrough_moves_the_figures(anon, client_for, django_user_model, django_capture_on_commit_callbacks):
    before = scrape(anon)
    registered = anon.post("/api/v1/accounts/", {"username": "erin", "password": "a-long-pass-phrase"}, format="json")
    assert registered.status_code == 201
    erin = client_for(django_user_model.objects.get(username="erin"))
    with django_capture_on_commit_callbacks(execute=True):
        match_id = start_match(erin, opponents=["ai:random"])
    with django_capture_on_commit_callbacks(execute=True):
        moved = erin.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json")
    assert moved.status_code == 201 and Match.objects.get(pk=match_id).ply == 2     # the engine replied
    erin.post(f"/api/v1/matches/{match_id}/resign/")
    with django_capture_on_commit_callbacks(execute=True):
        analysed = erin.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "easy"}, format="json")
    assert analysed.status_code == 202
    after = scrape(anon)

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels) == 1

    latency = "pearlsite_http_request_duration_seconds_count"
    assert grew(latency, route="api/v1/accounts/", method="POST", status="201")
    assert grew(latency, route="api/v1/matches/<id:pk>/moves/", method="POST", status="201")
    assert grew("pearlsite_moves_total", game="hasami-shogi", by="human")
    assert grew("pearlsite_moves_total", game="hasami-shogi", by="engine")
    for state in ("queued", "sent", "running", "done"):
        assert grew("pearlsite_engine_jobs_total", lane="ai-move", state=state), state
        assert grew("pearlsite_engine_jobs_total", lane="analysis-user", state=state), state
    assert grew("pearlsite_celery_task_duration_seconds_count", task="ai_workers.tasks.engine_reply",
                outcome="success")
    assert value(after, "pearlsite_engine_job_oldest_unsent_seconds") == 0.0
    # The raw path (with its match id) never becomes a label.
    assert not any(f"/{match_id}/" in dict(labels).get("route", "") for _, labels in after)


def test_the_oldest_unsent_job_is_read_at_scrape_time(anon, alice):
    match_id = start_match(_client(alice), opponents=["ai:random"], seat=1)    # the engine moves first
    assert EngineJob.objects.filter(match_id=match_id, status="queued").exists()  # no commit: not sent
    EngineJob.objects.filter(match_id=match_id).update(created_at=timezone.now() - timedelta(minutes=10))
    samples = scrape(anon)
    assert 600 <= value(samples, "pearlsite_engine_job_oldest_unsent_seconds") < 660
    assert value(samples, "pearlsite_engine_jobs_live", lane="ai-move", state="queued") == 1


def _client(user):
    from tests.conftest import _client_for

    return _client_for(user)


def test_throttle_refusals_are_counted_by_scope(anon, settings):
    from django.core.cache import cache

    cache.clear()                   # the per-process rate counters: no earlier test's log-ins count
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "login": "1/min"}}
    before = scrape(anon)
    statuses = [anon.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json").status_code
                for _ in range(3)]
    assert statuses.count(429) == 2
    after = scrape(anon)
    assert value(after, "pearlsite_throttle_refusals_total", scope="login") - \
        value(before, "pearlsite_throttle_refusals_total", scope="login") == 2


def test_an_open_stream_is_counted_until_it_closes(anon, as_alice):
    before = value(scrape(anon), "pearlsite_event_streams_open")
    response = as_alice.get("/api/v1/events/stream/")
    chunks = iter(response.streaming_content)
    next(chunks)
    assert value(scrape(anon), "pearlsite_event_streams_open") == before + 1
    list(chunks)          # the stream ends (the test client then closes the response)
    assert value(scrape(anon), "pearlsite_event_streams_open") == before


def test_sweeps_and_lost_leases_are_counted(anon, alice):
    match_id = start_match(_client(alice), opponents=["ai:random"], seat=1)
    EngineJob.objects.filter(match_id=match_id).update(
        status="sent", lease_until=timezone.now() - timedelta(seconds=1))
    before = scrape(anon)
    jobs.sweep()
    after = scrape(anon)
    assert value(after, "pearlsite_engine_sweeps_total") - value(before, "pearlsite_engine_sweeps_total") == 1
    assert value(after, "pearlsite_engine_lease_expiries_total") - \
        value(before, "pearlsite_engine_lease_expiries_total") == 1


def test_notifications_are_counted_by_channel_and_outcome(anon):
    before = scrape(anon)
    metrics.notification_sent("email", True)
    metrics.notification_sent("webhook", False)
    after = scrape(anon)
    assert value(after, "pearlsite_notifications_total", channel="email", outcome="sent") - \
        value(before, "pearlsite_notifications_total", channel="email", outcome="sent") == 1
    assert value(after, "pearlsite_notifications_total", channel="webhook", outcome="failed") - \
        value(before, "pearlsite_notifications_total", channel="webhook", outcome="failed") == 1
    with pytest.raises(ValueError):
        metrics.notification_sent("pigeon", True)


COUNT_MOVES = textwrap.dedent("""
    from pearlsite import metrics
    for _ in range({n}):
        metrics.move_made("hasami-shogi", metrics.HUMAN)
""")
SCRAPE = textwrap.dedent("""
    import django
    django.setup()
    from prometheus_client import generate_latest
    from pearlsite.metrics_view import process_registry
    print(generate_latest(process_registry()).decode())
""")


def test_processes_sharing_a_multiprocess_folder_are_added_up(tmp_path):
    """As gunicorn's workers do: each process counts in its own file; a scrape adds them up."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
           "DJANGO_SETTINGS_MODULE": "pearlsite.settings_test", "PYTHONPATH": str(ROOT)}
    for n in (3, 4):
        subprocess.run([sys.executable, "-c", COUNT_MOVES.format(n=n)], env=env, check=True, cwd=ROOT)
    out = subprocess.run([sys.executable, "-c", SCRAPE], env=env, check=True, cwd=ROOT,
                         capture_output=True, text=True).stdout
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(out) for s in family.samples}
    assert value(samples, "pearlsite_moves_total", game="hasami-shogi", by="human") == 7


@pytest.fixture
def worker_with_metrics(tmp_path):
    """A real prefork worker (two pool processes) serving its pool's metrics on a port."""
    from django.conf import settings as django_settings

    from pearlsite.celery import app

    from .test_concurrency_and_worker import _needs_postgres, _worker_env

    if not django_settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("needs Redis (set REDIS_URL=redis://...)")
    _needs_postgres()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app.control.purge()
    env = {**_worker_env(), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "worker-metrics"),
           "PEARLSITE_WORKER_METRICS_PORT": str(port)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "-Q", "ai-move", "--pool", "prefork",
         "--concurrency", "2", "--hostname", f"metrics-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            assert proc.poll() is None and time.monotonic() < deadline, "the worker did not start"
        yield f"http://127.0.0.1:{port}/metrics"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_serves_its_pools_counts(as_alice, worker_with_metrics):
    """Engine replies computed in the pool processes show on the worker's own port."""
    match_ids = [start_match(as_alice, opponents=["ai:random"]) for _ in range(3)]
    for match_id in match_ids:
        as_alice.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json")
    deadline = time.monotonic() + 60
    while Match.objects.filter(pk__in=match_ids, ply=2).count() < 3:
        assert time.monotonic() < deadline, "no engine replies within 60 s"
        time.sleep(0.1)
    with urllib.request.urlopen(worker_with_metrics, timeout=10) as response:
        text = response.read().decode()
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    assert value(samples, "pearlsite_moves_total", game="hasami-shogi", by="engine") == 3
    assert value(samples, "pearlsite_engine_jobs_total", lane="ai-move", state="done") == 3
    assert value(samples, "pearlsite_celery_task_duration_seconds_count", task="ai_workers.tasks.engine_reply",
                 outcome="success") == 3
