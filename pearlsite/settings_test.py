"""Settings for the test suite: the real settings, with cheap password hashing, per-process throttle
counters and budgets no ordinary test reaches (throttle tests set small rates themselves)."""
import atexit
import os
import shutil
import tempfile
from pathlib import Path

# Production settings (DEBUG off) over plain HTTP on the test client's host names.
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-key-" + "k3y" * 20)
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("PEARLSITE_HTTPS", "false")

from .settings import *  # noqa: E402,F401,F403
from .settings import DATABASES, REST_FRAMEWORK  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
COUNTERS_IN_REDIS = False      # tests that share counters through Redis switch it on themselves
REST_FRAMEWORK = {**REST_FRAMEWORK,
                  "DEFAULT_THROTTLE_RATES": {scope: "100000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}

# On SQLite the test database is a file (in a folder of the test process's own, removed with its
# WAL files at exit), not Django's shared-cache memory database: the browser tests' live server then
# reads through a connection of its own while the test writes (WAL and lock waits, as settings.py
# sets up), where shared-cache table locks fail at once ("database table is locked").
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _TEST_DB_DIR = tempfile.mkdtemp(prefix="pearlsite-test-")
    atexit.register(shutil.rmtree, _TEST_DB_DIR, ignore_errors=True)
    DATABASES["default"]["TEST"] = {"NAME": str(Path(_TEST_DB_DIR) / "test.sqlite3")}
