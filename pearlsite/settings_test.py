"""Settings for the test suite: the real settings, with cheap password hashing, per-process throttle
counters and budgets no ordinary test reaches (throttle tests set small rates themselves)."""
from .settings import *  # noqa: F401,F403
from .settings import REST_FRAMEWORK

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
REST_FRAMEWORK = {**REST_FRAMEWORK,
                  "DEFAULT_THROTTLE_RATES": {scope: "100000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
