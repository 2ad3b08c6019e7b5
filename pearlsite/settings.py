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
    "notifications",
]

MIDDLEWARE = [
    "pearlsite.health.HealthMiddleware",      # /healthz and /readyz, before host and HTTPS checks
    "pearlsite.observe.RequestObservationMiddleware",
    "pearlsite.limits.BodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the cookie the switcher sets, else Accept-Language (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "notifications.presence.PresenceMiddleware",
    # Pages: a signed-in player's own language (on a browser without the cookie) and time zone.
    "notifications.locale.PlayerLocaleMiddleware",
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
        "django.template.context_processors.i18n",
        "django.template.context_processors.tz",
        "web.context.page_strings",
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

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "pearlsite_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
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
        # From the game catalogue (matches/apis/schema.py).
        "GameEnum": "matches.apis.schema.GAME_SLUGS",
        "TwoPlayerGameEnum": "matches.apis.schema.TWO_PLAYER_GAME_SLUGS",
        "VariantEnum": "matches.apis.schema.VARIANT_NAMES",
        "AnalysisLevelEnum": "matches.services.analysis.ANALYSIS_LEVELS",
    },
    # Ids in paths (matches/converters.py): the range of a BigAutoField.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 0,
                                        "maximum": 2**63 - 1}},
}
# The contract a client is generated from: operation ids and tags without the version prefix
# (`games_retrieve`), the token scheme and each operation's own description (matches.apis.openapi),
# and the 401 any bad or expired token gets, listed on every operation.
REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] = "matches.apis.openapi.AutoSchema"
SPECTACULAR_SETTINGS.update({
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "matches.apis.openapi.document_bad_tokens",
                             "matches.apis.openapi.enumerate_game_slugs",
                             "matches.apis.openapi.uniform_operation_ids",
                             "matches.apis.openapi.exclude_nul_characters"],
})

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
# The cache is this process's memory; nothing on the request path needs Redis to answer. Rate-limit
# counters are shared through Redis when it is there (matches/services/counters.py,
# matches/redis_link.py), with the cache as their fallback (docs/security.md).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
COUNTERS_IN_REDIS = bool(REDIS_URL)
# Each Redis call on the request path gives up after this many seconds (no retries) ...
REDIS_TIMEOUT = _positive_float("PEARLSITE_REDIS_TIMEOUT", 0.25)
# ... and after a failure the process leaves Redis alone for this long, then tries once again.
REDIS_RETRY_SECONDS = _positive_float("PEARLSITE_REDIS_RETRY_SECONDS", 5.0)
# While Redis is unavailable: "local" counts rate limits per process; "open" does not limit.
RATE_LIMITS_WITHOUT_REDIS = env.str("PEARLSITE_RATE_LIMITS_WITHOUT_REDIS", default="local").strip().lower()
if RATE_LIMITS_WITHOUT_REDIS not in {"local", "open"}:
    raise ImproperlyConfigured("PEARLSITE_RATE_LIMITS_WITHOUT_REDIS must be local or open, "
                               f"not {RATE_LIMITS_WITHOUT_REDIS!r}")

# --- Health (pearlsite/health.py, docs/operations.md) ---------------------------------------
# /readyz reports the engine outbox stuck when its oldest queued engine reply is older than this.
READY_OUTBOX_SECONDS = _positive_float("PEARLSITE_READY_OUTBOX_SECONDS", 300.0)
# Checks /readyz reports but that do not make it answer 503 (e.g. "redis,broker": processes that
# share one Redis stay in the balancer while it is down, since they keep serving without it).
READY_OPTIONAL = [name.strip() for name in env.list("PEARLSITE_READY_OPTIONAL", default=[]) if name.strip()]
if set(READY_OPTIONAL) - {"database", "migrations", "redis", "broker", "outbox"}:
    raise ImproperlyConfigured("PEARLSITE_READY_OPTIONAL names checks among database, migrations, redis, "
                               f"broker and outbox, not {READY_OPTIONAL!r}")

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
        # A hung Redis (a paused host, a lost network) fails a send after this long instead of
        # holding the request forever; above the workers' 1 s BRPOP, which must not time out.
        "socket_timeout": 5,
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
    "ai_workers.tasks.engine_position": {"queue": "analysis-user"},
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
# How many best alternatives an analysis shows at each inaccuracy, mistake and blunder (1: none).
ANALYSIS_CANDIDATES = _int_in("PEARLSITE_ANALYSIS_CANDIDATES", 3, 1, 5)
# The analysis board: the most moves a requested line may have (after the match's ply or the start).
BOARD_MAX_MOVES = _count("PEARLSITE_BOARD_MAX_MOVES", 600)
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

# --- Operations: logs, metrics (docs/operations.md) ------------------------------------------
from pythonjsonlogger.core import RESERVED_ATTRS  # noqa: E402

# One line per record on standard error: JSON (production's default) or plain text (DEBUG's),
# each with the request id (pearlsite/request_ids.py) of the request or task it belongs to.
LOG_FORMAT = env.str("LOG_FORMAT", default="text" if DEBUG else "json").strip().lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}")
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").strip().upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "pearlsite.request_ids.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "pythonjsonlogger.json.JsonFormatter",
                 "fmt": "{levelname}{name}{message}{request_id}", "style": "{", "timestamp": "time",
                 "rename_fields": {"levelname": "level", "name": "logger"},
                 # Celery's own `data` extra holds a task's whole arguments (positions, hands).
                 "reserved_attrs": [*RESERVED_ATTRS, "data"]},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                             "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # The request line is pearlsite.requests' (with the request id); Django's own would repeat it.
    "loggers": {"django.server": {"level": "WARNING"}, "celery.app.trace": {"level": "WARNING"}},
}
# Celery workers log through the configuration above instead of replacing it with their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# GET /metrics answers only requests carrying this token (Authorization: Bearer ...); unset: 404.
METRICS_TOKEN = env.str("PEARLSITE_METRICS_TOKEN", default="")
if METRICS_TOKEN and (len(METRICS_TOKEN) < 20 or not METRICS_TOKEN.isascii() or " " in METRICS_TOKEN):
    raise ImproperlyConfigured("PEARLSITE_METRICS_TOKEN must be at least 20 ASCII characters without spaces")
# Rotating the secret key: the new one in DJANGO_SECRET_KEY, the old ones here (comma-separated)
# until the sessions and signed values they made have expired (docs/operations.md).
SECRET_KEY_FALLBACKS = env.list("DJANGO_SECRET_KEY_FALLBACKS", default=[])
if any(len(key) < 50 for key in SECRET_KEY_FALLBACKS):
    raise ImproperlyConfigured("DJANGO_SECRET_KEY_FALLBACKS must list former keys of at least 50 characters")
# Prometheus scrapes the web processes directly (plain HTTP inside the private network).
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
# A Celery worker's own /metrics port (0: none), serving its pool's counts from PROMETHEUS_MULTIPROC_DIR.
WORKER_METRICS_PORT = _int_in("PEARLSITE_WORKER_METRICS_PORT", 0, 0, 65535)
WORKER_METRICS_ADDR = env.str("PEARLSITE_WORKER_METRICS_ADDR", default="127.0.0.1")
if WORKER_METRICS_PORT and not env.str("PROMETHEUS_MULTIPROC_DIR", default=""):
    raise ImproperlyConfigured("PEARLSITE_WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR: a worker's "
                               "pool processes count in their own memory otherwise")

# --- Notifications: mail and webhooks (docs/notifications.md) --------------------------------
# EMAIL_URL: smtp://user:password@host:587 (smtp+tls://, smtp+ssl://), or consolemail:// (the
# default: mails are printed, so `make run` shows them).
try:
    # EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS/SSL
    globals().update(env.email_url("EMAIL_URL", default="consolemail://"))
except (ValueError, KeyError, ImproperlyConfigured) as exc:
    raise ImproperlyConfigured(f"EMAIL_URL is not a mail URL (smtp://, consolemail://...): {exc}") from exc
EMAIL_TIMEOUT = _count("PEARLSITE_EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env.str("PEARLSITE_MAIL_FROM", default="Pearlsite <noreply@localhost>")
# Links in mails start with this (no trailing slash).
SITE_URL = env.str("PEARLSITE_SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
if not re.match(r"^https?://[^/\s]+$", SITE_URL):
    raise ImproperlyConfigured(f"PEARLSITE_SITE_URL must be http(s)://host[:port], not {SITE_URL!r}")
EMAIL_VERIFY_HOURS = _int_in("PEARLSITE_EMAIL_VERIFY_HOURS", 48, 1, 24 * 30)
PASSWORD_RESET_TIMEOUT = _int_in("PEARLSITE_PASSWORD_RESET_MINUTES", 120, 5, 24 * 60 * 7) * 60
# At most one reset mail per account in this many minutes (beside the per-address throttle).
PASSWORD_RESET_EVERY_MINUTES = _int_in("PEARLSITE_PASSWORD_RESET_EVERY_MINUTES", 10, 0, 24 * 60)
THROTTLE_RATES["password_reset"] = _rate("PEARLSITE_THROTTLE_PASSWORD_RESET", "5/hour")
# Your-turn mails: at most one per player per window; none while the player was seen lately.
NOTIFY_YOUR_TURN_WINDOW_MINUTES = _int_in("PEARLSITE_NOTIFY_YOUR_TURN_WINDOW_MINUTES", 60, 1, 24 * 60)
NOTIFY_ACTIVE_MINUTES = _int_in("PEARLSITE_NOTIFY_ACTIVE_MINUTES", 10, 0, 24 * 60)
# Notification mails (not account mails) a player gets in an hour at most; past it they are dropped.
NOTIFY_MAILS_PER_HOUR = _int_in("PEARLSITE_NOTIFY_MAILS_PER_HOUR", 20, 1, 10_000)
# Finished outbox rows (the delivery log) are kept this many days.
NOTIFY_KEEP_DAYS = _int_in("PEARLSITE_NOTIFY_KEEP_DAYS", 30, 1, 3650)
# Deadline reminders, hours before a deadline (each sent once per deadline, while it is their move).
try:
    NOTIFY_REMINDER_HOURS = sorted({int(h) for h in env.list("PEARLSITE_NOTIFY_REMINDER_HOURS",
                                                             default=["24", "4", "1"])}, reverse=True)
except ValueError as exc:
    raise ImproperlyConfigured(f"PEARLSITE_NOTIFY_REMINDER_HOURS must list whole hours (24,4,1): {exc}") from exc
if not NOTIFY_REMINDER_HOURS or any(not 1 <= h <= 24 * 30 for h in NOTIFY_REMINDER_HOURS):
    raise ImproperlyConfigured("PEARLSITE_NOTIFY_REMINDER_HOURS must list hours between 1 and 720")
# How often the beat scans events, reminders and digests and hands due notifications to workers.
NOTIFY_TICK_SECONDS = _positive_float("PEARLSITE_NOTIFY_TICK_SECONDS", 10.0)
NOTIFY_LEASE_SECONDS = _count("PEARLSITE_NOTIFY_LEASE_SECONDS", 120)
# A failed delivery is retried with exponential backoff (first after this many seconds) for this long.
NOTIFY_RETRY_FIRST_SECONDS = _count("PEARLSITE_NOTIFY_RETRY_FIRST_SECONDS", 30)
NOTIFY_RETRY_HOURS = _int_in("PEARLSITE_NOTIFY_RETRY_HOURS", 24, 1, 24 * 7)
# Webhooks: how many a player may have, the request's limits, and failures in a row before one is switched off.
WEBHOOKS_PER_USER = _int_in("PEARLSITE_WEBHOOKS_PER_USER", 5, 0, 100)
WEBHOOK_TIMEOUT_SECONDS = _positive_float("PEARLSITE_WEBHOOK_TIMEOUT_SECONDS", 5.0)
WEBHOOK_MAX_RESPONSE_BYTES = _count("PEARLSITE_WEBHOOK_MAX_RESPONSE_BYTES", 64 * 1024)
WEBHOOK_DISABLE_AFTER = _count("PEARLSITE_WEBHOOK_DISABLE_AFTER", 15)
# Networks webhooks may reach although they are not public (loopback, private...), plain HTTP
# allowed there: for private deployments and tests. Empty by default: only public addresses.
WEBHOOK_ALLOWED_NETWORKS = env.list("PEARLSITE_WEBHOOK_ALLOWED_NETWORKS", default=[])
try:
    import ipaddress as _ipaddress
    [_ipaddress.ip_network(_net.strip(), strict=False) for _net in WEBHOOK_ALLOWED_NETWORKS]
except ValueError as exc:
    raise ImproperlyConfigured(f"PEARLSITE_WEBHOOK_ALLOWED_NETWORKS must list networks (10.0.0.0/8): {exc}") from exc
CELERY_TASK_ROUTES.update({"notifications.tasks.tick": {"queue": "notify"},
                           "notifications.tasks.deliver": {"queue": "notify"}})
CELERY_BEAT_SCHEDULE["notifications-tick"] = {"task": "notifications.tasks.tick", "schedule": NOTIFY_TICK_SECONDS}
NOTIFY_WORKER_QUEUES = ["notify"]
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]["NotificationDigestEnum"] = ["none", "daily", "weekly"]
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]["NotificationChannelEnum"] = ["email", "digest", "webhook"]

# --- Live updates on the ASGI service (docs/scaling.md "Event streams") ----------------------
# Under ASGI (uvicorn) the waiting endpoints are async views: an idle client costs a coroutine
# and a socket, one Redis subscription per process wakes them (pearlsite/urls_asgi.py).
ASGI_URLCONF = "pearlsite.urls_asgi"
# An async stream ends after this many seconds (the client reconnects with Last-Event-ID).
ASYNC_STREAM_SECONDS = _int_in("PEARLSITE_ASYNC_STREAM_SECONDS", 6 * 3600, 1, 7 * 86400)
# Open streams and waiting long polls at once, per account and per client address (0: no limit).
STREAMS_PER_USER = _int_in("PEARLSITE_STREAMS_PER_USER", 5, 0)
STREAMS_PER_ADDRESS = _int_in("PEARLSITE_STREAMS_PER_ADDRESS", 20, 0)
# How often each process looks for new events in the database when Redis is down or absent (and,
# slower, while subscribed: a lost wake-up costs at most that long).
STREAM_POLL_SECONDS = _positive_float("PEARLSITE_STREAM_POLL_SECONDS", 1.0)
STREAM_SAFETY_POLL_SECONDS = _positive_float("PEARLSITE_STREAM_SAFETY_POLL_SECONDS", 5.0)
# A reader that takes no bytes for this long is disconnected (its buffer stays bounded meanwhile).
STREAM_SEND_TIMEOUT_SECONDS = _positive_float("PEARLSITE_STREAM_SEND_TIMEOUT", 30.0)
# A match page's live stream looks at its match at least this often (engine-only tables publish
# no wake-ups).
LIVE_STREAM_CHECK_SECONDS = _positive_float("PEARLSITE_LIVE_STREAM_CHECK_SECONDS", 10.0)
MIDDLEWARE.append("pearlsite.asgi_urls.AsgiUrlconfMiddleware")
MIDDLEWARE[MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware")] = "pearlsite.asgi_urls.StaticFilesMiddleware"

# HEAD answers without a body under every server (pearlsite/head.py).
MIDDLEWARE.insert(0, "pearlsite.head.HeadWithoutBodyMiddleware")

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

# --- Past one machine: a read replica and a transaction-pooling pgbouncer (docs/scaling.md §7) ---
# DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL (`pg_basebackup -R`). Unset: no replica
# alias, no router, no routing middleware: every read goes to DATABASE_URL as before.
DATABASE_REPLICA_URL = env.str("DATABASE_REPLICA_URL", default="")
# Seconds of replay lag past which reads leave the replica, how often each process measures it, and
# how long a user who wrote reads the primary (at least the lag bound plus one check interval).
REPLICA_MAX_LAG_SECONDS = _positive_float("PEARLSITE_REPLICA_MAX_LAG", 1.0)
REPLICA_CHECK_SECONDS = _positive_float("PEARLSITE_REPLICA_CHECK_SECONDS", 0.5)
REPLICA_PIN_SECONDS = _positive_float("PEARLSITE_REPLICA_PIN_SECONDS", 5.0)
if REPLICA_PIN_SECONDS < REPLICA_MAX_LAG_SECONDS + REPLICA_CHECK_SECONDS:
    raise ImproperlyConfigured("PEARLSITE_REPLICA_PIN_SECONDS must be at least PEARLSITE_REPLICA_MAX_LAG plus "
                               "PEARLSITE_REPLICA_CHECK_SECONDS, or a user could read older than their own write")
# The views (URL names) whose GET answers may come from the replica: reads that tolerate lag.
REPLICA_READ_VIEWS = frozenset({
    "game-list", "game-detail", "game-rules", "game-leaderboard",
    "player-list", "player-detail", "player-ratings", "player-export", "player-export-bare",
    "match-list", "match-export", "challenge-list",
    "ladder-list", "ladder-detail", "ladder-history", "tournament-list", "tournament-detail",
})
if DATABASE_REPLICA_URL:
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL needs DATABASE_URL on PostgreSQL")
    try:
        DATABASES["replica"] = env.db_url_config(DATABASE_REPLICA_URL)
    except (ValueError, KeyError) as exc:
        raise ImproperlyConfigured(f"DATABASE_REPLICA_URL is not a database URL: {exc}") from exc
    if DATABASES["replica"].get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL must be a postgres:// URL")
    DATABASES["replica"].update({
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"], "CONN_HEALTH_CHECKS": True,
        # A replica that is down is found in a second, not after the system's connect timeout.
        "OPTIONS": {"connect_timeout": 1, **DATABASES["replica"].get("OPTIONS", {})},
        # Tests read the test database through both aliases.
        "TEST": {"MIRROR": "default"},
    })
    DATABASE_ROUTERS = ["pearlsite.db_router.ReplicaRouter"]
    MIDDLEWARE.insert(MIDDLEWARE.index("pearlsite.observe.RequestObservationMiddleware") + 1,
                      "pearlsite.db_router.ReadRoutingMiddleware")
# DATABASE_TRANSACTION_POOLING=true: DATABASE_URL is a pgbouncer in transaction pooling mode, which
# gives each transaction any server connection, so nothing may outlive a transaction on one: no
# server-side cursors (outside a transaction, Django keeps iterator()'s cursor open across commits).
# Prepared statements stay off (Django's default on psycopg 3); every advisory lock is
# transaction-scoped (tests/matches/test_db_router.py checks the code for session state).
DATABASE_TRANSACTION_POOLING = _bool("DATABASE_TRANSACTION_POOLING", False)
if DATABASE_TRANSACTION_POOLING:
    for _alias in DATABASES.values():
        _alias["DISABLE_SERVER_SIDE_CURSORS"] = True
