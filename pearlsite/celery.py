"""The Celery app: configuration comes from Django settings (CELERY_* names)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings")

app = Celery("pearlsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["matches", "ai_workers", "notifications", "community"])

# Request ids into task messages, and one log line per task (pearlsite/task_signals.py).
from . import task_signals  # noqa: E402,F401
