"""`/healthz` and `/readyz`: no authentication, no throttle, no host or HTTPS checks; /readyz
follows each dependency down and up (a private redis-server as Redis and broker, the migration
record, a stuck outbox)."""
import shutil
from datetime import timedelta

import pytest
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from matches.models import EngineJob
from pearlsite import health
from tests.processes import RedisServer

from .helpers import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_redis(settings):
    settings.REDIS_URL = ""


def test_healthz_answers_without_the_database_hosts_https_or_throttles(client, settings, django_assert_num_queries):
    settings.SECURE_SSL_REDIRECT = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        scope: "1/min" for scope in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
    with django_assert_num_queries(0):
        for _ in range(3):
            response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
            assert response.status_code == 200 and response.json() == {"status": "alive"}
    assert response["Cache-Control"] == "no-store"


def test_readyz_is_ready_with_every_check_named(client, no_redis):
    response = client.get("/readyz", HTTP_HOST="10.1.2.3")
    assert response.status_code == 200, response.json()
    assert response.json() == {"status": "ready", "down": [], "checks": {
        "database": "ok", "migrations": "ok", "redis": "not configured", "broker": "ok", "outbox": "ok"}}


def test_unapplied_migrations_make_it_not_ready(client, no_redis, monkeypatch):
    monkeypatch.setattr(health, "_migrations_applied", False)
    recorder = MigrationRecorder(__import__("django.db", fromlist=["connection"]).connection)
    # A migration nothing depends on (a leaf), so the history stays consistent without it.
    app, name = sorted(MigrationLoader(recorder.connection).graph.leaf_nodes())[0]
    recorder.record_unapplied(app, name)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == "unapplied" and response.json()["down"] == ["migrations"]
    recorder.record_applied(app, name)
    assert client.get("/readyz").status_code == 200


def test_a_stuck_outbox_makes_it_not_ready(client, no_redis, settings, as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    job = EngineJob.objects.create(kind=EngineJob.Kind.REPLY, lane=EngineJob.Lane.REPLY, match_id=match_id,
                                   ply=0, level="random")
    assert client.get("/readyz").status_code == 200                     # queued just now: moving
    EngineJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.READY_OUTBOX_SECONDS + 1))
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["checks"]["outbox"] == "stuck"
    EngineJob.objects.filter(pk=job.pk).update(status=EngineJob.Status.SENT)
    assert client.get("/readyz").status_code == 200


@pytest.fixture
def private_redis(tmp_path, settings):
    """A private redis-server as Redis and broker, stopped and started by the test."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    from pearlsite.celery import app

    server = RedisServer(tmp_path)
    server.start()
    saved = app.conf.CELERY_BROKER_URL
    # The readiness check opens a connection of its own from the configured URL (no pool).
    settings.REDIS_URL = app.conf.CELERY_BROKER_URL = server.url
    try:
        yield server
    finally:
        server.stop()
        app.conf.CELERY_BROKER_URL = saved


def test_readyz_follows_redis_and_the_broker_down_and_up(client, private_redis, settings):
    assert client.get("/readyz").json()["checks"]["redis"] == "ok"
    assert client.get("/readyz").status_code == 200
    private_redis.stop()
    down = client.get("/readyz")
    assert down.status_code == 503
    assert down.json()["down"] == ["redis", "broker"] and down.json()["status"] == "not ready"
    assert "127.0.0.1" not in down.content.decode()                     # no addresses, no errors
    settings.READY_OPTIONAL = ["redis", "broker"]
    optional = client.get("/readyz")
    assert optional.status_code == 200 and optional.json()["down"] == ["redis", "broker"]
    settings.READY_OPTIONAL = []
    private_redis.start()
    up = client.get("/readyz")
    assert up.status_code == 200 and up.json()["down"] == []


def test_compose_checks_health_and_keeps_the_broker_across_restarts():
    import yaml

    from tests.processes import ROOT

    services = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    for web in ("web1", "web2"):                # two web nodes behind the proxy (docs/scaling.md §7)
        assert "/readyz" in " ".join(services[web]["healthcheck"]["test"])
        assert services["proxy"]["depends_on"][web]["condition"] == "service_healthy"
    for worker in ("worker", "analysis"):
        assert "inspect ping" in " ".join(services[worker]["healthcheck"]["test"])
    assert services["redis"]["command"][:3] == ["redis-server", "--appendonly", "yes"]
    assert services["redis"]["volumes"] == ["redisdata:/data"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_readyz_follows_the_database_down_and_up(client, no_redis):
    from django.db import connection

    from tests.processes import free_port

    if connection.vendor != "postgresql":
        pytest.skip("the SQLite test database lives in memory: its connection never closes")
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict["PORT"] = free_port()                      # nothing listens there
    try:
        down = client.get("/readyz")
        assert down.status_code == 503
        # What needs the database is down or unknown; the broker is another test's business here
        # (earlier fault tests point this process's Celery app at servers they have stopped).
        assert {"database", "migrations", "outbox"} <= set(down.json()["down"])
        checks = down.json()["checks"]
        assert (checks["database"], checks["migrations"], checks["redis"], checks["outbox"]) == (
            "down", "unknown", "not configured", "unknown")
        assert client.get("/healthz").status_code == 200                # alive all the same
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert client.get("/readyz").status_code == 200
