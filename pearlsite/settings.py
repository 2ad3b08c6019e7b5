"""Settings, read from the environment (design §1).

Defaults need no server: a SQLite file and Celery's filesystem broker under ./var/. Set
DATABASE_URL (postgres://...) and REDIS_URL (redis://...) for PostgreSQL and Redis.
Every value is validated; junk raises ImproperlyConfigured at start-up.
"""
from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()
BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.str("PEARLSITE_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _positive_float(name: str, default: float) -> float:
    try:
        value = env.float(name, default=default)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number: {exc}") from exc
    if value <= 0:
        raise ImproperlyConfigured(f"{name} must be positive, not {value}")
    return value


def _int_in(name: str, default: int, low: int, high: int) -> int:
    try:
        value = env.int(name, default=default)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number: {exc}") from exc
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, not {value}")
    return value


def _bool(name: str, default: bool) -> bool:
    raw = env.str(name, default=str(default)).strip().lower()
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


DEBUG = _bool("DJANGO_DEBUG", False)
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG and env.str("PEARLSITE_REQUIRE_SECRET", default="") == "1":
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production")
    SECRET_KEY = "pearlsite-local-development-key-not-for-production"
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "matches",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pearlsite.urls"
WSGI_APPLICATION = "pearlsite.wsgi.application"
ASGI_APPLICATION = "pearlsite.asgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

_DATABASE_URL = env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'pearlsite.sqlite3'}")
try:
    DATABASES = {"default": env.db_url_config(_DATABASE_URL)}
except (ValueError, KeyError) as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc
if not DATABASES["default"].get("ENGINE"):
    # The URL itself is not echoed: it may hold a password.
    raise ImproperlyConfigured("DATABASE_URL names no known database: its scheme must be "
                               "postgres://, sqlite:/// or mysql://")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web + worker) share the file: wait for locks instead of failing.
    # IMMEDIATE: every transaction takes the write lock up front, so concurrent writers queue
    # instead of failing on a stale read snapshot (SQLite has no row locks).
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# SQLite cannot defer the ladder's unique-rank constraint; PostgreSQL enforces it (deferred).
SILENCED_SYSTEM_CHECKS = ["models.W038"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Serve app static files (the API docs' Swagger UI) straight from the packages, no collectstatic.
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "matches.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"anon": "120/min", "user": "600/min"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pearlsite API",
    "DESCRIPTION": "Correspondence games, ranked ladders and engine analysis.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": ["active", "finished", "aborted"],
        "ChallengeStatusEnum": ["open", "started", "declined", "cancelled", "expired"],
        "AnalysisStatusEnum": ["queued", "running", "done", "failed"],
    },
}

# --- Celery ---------------------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
CELERY_RESULT_BACKEND = None  # results go to the database through services, never to Celery
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _folder in ("queue", "processed", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_ALWAYS_EAGER = _bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "ai-move"
CELERY_TASK_ROUTES = {
    "ai_workers.tasks.engine_reply": {"queue": "ai-move"},
    "ai_workers.tasks.engine_analysis": {"queue": "analysis-user"},
    "matches.tasks.claim_timeouts": {"queue": "ai-move"},
    "matches.tasks.expire_challenges": {"queue": "ai-move"},
}
CELERY_WORKER_QUEUES = env.list("CELERY_QUEUES", default=["ai-move", "analysis-user", "analysis-system"])
CELERY_BEAT_SCHEDULE = {
    "claim-timeouts": {"task": "matches.tasks.claim_timeouts", "schedule": 60.0},
    "expire-challenges": {"task": "matches.tasks.expire_challenges", "schedule": 300.0},
}

# --- Pearlsite ------------------------------------------------------------------------------
# Multiplies every engine level's time budget (tests and small machines use < 1).
AI_TIME_SCALE = _positive_float("PEARLSITE_AI_TIME_SCALE", 1.0)
# How long an analysis may think per ply, in seconds.
ANALYSIS_SECONDS_PER_PLY = _positive_float("PEARLSITE_ANALYSIS_SECONDS_PER_PLY", 0.5)

# Correspondence play (docs/design.md §5.4). Long polls and event streams hold a worker thread:
# they are capped in time (below gunicorn's 30 s worker timeout) and in number per process (past
# the cap a request answers at once instead of waiting).
EVENTS_MAX_WAIT_SECONDS = _int_in("PEARLSITE_EVENTS_MAX_WAIT", 25, 0, 30)
EVENT_STREAM_SECONDS = _int_in("PEARLSITE_EVENT_STREAM_SECONDS", 25, 0, 600)
EVENT_HEARTBEAT_SECONDS = _int_in("PEARLSITE_EVENT_HEARTBEAT_SECONDS", 10, 1, 300)
EVENTS_WAIT_SLOTS = _int_in("PEARLSITE_EVENTS_WAIT_SLOTS", 6, 0, 10_000)
CHALLENGE_DAYS = _int_in("PEARLSITE_CHALLENGE_DAYS", 7, 1, 365)
VACATION_DAYS_PER_YEAR = _int_in("PEARLSITE_VACATION_DAYS_PER_YEAR", 30, 0, 366)
TIME_WARNING_HOURS = _int_in("PEARLSITE_TIME_WARNING_HOURS", 24, 1, 24 * 30)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
