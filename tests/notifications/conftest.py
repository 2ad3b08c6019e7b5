"""Notification tests: a real SMTP server (aiosmtpd) and a real HTTP receiver, both in this process
on 127.0.0.1 (allowed for webhooks through PEARLSITE_WEBHOOK_ALLOWED_NETWORKS' setting)."""
from __future__ import annotations

import json
import socket
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller


@pytest.fixture(autouse=True)
def _fast_server(settings):
    """Tasks run in-process, passwords hash cheaply, nobody counts as recently seen."""
    from django.core.cache import cache

    import matches.tasks  # noqa: F401
    import notifications.tasks  # noqa: F401
    from pearlsite.celery import app

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AI_TIME_SCALE = 0.05
    settings.EVENTS_MAX_WAIT_SECONDS = settings.EVENT_STREAM_SECONDS = 0
    settings.NOTIFY_ACTIVE_MINUTES = 0
    settings.SITE_URL = "http://testserver"
    cache.clear()
    eager = app.conf.CELERY_TASK_ALWAYS_EAGER
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = eager


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Inbox:
    """aiosmtpd handler: keeps every message it is given."""

    def __init__(self):
        self.messages: list = []
        self.refuse = False

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 4.3.0 try again later"
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"


@pytest.fixture
def smtp_server(settings):
    """A real SMTP server on 127.0.0.1, and Django's SMTP backend pointed at it."""
    inbox = _Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    inbox.port = controller.port
    yield inbox
    controller.stop()


class Receiver:
    """A real HTTP server on 127.0.0.1: records each POST; answers with the next planned status."""

    def __init__(self):
        self.requests: list[dict] = []
        self.plan: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append({"headers": dict(self.headers), "body": body, "path": self.path})
                status = receiver.plan.pop(0) if receiver.plan else 200
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", f"http://127.0.0.1:{receiver.port}/elsewhere")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self) -> list[dict]:
        return [json.loads(r["body"]) for r in self.requests]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    server = Receiver()
    yield server
    server.close()
