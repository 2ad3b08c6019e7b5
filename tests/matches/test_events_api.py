"""GET events/ (cursor, long poll) and GET events/stream/ (Server-Sent Events)."""
import threading
import time

import pytest
from django.db import connection

from matches.models import Event
from matches.services import events as event_service

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _ids(page):
    return [e["id"] for e in page["results"]]


def test_pages_follow_the_cursor_without_gaps_or_repeats(as_alice, as_bob, alice):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    every = list(Event.objects.filter(user=alice).order_by("id").values_list("id", flat=True))
    first = as_alice.get("/api/v1/events/?limit=2").json()
    assert _ids(first) == every[:2] and first["more"] is True and first["last_id"] == every[1]
    assert f"after={every[1]}" in first["next"] and "limit=2" in first["next"]
    rest = as_alice.get(first["next"]).json()
    assert _ids(rest) == every[2:] and rest["last_id"] == every[-1] and rest["more"] is False
    done = as_alice.get(f"/api/v1/events/?after={every[-1]}").json()
    assert done["results"] == [] and done["more"] is False and done["last_id"] == every[-1]


def test_a_long_poll_with_events_pending_answers_at_once(as_alice, as_bob):
    start_match(as_alice, as_bob)
    started = time.monotonic()
    page = as_bob.get("/api/v1/events/?wait=30").json()
    assert page["results"] and time.monotonic() - started < 5


def test_a_long_poll_is_capped_by_the_server(as_alice, settings):
    settings.EVENTS_MAX_WAIT_SECONDS = 0
    assert as_alice.get("/api/v1/events/?wait=30").json()["results"] == []


@pytest.mark.parametrize("query", ["wait=31", "wait=-1", "limit=0", "limit=201", "after=-1"])
def test_bad_event_parameters_are_named(as_alice, query):
    body = as_alice.get(f"/api/v1/events/?{query}").json()
    assert body["code"] == "invalid_filter" and body["detail"]["parameter"] == query.split("=")[0]


def test_events_are_for_their_owner_only(anon):
    assert anon.get("/api/v1/events/").status_code == 401
    assert anon.get("/api/v1/events/stream/").status_code == 401


def _sse(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    return b"".join(response.streaming_content).decode()


def test_the_stream_resumes_after_last_event_id(as_alice, as_bob, alice):
    start_match(as_alice, as_bob)
    ids = list(Event.objects.filter(user=alice).order_by("id").values_list("id", "kind"))
    text = _sse(as_alice.get("/api/v1/events/stream/", HTTP_ACCEPT="text/event-stream"))
    assert text.startswith("retry: ")
    assert [line[4:] for line in text.splitlines() if line.startswith("id: ")] == [str(i) for i, _ in ids]
    assert f"event: {ids[0][1]}" in text and '"kind": "challenge_accepted"' in text
    resumed = _sse(as_alice.get("/api/v1/events/stream/", HTTP_LAST_EVENT_ID=str(ids[0][0])))
    assert [line[4:] for line in resumed.splitlines() if line.startswith("id: ")] == [str(i) for i, _ in ids[1:]]
    bad = as_alice.get("/api/v1/events/stream/", HTTP_LAST_EVENT_ID="yesterday")
    assert bad.status_code == 400 and bad.json()["detail"] == {"parameter": "Last-Event-ID"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_long_poll_wakes_when_an_event_commits(as_alice, alice, settings):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    settings.EVENTS_MAX_WAIT_SECONDS = 25
    polling = threading.Event()

    def later():
        polling.wait(5)
        time.sleep(0.3)                     # let the request begin waiting
        event_service.notify([alice], "time_warning", {"match": 1, "ply": 0, "deadline": None})
        connection.close()

    writer = threading.Thread(target=later)
    writer.start()
    started = time.monotonic()
    polling.set()
    page = as_alice.get("/api/v1/events/?wait=20").json()
    writer.join(5)
    assert [e["kind"] for e in page["results"]] == ["time_warning"]
    assert time.monotonic() - started < 8       # woken (or polled) long before the 20 s
