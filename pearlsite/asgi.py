"""ASGI entry point; bodies over the limit are refused before they are read (pearlsite/limits.py),
and a client that stops reading is dropped (pearlsite/slow_readers.py)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings")
django_application = get_asgi_application()

from pearlsite.limits import limit_asgi_body  # noqa: E402  (settings are loaded now)
from pearlsite.slow_readers import drop_slow_readers  # noqa: E402

application = drop_slow_readers(limit_asgi_body(django_application))
