"""The waiting endpoints as the ASGI service serves them (pearlsite/urls_asgi.py), through Django's
AsyncClient: streams that follow new events and resume, long polls woken by a commit, the limits."""
import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from matches.models import Event
from matches.services import events as event_service

from .helpers import start_match

# The async views read in a thread pool (each thread its own connection): rows must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.STREAM_POLL_SECONDS = 0.1
    settings.STREAM_SAFETY_POLL_SECONDS = 0.2
    settings.EVENT_HEARTBEAT_SECONDS = 1
    settings.EVENTS_MAX_WAIT_SECONDS = 10


class _client:
    """An AsyncClient that sends `user`'s token on every request."""

    def __init__(self, user=None):
        self.auth = {"Authorization": f"Token {user.api_key}"} if user is not None else {}

    async def get(self, path, headers=None):
        return await AsyncClient().get(path, headers={**self.auth, **(headers or {})})


async def _read(response, count: int, seconds: float = 5.0) -> list[dict]:
    """The next `count` events of an SSE response (comments and the retry line skipped)."""
    found: list[dict] = []
    buffer = ""
    parts = aiter(response.streaming_content)
    while len(found) < count:
        buffer += (await asyncio.wait_for(anext(parts), seconds)).decode()
        *blocks, buffer = buffer.split("\n\n")
        for block in blocks:
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
            if "event" in fields:
                found.append(fields)
    return found


_notify = sync_to_async(event_service.notify)


async def _close(response) -> None:
    """What the ASGI handler does when a stream ends: close the response (which frees its lease)."""
    if response.streaming:
        await sync_to_async(response.close)()


def test_a_stream_sends_pending_then_new_events_and_resumes_after_last_event_id(as_alice, as_bob, alice):
    start_match(as_alice, as_bob)
    ids = list(Event.objects.filter(user=alice).order_by("id").values_list("id", flat=True))

    async def scenario():
        response = await _client(alice).get("/api/v1/events/stream/", headers={"Last-Event-ID": str(ids[0])})
        assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
        pending = await _read(response, len(ids) - 1)
        assert [int(e["id"]) for e in pending] == ids[1:]
        await _notify([alice], "time_warning", {"match": 1, "ply": 0, "deadline": None})
        (new,) = await _read(response, 1)
        assert new["event"] == "time_warning" and json.loads(new["data"])["kind"] == "time_warning"
        await _close(response)
        return int(new["id"])

    last = async_to_sync(scenario)()
    assert last == Event.objects.filter(user=alice).latest("id").pk


def test_a_quiet_stream_sends_keep_alive_comments(alice):
    async def scenario():
        response = await _client(alice).get("/api/v1/events/stream/")
        parts = aiter(response.streaming_content)
        assert (await anext(parts)).startswith(b"retry: ")
        beat = await asyncio.wait_for(anext(parts), 5)
        await _close(response)
        return beat

    assert async_to_sync(scenario)() == b": keep-alive\n\n"


def test_refusals_keep_the_api_error_shape(alice):
    async def scenario():
        anon = await AsyncClient().get("/api/v1/events/stream/")
        bad = await _client(alice).get("/api/v1/events/stream/", headers={"Last-Event-ID": "yesterday"})
        poll = await AsyncClient().get("/api/v1/events/?wait=5")
        return anon, bad, poll

    anon, bad, poll = async_to_sync(scenario)()
    assert anon.status_code == 401 and anon.json()["code"] == "not_authenticated"
    assert bad.status_code == 400 and bad.json()["detail"] == {"parameter": "Last-Event-ID"}
    assert poll.status_code == 401


def test_streams_past_the_per_user_limit_are_refused_until_one_closes(alice, settings):
    settings.STREAMS_PER_USER = 2

    async def scenario():
        client = _client(alice)
        first = await client.get("/api/v1/events/stream/")
        second = await client.get("/api/v1/events/stream/")
        refused = await client.get("/api/v1/events/stream/")
        poll = await client.get("/api/v1/events/?wait=5")
        await anext(aiter(first.streaming_content))         # started: the lease is its own now
        await _close(first)
        await asyncio.sleep(0.05)
        again = await client.get("/api/v1/events/stream/")
        statuses = [r.status_code for r in (first, second, refused, poll, again)]
        for response in (second, again):
            await _close(response)
        return statuses, refused

    statuses, refused = async_to_sync(scenario)()
    assert statuses == [200, 200, 429, 429, 200]
    assert refused.json()["code"] == "too_many_streams"
    assert refused.json()["detail"] == {"scope": "user", "limit": 2} and refused["Retry-After"]


def test_streams_past_the_per_address_limit_are_refused(alice, bob, settings):
    settings.STREAMS_PER_USER, settings.STREAMS_PER_ADDRESS = 5, 1

    async def scenario():
        held = await _client(alice).get("/api/v1/events/stream/")
        other = await _client(bob).get("/api/v1/events/stream/")
        await _close(held)
        return other

    other = async_to_sync(scenario)()
    assert other.status_code == 429 and other.json()["detail"]["scope"] == "address"


def test_a_long_poll_waits_without_a_thread_and_wakes_when_an_event_commits(alice):
    async def scenario():
        loop = asyncio.get_running_loop()
        started = loop.time()
        poll = asyncio.ensure_future(_client(alice).get("/api/v1/events/?wait=10"))
        await asyncio.sleep(0.5)
        assert not poll.done()
        await _notify([alice], "time_warning", {"match": 1, "ply": 0, "deadline": None})
        response = await asyncio.wait_for(poll, 5)
        return response, loop.time() - started

    response, seconds = async_to_sync(scenario)()
    assert [e["kind"] for e in response.json()["results"]] == ["time_warning"]
    assert seconds < 3


def test_a_long_poll_with_nothing_new_answers_an_empty_page_after_its_wait(alice):
    async def scenario():
        return await _client(alice).get("/api/v1/events/?wait=1")

    body = async_to_sync(scenario)().json()
    assert body["results"] == [] and body["more"] is False


def test_with_redis_down_each_process_keeps_its_own_count(alice, settings, monkeypatch):
    from matches.live import leases

    settings.REDIS_URL = "redis://127.0.0.1:9/0"           # nothing listens there
    settings.STREAMS_PER_USER = 1
    monkeypatch.setattr(leases, "_quiet_until", 0.0)

    async def scenario():
        client = _client(alice)
        first = await client.get("/api/v1/events/stream/")
        second = await client.get("/api/v1/events/stream/")
        await _close(first)
        await asyncio.sleep(0.05)
        third = await client.get("/api/v1/events/stream/")
        await _close(third)
        return first.status_code, second.status_code, third.status_code

    assert async_to_sync(scenario)() == (200, 429, 200)
