"""`events/stream/` from a real uvicorn process on PostgreSQL with a private redis-server: a client
resuming with Last-Event-ID across a server restart and a Redis outage gets every event once, in
order; a client that stops reading is dropped without the server buffering its events. Skipped
without PostgreSQL or a `redis-server` binary."""
from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time

import pytest
from django.db import connection

from matches import wakeup
from matches.models import Event
from matches.services import events as event_service
from tests.processes import RedisServer, free_port

from .test_engine_job_faults import ROOT, _wait

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


class Server:
    """uvicorn serving pearlsite.asgi on the test database."""

    def __init__(self, redis_url: str, tmp, **env: str):
        db = connection.settings_dict
        self.port = free_port()
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "PEARLSITE_VAR_DIR": str(tmp),
                    "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
                    "REDIS_URL": redis_url, "CELERY_BROKER_URL": "memory://", "DJANGO_DEBUG": "false",
                    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                    "PEARLSITE_HTTPS": "false", "PEARLSITE_STREAM_POLL_SECONDS": "0.2",
                    "PEARLSITE_EVENT_HEARTBEAT_SECONDS": "1", **env}
        self.proc = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "pearlsite.asgi:application", "--port",
                                      str(self.port), "--log-level", "warning"], cwd=ROOT, env=self.env)
        _wait(self._answers, 30, "uvicorn did not start", every=0.1)

    def _answers(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def redis_server(tmp_path, monkeypatch, settings):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    server = RedisServer(tmp_path)
    server.start()
    settings.REDIS_URL = server.url                 # this process publishes there
    monkeypatch.setattr(wakeup, "_client", None)
    monkeypatch.setattr(wakeup, "_quiet_until", 0.0)
    yield server
    server.stop()


class Reader:
    """An EventSource in miniature: reads events, remembers the last id, resumes with it."""

    def __init__(self, port: int, token: str):
        self.port, self.token, self.last_id, self.ids = port, token, None, []
        self.response = None

    def connect(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Authorization": f"Token {self.token}"}
        if self.last_id:
            headers["Last-Event-ID"] = self.last_id
        conn.request("GET", "/api/v1/events/stream/", headers=headers)
        self.response = conn.getresponse()
        assert self.response.status == 200

    def next_event(self) -> dict:
        fields: dict = {}
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line == "" and "event" in fields:
                self.last_id = fields["id"]
                self.ids.append(int(fields["id"]))
                return json.loads(fields["data"])
            if line == "":
                fields = {}
            elif not line.startswith(":") and ": " in line:
                key, value = line.split(": ", 1)
                fields[key] = value

    def close(self) -> None:
        self.response.close()


def _warn(alice, n: int) -> None:
    event_service.notify([alice], "time_warning", {"match": n, "ply": 0, "deadline": None})


def test_a_resumed_stream_gets_every_event_once_across_a_restart_and_a_redis_outage(redis_server, alice, tmp_path):
    server = Server(redis_server.url, tmp_path)
    server.start()
    reader = Reader(server.port, alice.api_key)
    try:
        reader.connect()
        _warn(alice, 1)
        started = time.monotonic()
        assert reader.next_event()["payload"]["match"] == 1
        woken = time.monotonic() - started
        reader.close()

        server.stop()                               # the server restarts; an event meanwhile
        _warn(alice, 2)
        server.start()
        reader.connect()
        assert reader.next_event()["payload"]["match"] == 2

        redis_server.stop()                         # Redis goes: publishing gives up at once
        started = time.monotonic()
        _warn(alice, 3)
        publish_seconds = time.monotonic() - started
        assert reader.next_event()["payload"]["match"] == 3        # the server polls the database
        polled = time.monotonic() - started

        redis_server.start()                        # Redis returns: the server subscribes again
        wakeup._quiet_until = 0.0
        time.sleep(3)
        _warn(alice, 4)
        assert reader.next_event()["payload"]["match"] == 4
        reader.close()
    finally:
        server.stop()
    every = list(Event.objects.filter(user=alice, kind="time_warning").order_by("id").values_list("id", flat=True))
    print(f"\nwoken by Redis in {woken * 1000:.0f} ms; Redis down: publish {publish_seconds * 1000:.0f} ms, "
          f"event read from the database after {polled * 1000:.0f} ms")
    assert reader.ids == every                      # none lost, none repeated, in order
    assert woken < 2 and publish_seconds < 1 and polled < 3


def test_a_client_that_stops_reading_is_dropped_and_its_events_are_not_buffered(redis_server, alice, tmp_path):
    server = Server(redis_server.url, tmp_path, PEARLSITE_STREAM_SEND_TIMEOUT="2", PEARLSITE_STREAMS_PER_USER="1")
    payload = {"match": 1, "ply": 0, "deadline": None, "filler": "x" * 4000}
    Event.objects.bulk_create([Event(user=alice, kind="time_warning", payload=payload) for _ in range(3000)])
    total = 3000 * 4000
    server.start()
    try:
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.connect(("127.0.0.1", server.port))
        slow.sendall(f"GET /api/v1/events/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     f"Authorization: Token {alice.api_key}\r\n\r\n".encode())
        time.sleep(5)                               # reads nothing for longer than the timeout
        received = 0
        slow.settimeout(10)
        while chunk := slow.recv(1 << 16):          # what the kernel buffers held, then the end
            received += len(chunk)
        slow.close()
        again = Reader(server.port, alice.api_key)   # its lease is free again (one stream allowed)
        again.last_id = str(Event.objects.filter(user=alice).latest("id").pk)
        again.connect()
        again.close()
    finally:
        server.stop()
    print(f"\nslow reader: dropped after receiving {received / 2**20:.1f} MB of {total / 2**20:.1f} MB")
    assert received < total / 2
