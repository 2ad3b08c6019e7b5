"""Settings, read from the environment (design §1).

Defaults need no server: a SQLite file and Celery's filesystem broker under ./var/. Set
DATABASE_URL (postgres://...) and REDIS_URL (redis://...) for PostgreSQL and Redis.
Every value is validated; junk raises ImproperlyConfigured at start-up.
"""
from __future__ import annotations

import re
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


def _int_in(name: str, default: int, low: int, high: int | None = None) -> int:
    try:
        value = env.int(name, default=default)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number: {exc}") from exc
    if high is None and value < low:
        raise ImproperlyConfigured(f"{name} must be at least {low}, not {value}")
    if high is not None and not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, not {value}")
    return value


def _count(name: str, default: int, minimum: int = 1) -> int:
    """A whole number of at least `minimum`."""
    return _int_in(name, default, minimum)


def _bool(name: str, default: bool) -> bool:
    raw = env.str(name, default=str(default)).strip().lower()
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


DEBUG = _bool("DJANGO_DEBUG", False)
DEVELOPMENT_SECRET_KEY = "pearlsite-local-development-key-not-for-production"
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])
if DEBUG:
    SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "testserver"]
else:
    # Production refuses to start on a guessable key or without knowing its own host names.
    if not SECRET_KEY or SECRET_KEY == DEVELOPMENT_SECRET_KEY or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set to at least 50 random characters when "
                                   "DJANGO_DEBUG is off (python -c 'import secrets; print(secrets.token_urlsafe(50))')")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the site's host names when DJANGO_DEBUG is off")

# HTTPS (on by default in production): HSTS, secure cookies, and a redirect from plain HTTP that a
# TLS-terminating proxy in front may take over (PEARLSITE_SSL_REDIRECT=false). Behind such a proxy,
# PEARLSITE_PROXY_SSL_HEADER=true trusts its X-Forwarded-Proto (only if the proxy always sets it).
HTTPS = _bool("PEARLSITE_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = _bool("PEARLSITE_SSL_REDIRECT", HTTPS)
if _bool("PEARLSITE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = _count("PEARLSITE_HSTS_SECONDS", 365 * 86400 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _bool("PEARLSITE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = _bool("PEARLSITE_HSTS_PRELOAD", HTTPS)     # eligibility only; submitting is yours
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
# The admin site is served only when asked for (pearlsite/urls.py).
ADMIN_ENABLED = _bool("PEARLSITE_ADMIN", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "matches",
    "web",
]

MIDDLEWARE = [
    "pearlsite.limits.BodyLimitMiddleware",
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
    # WAL: readers (the web answering) never wait for the worker writing a reply, and commits
    # need no fsync of their own (a crash may lose the last commits, never corrupt the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"})
# A connection kept per worker thread: opening one costs about as much as the whole move
# transaction. Health checks drop a connection the server closed, so a restart costs nothing.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=300)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# SQLite cannot defer the ladder's unique-rank constraint; PostgreSQL enforces it (deferred).
SILENCED_SYSTEM_CHECKS = ["models.W038"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# API tokens unused for this many days stop working (matches/services/accounts.py).
TOKEN_IDLE_DAYS = _count("PEARLSITE_TOKEN_IDLE_DAYS", 90)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Serve app static files (the API docs' Swagger UI) straight from the packages, no collectstatic.
WHITENOISE_USE_FINDERS = True

# --- Rate limits (matches/apis/throttles.py, docs/security.md) -----------------------------------
_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")
THROTTLE_DEFAULTS = {
    "anon": "120/min", "user": "600/min",                  # every request, per address / account
    "login": "10/min", "registration": "10/hour",          # per address
    "challenge": "60/hour", "analysis": "30/hour", "moves": "120/min",   # per account
}


def _rate(name: str, default: str) -> str | None:
    raw = env.str(name, default=default).strip().lower().replace(" ", "")
    if raw in {"off", "none"}:
        return None
    if not _RATE.match(raw):
        raise ImproperlyConfigured(f"{name} must be a rate such as 10/min (or off), not {raw!r}")
    return raw


THROTTLE_RATES = {scope: _rate(f"PEARLSITE_THROTTLE_{scope.upper()}", default)
                  for scope, default in THROTTLE_DEFAULTS.items()}
# Failed logins to one account, from every address together (matches/services/logins.py).
LOGIN_FAILURES = _rate("PEARLSITE_LOGIN_FAILURES", "20/hour")
NUM_PROXIES = _count("PEARLSITE_NUM_PROXIES", 0, minimum=0)

# Request bodies larger than this are refused (413) before they are read (pearlsite/limits.py).
MAX_BODY_BYTES = _count("PEARLSITE_MAX_BODY_BYTES", 64 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY_BYTES

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": ["matches.apis.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "matches.apis.negotiation.ContentNegotiation",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "matches.apis.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "matches.errors.exception_handler",
    # The browsable API (HTML forms) only while developing.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_THROTTLE_CLASSES": [
        "matches.apis.throttles.AnonThrottle",
        "matches.apis.throttles.UserThrottle",
        "matches.apis.throttles.ScopedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": THROTTLE_RATES,
    # Client addresses come from REMOTE_ADDR, or from X-Forwarded-For set by this many proxies.
    "NUM_PROXIES": NUM_PROXIES,
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
        "EventKindEnum": "matches.models.events.Event.Kind",
        "AnalysisStatusEnum": ["queued", "running", "done", "failed"],
        "TournamentStatusEnum": ["open", "running", "finished", "cancelled"],
        "TournamentGameStatusEnum": ["active", "finished", "aborted", "bye"],
        "TournamentKindEnum": ["round-robin", "swiss"],
        "LadderEventKindEnum": ["joined", "climbed", "defended", "forfeited"],
    },
    # Ids in paths (matches/converters.py): the range of a BigAutoField.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 0,
                                        "maximum": 2**63 - 1}},
}

# --- Engine jobs (matches/models/jobs.py: the outbox) --------------------------------------
# Jobs a user may have at the broker or running, per lane; the rest wait in the table in order.
ENGINE_INFLIGHT_PER_USER = _count("PEARLSITE_ENGINE_INFLIGHT_PER_USER", 2)
# A worker's lease on a job: 2 x the job's thinking time + this many seconds.
ENGINE_LEASE_GRACE = _positive_float("PEARLSITE_ENGINE_LEASE_GRACE", 30.0)
# Starts before a job is given up (a reply then falls back to a random legal move).
ENGINE_MAX_ATTEMPTS = _count("PEARLSITE_ENGINE_MAX_ATTEMPTS", 3)
# How often beat runs the sweep (re-sends unsent jobs, takes back expired leases).
ENGINE_SWEEP_SECONDS = _positive_float("PEARLSITE_ENGINE_SWEEP_SECONDS", 30.0)
# After a failed send, a web process leaves sending to the sweep for this long (requests stay fast).
ENGINE_SEND_PAUSE = _positive_float("PEARLSITE_ENGINE_SEND_PAUSE", 5.0)
# Quotas per user (0: no limit).
MAX_ACTIVE_ENGINE_MATCHES = _count("PEARLSITE_MAX_ACTIVE_ENGINE_MATCHES", 20, minimum=0)
MAX_PENDING_ANALYSES = _count("PEARLSITE_MAX_PENDING_ANALYSES", 5, minimum=0)
MAX_OPEN_CHALLENGES = _count("PEARLSITE_MAX_OPEN_CHALLENGES", 20, minimum=0)

# --- Redis and the cache --------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# Throttle counters (and nothing else) live in the cache: Redis shares them between processes.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "pearlsite"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ---------------------------------------------------------------------------------
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
        # The folder is polled: every poll is one directory listing, so poll often.
        "polling_interval": _positive_float("PEARLSITE_BROKER_POLL_SECONDS", 0.05),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Longer than any lease: the sweep takes a lost job back first; the broker's own
        # redelivery is the backstop (a duplicate finds the job taken and is dropped).
        "visibility_timeout": _count("PEARLSITE_BROKER_VISIBILITY_TIMEOUT", 300),
        # A worker on several queues takes them in the order given (analysis-user first).
        "queue_order_strategy": "priority",
        "socket_connect_timeout": 2,
    }
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# A send that fails fails fast: the job stays queued in the table and the sweep sends it later.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.1, "interval_step": 0.2,
                                    "interval_max": 0.2}
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
    "matches.tasks.sweep_engine_jobs": {"queue": "ai-move"},
    "matches.tasks.ladder_forfeits": {"queue": "ai-move"},
    "matches.tasks.tournament_advance": {"queue": "ai-move"},
    "matches.tasks.tournaments_tick": {"queue": "ai-move"},
}
# What `manage.py serve` runs: a reply worker and an analysis worker (separate processes).
REPLY_WORKER_QUEUES = ["ai-move"]
ANALYSIS_WORKER_QUEUES = ["analysis-user", "analysis-system"]
CELERY_BEAT_SCHEDULE = {
    "claim-timeouts": {"task": "matches.tasks.claim_timeouts", "schedule": 60.0},
    "expire-challenges": {"task": "matches.tasks.expire_challenges", "schedule": 300.0},
    "sweep-engine-jobs": {"task": "matches.tasks.sweep_engine_jobs", "schedule": ENGINE_SWEEP_SECONDS},
    "ladder-forfeits": {"task": "matches.tasks.ladder_forfeits", "schedule": 600.0},
    "tournaments-tick": {"task": "matches.tasks.tournaments_tick", "schedule": 60.0},
}

# --- Web pages (session auth beside the API's tokens) ---------------------------------------
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:lobby"
LOGOUT_REDIRECT_URL = "web:lobby"
# How long the match page's live request waits for a change before answering "no change".
WEB_LIVE_WAIT_SECONDS = _positive_float("PEARLSITE_LIVE_WAIT_SECONDS", 20.0)

# --- Pearlsite ------------------------------------------------------------------------------
# Multiplies every engine level's time budget (tests and small machines use < 1).
AI_TIME_SCALE = _positive_float("PEARLSITE_AI_TIME_SCALE", 1.0)
# How long an analysis may think per ply, in seconds.
ANALYSIS_SECONDS_PER_PLY = _positive_float("PEARLSITE_ANALYSIS_SECONDS_PER_PLY", 0.5)
# Leaderboards leave out players without a rated result for this many days.
LEADERBOARD_INACTIVE_DAYS = _count("PEARLSITE_LEADERBOARD_INACTIVE_DAYS", 90)

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

# --- Community: chat, blocks, reports, moderation, leaving (community/, docs/moderation.md) ------
INSTALLED_APPS += ["community"]
CHAT_MESSAGE_MAX_CHARS = _int_in("PEARLSITE_CHAT_MESSAGE_MAX_CHARS", 500, 1, 10_000)
# A deleted account's username stays unusable for this many days.
DELETED_USERNAME_HOLD_DAYS = _int_in("PEARLSITE_DELETED_USERNAME_HOLD_DAYS", 180, 0, 36500)
# Per account: chat messages written, reports filed.
THROTTLE_RATES["chat"] = _rate("PEARLSITE_THROTTLE_CHAT", "10/min")
THROTTLE_RATES["report"] = _rate("PEARLSITE_THROTTLE_REPORT", "20/hour")
CELERY_BEAT_SCHEDULE["lift-suspensions"] = {"task": "community.tasks.lift_suspensions", "schedule": 300.0}

# Content-Security-Policy on every response (django-csp): scripts and styles come from our own
# files only, never inline, so text other people wrote can never run as script.
MIDDLEWARE += ["csp.middleware.CSPMiddleware"]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
