"""GET /metrics: the Prometheus exposition, for the monitoring server only.

Not public: served only when PEARLSITE_METRICS_TOKEN is set, and only to a request that carries it
(`Authorization: Bearer <token>`); otherwise the path does not exist (404). With
PROMETHEUS_MULTIPROC_DIR set, the counts of every process writing to that folder (each gunicorn
worker, and Celery workers on the same host) are added up; the database's own figures (engine
jobs waiting) are read once per scrape, here.
"""
from __future__ import annotations

import hmac
import os

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from matches.selectors import engine_jobs


class DatabaseCollector:
    """Figures read from the database at scrape time (the same for every process, so kept out of
    the per-process counts)."""

    def collect(self):
        oldest = engine_jobs.oldest_unsent_created_at()
        age = max(0.0, (timezone.now() - oldest).total_seconds()) if oldest else 0.0
        yield GaugeMetricFamily("pearlsite_engine_job_oldest_unsent_seconds",
                                "Age of the oldest engine job still waiting to be sent (0: none waits).",
                                value=age)
        live = GaugeMetricFamily("pearlsite_engine_jobs_live",
                                 "Engine jobs queued, sent or running now, by lane and state.",
                                 labels=["lane", "state"])
        for (lane, state), count in sorted(engine_jobs.live_job_counts().items()):
            live.add_metric([lane, state], count)
        yield live


def process_registry() -> CollectorRegistry:
    """The processes' counts: added up over every process writing to PROMETHEUS_MULTIPROC_DIR,
    or this process's own without it."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ProcessMetrics())
    return registry


def scrape_registry() -> CollectorRegistry:
    """The processes' counts and the database's figures."""
    registry = process_registry()
    registry.register(DatabaseCollector())
    return registry


class _ProcessMetrics:
    """This process's own registry, when no multiprocess folder is in use."""

    def collect(self):
        yield from REGISTRY.collect()


def _authorized(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def metrics(request: HttpRequest) -> HttpResponse:
    if not _authorized(request):
        raise Http404("no such page")      # first: not even the method tells that the path exists
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return HttpResponse(generate_latest(scrape_registry()), content_type=CONTENT_TYPE_LATEST)
