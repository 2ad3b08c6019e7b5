"""Settings for the test suite: the real settings, with cheap password hashing, per-process throttle
counters and budgets no ordinary test reaches (throttle tests set small rates themselves)."""
import os

# Production settings (DEBUG off) over plain HTTP on the test client's host names.
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-key-" + "k3y" * 20)
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("PEARLSITE_HTTPS", "false")

from .settings import *  # noqa: E402,F401,F403
from .settings import REST_FRAMEWORK  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
COUNTERS_IN_REDIS = False      # tests that share counters through Redis switch it on themselves
REST_FRAMEWORK = {**REST_FRAMEWORK,
                  "DEFAULT_THROTTLE_RATES": {scope: "100000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
