"""WSGI entry point (gunicorn pearlsite.wsgi)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings")
from pearlsite.limits import limit_wsgi_body  # noqa: E402  (needs the settings module named)

application = limit_wsgi_body(get_wsgi_application())
