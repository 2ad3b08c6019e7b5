"""gunicorn for the streaming service: uvicorn workers running the ASGI application
(`gunicorn -c docker/gunicorn-streams.conf.py pearlsite.asgi:application`).

It serves the waiting endpoints (`events/stream/`, `events/?wait=`, the match pages' `live/`), which
nginx routes here (docker/nginx.conf): each idle client costs a coroutine and a socket, and one
Redis subscription per process wakes them all (docs/scaling.md, "Event streams"). One process per
core. Streams last hours, so workers are not recycled by request count, and a restart lets
clients reconnect with Last-Event-ID (nothing is lost: the database is the truth).
"""
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8001")
worker_class = "uvicorn_worker.UvicornWorker"
workers = int(os.environ.get("STREAM_CONCURRENCY", max(2, multiprocessing.cpu_count())))
backlog = 4096                     # connections waiting to be accepted (a wave of reconnects)
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))   # the worker's heartbeat to the master, not a request's
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
preload_app = True


def when_ready(server):
    from django.db import connections
    from django.urls import get_resolver
    get_resolver().url_patterns
    connections.close_all()


forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
errorlog = "-"
