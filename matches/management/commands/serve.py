"""`manage.py serve`: the web server and a Celery worker (with beat) together, for local use.

    python manage.py serve            # 127.0.0.1:$PORT (default 8000)

Production runs them as separate processes (gunicorn, `celery worker`, `celery beat`): see docker/.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand


def _port() -> int:
    raw = os.environ.get("PORT", "8000")
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ImproperlyConfigured(f"PORT must be a TCP port number, not {raw!r}")
    return int(raw)


class Command(BaseCommand):
    help = "Run the web server and a Celery worker together (local development)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--no-worker", action="store_true", help="serve only")

    def handle(self, *args, host: str, no_worker: bool, **options):
        port = _port()
        # SIGTERM (from a process manager or `kill`) unwinds normally, so the worker is stopped too.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        worker = None
        if not no_worker:
            worker = subprocess.Popen([
                sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "--beat",
                "-Q", ",".join(settings.CELERY_WORKER_QUEUES), "--concurrency", "2",
                "--loglevel", "INFO", "--schedule", str(settings.VAR_DIR / "celerybeat-schedule"),
            ])
            self.stdout.write(f"worker started (pid {worker.pid}), broker {settings.CELERY_BROKER_URL}")
        try:
            call_command("runserver", f"{host}:{port}", use_reloader=False)
        finally:
            if worker is not None:
                worker.terminate()          # warm shutdown: running tasks finish first
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()
