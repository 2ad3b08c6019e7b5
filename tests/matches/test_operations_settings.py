"""The operations settings (logs, metrics, key rotation) from the environment; junk stops the start."""
from __future__ import annotations

import pytest

from .test_settings import _load_settings

SHOW_LOGS = ("import django; django.setup(); from django.conf import settings; "
             "print(settings.LOGGING['handlers']['console']['formatter'], settings.METRICS_TOKEN or '-', "
             "len(settings.SECRET_KEY_FALLBACKS))")
OLD_KEY = "an-old-secret-key-" + "x7" * 20


@pytest.mark.parametrize("env, shown", [
    ({"DJANGO_DEBUG": "true"}, "text - 0"),
    ({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "pr0d-Key_" * 6, "DJANGO_ALLOWED_HOSTS": "example.org"}, "json - 0"),
    ({"LOG_FORMAT": "JSON", "PEARLSITE_METRICS_TOKEN": "t" * 32, "DJANGO_SECRET_KEY_FALLBACKS": OLD_KEY},
     f"json {'t' * 32} 1"),
])
def test_log_format_follows_debug_unless_set(tmp_path, env, shown):
    result = _load_settings(tmp_path, code=SHOW_LOGS, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == shown


@pytest.mark.parametrize("env, message", [
    ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be json or text"),
    ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be DEBUG, INFO"),
    ({"PEARLSITE_METRICS_TOKEN": "short"}, "PEARLSITE_METRICS_TOKEN must be at least 20"),
    ({"PEARLSITE_METRICS_TOKEN": "has a space in the middle of it"}, "PEARLSITE_METRICS_TOKEN must be"),
    ({"PEARLSITE_WORKER_METRICS_PORT": "9100"}, "PEARLSITE_WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR"),
    ({"PEARLSITE_WORKER_METRICS_PORT": "99999"}, "PEARLSITE_WORKER_METRICS_PORT must be between"),
    ({"DJANGO_SECRET_KEY_FALLBACKS": "too-short"}, "DJANGO_SECRET_KEY_FALLBACKS must list former keys"),
])
def test_junk_stops_the_start(tmp_path, env, message):
    result = _load_settings(tmp_path, **env)
    assert result.returncode != 0
    assert message in result.stderr
