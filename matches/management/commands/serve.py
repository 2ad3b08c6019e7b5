"""`manage.py serve`: the web server with its engine workers, for local use.

    python manage.py serve            # 127.0.0.1:$PORT (default 8000)

It serves HTTP with uvicorn (ASGI), so the pages' live updates and the API's event streams run
as async views, as in production (docs/scaling.md). Besides it starts three Celery workers: one
for engine replies (queue `ai-move`, with beat embedded: correspondence deadlines, the engine-job
sweep and the notifications' tick), one for analyses (`analysis-user`, then `analysis-system`), so
a reply never waits behind an analysis, and one for mails and webhooks (`notify`), so a slow mail
server never delays a reply. With the default EMAIL_URL the mails are printed here.
Production runs them as separate processes (gunicorn for the API and pages, gunicorn with
uvicorn workers for the streams, `celery worker` per lane, `celery beat`): see docker/.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand


def _port() -> int:
    raw = os.environ.get("PORT", "8000")
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ImproperlyConfigured(f"PORT must be a TCP port number, not {raw!r}")
    return int(raw)


def _worker(name: str, queues: list[str], concurrency: int, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([
        sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "-Q", ",".join(queues),
        "--hostname", f"{name}-{os.getpid()}@%h", "--concurrency", str(concurrency),
        "--loglevel", "INFO", *extra])


def _stop(worker: subprocess.Popen) -> None:
    worker.terminate()          # warm shutdown: running tasks finish first
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


class Command(BaseCommand):
    help = "Run the web server with reply, analysis and notification workers (local development)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--no-worker", action="store_true", help="serve only")

    def handle(self, *args, host: str, no_worker: bool, **options):
        port = _port()
        # SIGTERM (from a process manager or `kill`) unwinds normally, so the workers are stopped too.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        workers = []
        if not no_worker:
            workers = [
                _worker("replies", settings.REPLY_WORKER_QUEUES, 2,
                        "--beat", "--schedule", str(settings.VAR_DIR / "celerybeat-schedule")),
                _worker("analyses", settings.ANALYSIS_WORKER_QUEUES, 1),
                _worker("notifications", settings.NOTIFY_WORKER_QUEUES, 1),
            ]
            self.stdout.write(f"reply worker (pid {workers[0].pid}), analysis worker (pid {workers[1].pid}) and "
                              f"notification worker (pid {workers[2].pid}) started, broker {settings.CELERY_BROKER_URL}")
        try:
            import uvicorn

            uvicorn.run("pearlsite.asgi:application", host=host, port=port, log_level="info")
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                _stop(worker)
