"""Settings come from the environment, and junk values stop the process with a clear message."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_settings(tmp_path, **env):
    code = "import django; django.setup(); from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], settings.CELERY_BROKER_URL)"
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "pearlsite.settings",
                               "PEARLSITE_VAR_DIR": str(tmp_path), **env})


def test_defaults_need_no_server(tmp_path):
    result = _load_settings(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "filesystem://"]
    assert (tmp_path / "broker" / "queue").is_dir()


def test_postgres_and_redis_from_the_environment(tmp_path):
    result = _load_settings(tmp_path, DATABASE_URL="postgres://u@db:5432/x", REDIS_URL="redis://r:6379/0")
    assert result.stdout.split() == ["django.db.backends.postgresql", "redis://r:6379/0"]


@pytest.mark.parametrize("env,message", [
    ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be true or false"),
    ({"PEARLSITE_AI_TIME_SCALE": "-2"}, "PEARLSITE_AI_TIME_SCALE must be positive"),
    ({"PEARLSITE_AI_TIME_SCALE": "fast"}, "PEARLSITE_AI_TIME_SCALE must be a number"),
    ({"PEARLSITE_REQUIRE_SECRET": "1"}, "DJANGO_SECRET_KEY must be set"),
    ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
    ({"PEARLSITE_ENGINE_INFLIGHT_PER_USER": "0"}, "PEARLSITE_ENGINE_INFLIGHT_PER_USER must be at least 1"),
    ({"PEARLSITE_MAX_OPEN_CHALLENGES": "many"}, "PEARLSITE_MAX_OPEN_CHALLENGES must be a whole number"),
])
def test_junk_values_are_rejected(tmp_path, env, message):
    result = _load_settings(tmp_path, **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr
