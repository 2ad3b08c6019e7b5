"""`/healthz` and `/readyz` for load balancers, orchestrators and the compose healthchecks
(docs/operations.md, "Health").

- `GET /healthz`: the process answers (no database, nothing else): 200 `{"status": "alive"}`.
- `GET /readyz`: each dependency checked now: the database answers, its migrations are applied,
  Redis answers (when REDIS_URL is set), the Celery broker accepts a connection, and the engine
  outbox is moving (its oldest queued engine reply is younger than `PEARLSITE_READY_OUTBOX_SECONDS`).
  200 when every check is `ok` (or named in `PEARLSITE_READY_OPTIONAL`), else 503; the body names
  each check's state and lists what is down, with no error text (it could hold a host or password).

Both are answered by the first middleware, before host validation, HTTPS redirects, sessions,
authentication and throttles: a balancer probes over plain HTTP with an address for a host name,
and a probe must never spend a client's budget."""
from __future__ import annotations

import io
import logging
from datetime import timedelta
from pathlib import Path

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.db.migrations.exceptions import InconsistentMigrationHistory
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from matches import redis_link
from matches.models import EngineJob

from .middleware import SyncAndAsyncMiddleware

log = logging.getLogger(__name__)
CHECKS = ("database", "migrations", "redis", "broker", "outbox")
OK, DOWN, UNKNOWN, NOT_CONFIGURED = "ok", "down", "unknown", "not configured"
_migrations_applied = False       # once true in a process it stays true: checked until then


def alive() -> dict:
    return {"status": "alive"}


def readiness() -> tuple[bool, dict]:
    """Whether the process is ready, and the body saying why."""
    checks = {"database": _database(), "redis": _redis(), "broker": _broker()}
    database_up = checks["database"] == OK
    checks["migrations"] = _migrations() if database_up else UNKNOWN
    checks["outbox"] = _outbox() if database_up else UNKNOWN
    down = [name for name in CHECKS if checks[name] not in (OK, NOT_CONFIGURED)]
    ready = not [name for name in down if name not in settings.READY_OPTIONAL]
    return ready, {"status": "ready" if ready else "not ready", "checks": {n: checks[n] for n in CHECKS},
                   "down": down}


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return OK
    except DatabaseError:
        log.warning("readiness: the database does not answer", exc_info=True)
        connection.close_if_unusable_or_obsolete()
        return DOWN


def _migrations() -> str:
    global _migrations_applied
    if not _migrations_applied:
        try:
            call_command("migrate", check_unapplied=True, verbosity=0, stdout=io.StringIO())
        except SystemExit:                  # what `migrate --check` does when some are unapplied
            return "unapplied"
        except InconsistentMigrationHistory:  # applied out of order: not a schema to serve from
            log.warning("readiness: the migration history is inconsistent", exc_info=True)
            return "unapplied"
        _migrations_applied = True
    return OK


def _redis() -> str:
    if not settings.REDIS_URL:
        return NOT_CONFIGURED
    return OK if redis_link.ping() else DOWN


def _broker() -> str:
    from pearlsite.celery import app

    url = app.conf.broker_url or ""
    if url.startswith("filesystem://"):
        folder = app.conf.broker_transport_options.get("data_folder_in", "")
        return OK if Path(folder).is_dir() else DOWN
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, interval_max=0,
                                   timeout=settings.REDIS_TIMEOUT * 4)
        return OK
    except Exception:     # noqa: BLE001 — whatever the transport raises, the broker is not there
        log.warning("readiness: the broker does not answer", exc_info=True)
        return DOWN


def _outbox() -> str:
    oldest = (EngineJob.objects.filter(kind=EngineJob.Kind.REPLY, status=EngineJob.Status.QUEUED)
              .order_by("id").values_list("created_at", flat=True).first())
    limit = timedelta(seconds=settings.READY_OUTBOX_SECONDS)
    return "stuck" if oldest is not None and timezone.now() - oldest > limit else OK


class HealthMiddleware(SyncAndAsyncMiddleware):
    """Answers GET/HEAD `/healthz` and `/readyz` itself; everything else goes on down the chain."""

    PATHS = {"/healthz": "alive", "/readyz": "ready"}

    def _probe(self, request: HttpRequest) -> str | None:
        probe = self.PATHS.get(request.path_info)
        return probe if request.method in ("GET", "HEAD") else None

    def call(self, request: HttpRequest) -> HttpResponse:
        probe = self._probe(request)
        return self.get_response(request) if probe is None else self._answer(probe)

    async def acall(self, request: HttpRequest) -> HttpResponse:
        probe = self._probe(request)
        if probe is None:
            return await self.get_response(request)
        return await sync_to_async(self._answer)(probe)

    @staticmethod
    def _answer(probe: str) -> HttpResponse:
        if probe == "alive":
            response = JsonResponse(alive())
        else:
            ready, body = readiness()
            response = JsonResponse(body, status=200 if ready else 503)
        response["Cache-Control"] = "no-store"
        return response
