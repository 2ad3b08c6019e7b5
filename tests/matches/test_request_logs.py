"""Request ids and log lines: a sane incoming X-Request-ID is kept and echoed, junk is replaced;
each request and each Celery task writes one JSON line; the id of the request that sent a task is
the task's (eagerly, and through a real worker's message headers)."""
from __future__ import annotations

import json
import logging
import re
import time

import pytest
from django.conf import settings
from pythonjsonlogger.json import JsonFormatter

from matches.models import Match
from pearlsite import request_ids, task_signals

from .helpers import start_match
from .test_concurrency_and_worker import celery_worker_process  # noqa: F401  (the real worker fixture)

pytestmark = pytest.mark.django_db
NEW_ID = re.compile(r"^[0-9a-f]{32}$")


def _json_line(record: logging.LogRecord) -> dict:
    """The record as the configured JSON formatter (LOG_FORMAT=json) writes it."""
    options = {k: v for k, v in settings.LOGGING["formatters"]["json"].items() if k != "()"}
    request_ids.RequestIdFilter().filter(record)
    return json.loads(JsonFormatter(**options).format(record))


def _lines(caplog, logger: str) -> list[dict]:
    return [_json_line(r) for r in caplog.records if r.name == logger]


@pytest.mark.parametrize("given, kept", [
    ("3f2a9c1e-77aa-4c1b-9a1e-5e2b8f0d1c11", True),
    ("edge.proxy:0042/trace=abc+1", True),
    ("short", False),                                   # under 8 characters
    ("x" * 129, False),                                 # over 128
    ("has spaces in it", False),
    ("line\nbreak-injected-id", False),
    ('{"json":"in-a-header"}', False),
])
def test_an_incoming_request_id_is_kept_only_when_sane(anon, given, kept):
    response = anon.get("/api/v1/games/", HTTP_X_REQUEST_ID=given)
    echoed = response["X-Request-ID"]
    assert (echoed == given) is kept
    if not kept:
        assert NEW_ID.match(echoed)


def test_each_request_writes_one_json_line(as_alice, caplog):
    caplog.set_level(logging.INFO, logger="pearlsite.requests")
    match_id = start_match(as_alice, opponents=["ai:random"], seat=1)
    caplog.clear()
    response = as_alice.get(f"/api/v1/matches/{match_id}/", HTTP_X_REQUEST_ID="req-0123456789")
    assert response.status_code == 200 and response["X-Request-ID"] == "req-0123456789"
    [line] = _lines(caplog, "pearlsite.requests")
    assert line["request_id"] == "req-0123456789"
    assert line["user_id"] == as_alice.user.pk
    assert line["route"] == "api/v1/matches/<id:pk>/"
    assert line["method"] == "GET" and line["status"] == 200
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["level"] == "INFO" and line["time"]


def test_unknown_paths_and_anonymous_callers_are_logged_too(anon, caplog):
    caplog.set_level(logging.INFO, logger="pearlsite.requests")
    anon.get("/api/v1/no-such-thing/")
    [line] = _lines(caplog, "pearlsite.requests")
    assert line["route"] == "<unmatched>" and line["status"] == 404 and line["user_id"] is None
    assert NEW_ID.match(line["request_id"])


def test_a_task_carries_the_request_id_and_writes_one_line(as_alice, caplog, django_capture_on_commit_callbacks):
    caplog.set_level(logging.INFO)
    match_id = start_match(as_alice, opponents=["ai:random"])
    caplog.clear()
    token = request_ids.bind("move-request-42")     # on_commit runs inside the request in production
    try:
        with django_capture_on_commit_callbacks(execute=True):
            as_alice.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json",
                          HTTP_X_REQUEST_ID="move-request-42")
    finally:
        request_ids.unbind(token)
    assert Match.objects.get(pk=match_id).ply == 2
    [task] = _lines(caplog, "pearlsite.tasks")
    assert task["task"] == "ai_workers.tasks.engine_reply" and task["outcome"] == "success"
    assert task["request_id"] == "move-request-42" and task["task_id"] and task["duration_ms"] >= 0
    assert all(line["request_id"] == "move-request-42" for line in _lines(caplog, "ai_workers.tasks"))
    assert "data" not in task          # Celery's own extras (a task's arguments) stay out of the logs


def test_the_request_id_goes_into_the_message_headers():
    headers = {"task": "ai_workers.tasks.engine_reply"}
    token = request_ids.bind("sent-by-request-7")
    try:
        task_signals._send_request_id(headers=headers)
    finally:
        request_ids.unbind(token)
    assert headers[task_signals.HEADER] == "sent-by-request-7"
    outside = {}
    task_signals._send_request_id(headers=outside)
    assert outside == {}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_logs_the_request_id_of_the_move(as_alice, celery_worker_process):  # noqa: F811
    match_id = start_match(as_alice, opponents=["ai:random"])
    as_alice.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5", "ply": 0}, format="json",
                  HTTP_X_REQUEST_ID="worker-trace-0001")
    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match_id).ply < 2:
        assert time.monotonic() < deadline, "no engine reply within 60 s"
        time.sleep(0.1)
    celery_worker_process.terminate()
    output = celery_worker_process.communicate(timeout=30)[0]
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    [task] = [line for line in lines if line.get("logger") == "pearlsite.tasks"
              and line.get("task") == "ai_workers.tasks.engine_reply"]
    assert task["request_id"] == "worker-trace-0001" and task["outcome"] == "success"
