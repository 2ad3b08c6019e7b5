"""gunicorn for the production image (`gunicorn -c docker/gunicorn.conf.py pearlsite.wsgi`).

Threaded workers (gthread): an idle keep-alive connection waits in the worker's poller, not in a
thread, and one slow request holds one thread, not the whole process. The buffering proxy in
front (docker/nginx.conf) reads every request completely before passing it on, so slow clients
never reach a worker at all; these limits are the second line. Every value can be overridden
from the environment (GUNICORN_CMD_ARGS, or the variables below).
"""
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = "gthread"
# One process per core: a request is Python work (one core under the GIL) between short waits on
# PostgreSQL, which the threads overlap. More processes than cores bought no moves per second in
# the benchmark (docs/scaling.md) and each thread holds a database connection of its own.
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", 8))
# A request that runs longer than this is killed (engine work runs in Celery, never here).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
# A stopping worker (recycled, a deploy's HUP, a scale-down's TTOU, a TERM) accepts no new
# connection, finishes what it is serving (a request runs at most `timeout`; long polls and event
# streams stop at 25 s), answers a request already arriving on a kept-alive connection with
# "Connection: close", and closes idle ones (gunicorn >= 24's gthread; 23 dropped them, which reset
# moves in flight). docker/compose.yaml gives it `stop_grace_period` beyond this.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", 30))
# Seconds an idle keep-alive connection is kept: longer than the proxy's or balancer's own idle
# timeout for its upstream connections (docker/nginx.conf: 60 s; most balancers: 60 s), so the
# proxy always closes an idle connection first and never sends a request on one being closed here.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 75))
# Header limits (a request line, header count and size) refuse oversized heads early.
limit_request_line = 8190          # above nginx's 4k, so nginx refuses an over-long line first, in JSON
limit_request_fields = 50
limit_request_field_size = 8190
# The application (Django, the URLconf and every view module) is imported once in the master and
# each worker is forked from it: a worker starts in milliseconds instead of spending ~0.5 s of CPU
# importing, which the recycling below paid every couple of thousand requests per worker (and a
# code change needs a full restart, not a HUP). Nothing connects to the database or Redis at import.
preload_app = True


def when_ready(server):
    from django.db import connections
    from django.urls import get_resolver
    get_resolver().url_patterns          # import the views before forking, not on a first request
    connections.close_all()              # no connection opened meanwhile may be shared by the forks


# Recycle workers now and then so no slow leak can grow without bound; each recycle closes the
# worker's kept-alive connections (cleanly, see graceful_timeout) and drops warm caches, so not too
# often, and with a jitter of 10 % so that workers started together do not all recycle at once.
max_requests = 20000
max_requests_jitter = 2000
# gunicorn's control socket (gunicornc) is not used: no socket file in $HOME.
control_socket_disable = True
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# The application writes one line per request itself (JSON, with the request id: pearlsite/observe.py);
# gunicorn's own access line only beside plain-text logs.
accesslog = "-" if os.environ.get("LOG_FORMAT") == "text" else None
errorlog = "-"


def child_exit(server, worker):
    """A worker gone: its share of the live gauges (streams open) leaves the sum; its counters stay
    in it (docs/operations.md §Metrics)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)
