"""Settings come from the environment, and junk values stop the process with a clear message."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _clean_env(tmp_path, **env) -> dict:
    """The environment without this process's configuration, plus `env`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PEARLSITE_")) and k not in (
        "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    return {**clean, "DJANGO_SETTINGS_MODULE": "pearlsite.settings", "PEARLSITE_VAR_DIR": str(tmp_path), **env}


def _load_settings(tmp_path, code=None, **env):
    code = code or ("import django; django.setup(); from django.conf import settings; "
                    "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_BROKER_URL)")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=_clean_env(tmp_path, **{"DJANGO_DEBUG": "true", **env}))


def _manage(tmp_path, *args, **env):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                          env=_clean_env(tmp_path, **env))


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
    ({"PEARLSITE_MAX_BODY_BYTES": "big"}, "PEARLSITE_MAX_BODY_BYTES must be a whole number"),
    ({"PEARLSITE_ADMIN": "sometimes"}, "PEARLSITE_ADMIN must be true or false"),
    ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
    ({"PEARLSITE_THROTTLE_LOGIN": "lots"}, "PEARLSITE_THROTTLE_LOGIN must be a rate"),
    ({"PEARLSITE_ENGINE_INFLIGHT_PER_USER": "0"}, "PEARLSITE_ENGINE_INFLIGHT_PER_USER must be at least 1"),
    ({"PEARLSITE_MAX_OPEN_CHALLENGES": "many"}, "PEARLSITE_MAX_OPEN_CHALLENGES must be a whole number"),
    ({"PEARLSITE_RATE_LIMITS_WITHOUT_REDIS": "maybe"}, "PEARLSITE_RATE_LIMITS_WITHOUT_REDIS must be local or open"),
    ({"PEARLSITE_REDIS_TIMEOUT": "0"}, "PEARLSITE_REDIS_TIMEOUT must be positive"),
    ({"PEARLSITE_READY_OPTIONAL": "redis,cache"}, "PEARLSITE_READY_OPTIONAL names checks"),
    ({"PEARLSITE_CHAT_MESSAGE_MAX_CHARS": "0"}, "PEARLSITE_CHAT_MESSAGE_MAX_CHARS must be"),
    ({"PEARLSITE_THROTTLE_CHAT": "chatty"}, "PEARLSITE_THROTTLE_CHAT must be a rate"),
])
def test_junk_values_are_rejected(tmp_path, env, message):
    result = _load_settings(tmp_path, **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr


GOOD_KEY = "Kq3v" + "x8Zr-Tn2w_Lp5y" * 4


@pytest.mark.parametrize("env,message", [
    ({}, "DJANGO_SECRET_KEY must be set"),
    ({"DJANGO_SECRET_KEY": "pearlsite-local-development-key-not-for-production"}, "DJANGO_SECRET_KEY must be set"),
    ({"DJANGO_SECRET_KEY": GOOD_KEY[:49]}, "DJANGO_SECRET_KEY must be set"),
    ({"DJANGO_SECRET_KEY": "ab" * 40}, "DJANGO_SECRET_KEY must be set"),
    ({"DJANGO_SECRET_KEY": GOOD_KEY}, "DJANGO_ALLOWED_HOSTS must list"),
])
def test_production_refuses_to_start_without_a_real_key_and_hosts(tmp_path, env, message):
    result = _manage(tmp_path, "check", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr


def _compose_environment(**given) -> dict:
    """The application's environment in docker/compose.yaml, with `given` for its required values."""
    import re

    import yaml

    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    declared = compose["x-app"]["environment"]

    def expand(value: str) -> str:
        def one(m):
            name, kind, rest = m.group(1), m.group(2), m.group(3)
            if name in given:
                return given[name]
            assert kind == ":-", f"{name} is required by compose: give it"
            return rest
        return re.sub(r"\$\{(\w+)(:[-?])([^}]*)\}", one, str(value))

    return {name: expand(value) for name, value in declared.items()}


def test_compose_ships_no_default_secret():
    with pytest.raises(AssertionError, match="DJANGO_SECRET_KEY is required"):
        _compose_environment(DJANGO_ALLOWED_HOSTS="example.org")


def test_check_deploy_is_clean_for_the_docker_configuration(tmp_path):
    env = _compose_environment(DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS="games.example.org")
    result = _manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


@pytest.mark.parametrize("enabled", [False, True])
def test_admin_only_when_enabled(tmp_path, enabled):
    code = ("import django; django.setup(); from django.urls import resolve, Resolver404\n"
            "try:\n    resolve('/admin/'); print('admin')\nexcept Resolver404:\n    print('none')")
    result = _load_settings(tmp_path, code, DJANGO_DEBUG="false", DJANGO_SECRET_KEY=GOOD_KEY,
                            DJANGO_ALLOWED_HOSTS="example.org", PEARLSITE_ADMIN=str(enabled).lower())
    assert result.stdout.strip() == ("admin" if enabled else "none"), result.stderr


@pytest.mark.parametrize("debug", [False, True])
def test_browsable_api_only_in_debug(tmp_path, debug):
    code = ("import django; django.setup(); from rest_framework.settings import api_settings; "
            "print(' '.join(c.__name__ for c in api_settings.DEFAULT_RENDERER_CLASSES))")
    result = _load_settings(tmp_path, code, DJANGO_DEBUG=str(debug).lower(), DJANGO_SECRET_KEY=GOOD_KEY,
                            DJANGO_ALLOWED_HOSTS="example.org")
    expected = "JSONRenderer BrowsableAPIRenderer" if debug else "JSONRenderer"
    assert result.stdout.strip() == expected, result.stderr


@pytest.mark.django_db
def test_no_admin_and_no_html_in_production(anon):
    assert anon.get("/admin/").status_code == 404
    response = anon.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406 and response.json()["code"] == "not_acceptable"
