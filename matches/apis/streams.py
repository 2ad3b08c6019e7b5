"""The waiting event endpoints as async views, for the ASGI service (pearlsite/urls_asgi.py).

Each runs the DRF view of the same path (apis/events.py) first, in a thread for a moment, so the
authentication (token or session), throttles, parameters, error bodies and schema are that view's;
only the waiting is done here, as a coroutine woken by the process's hub (matches/live/fanout.py),
doing its database work on the loop's small shared thread pool (the view included), so a waiting
client holds no database connection and runs no thread (Django's ASGI handler keeps a thread per
request for the synchronous parts of the middleware; it sits idle and never connects). A stream or a waiting long
poll holds a lease (matches/live/leases.py): past the per-account or per-address limit it is
refused with 429 `too_many_streams`.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from matches.live import fanout, leases
from matches.live.sse import BATCH, lease_for, sse, too_many_streams
from matches.selectors import events
from pearlsite import metrics

from .events import EventListApi, EventStreamApi

# On the shared pool, whose threads keep their database connections: opening a stream costs no
# new connection, and the request's own thread never holds one.
_event_list_view = fanout.db_call(EventListApi.as_view())
_event_stream_view = fanout.db_call(EventStreamApi.as_view())
_events_after = fanout.db_call(events.events_after)


class EventStream:
    """The body of `events/stream/` under ASGI: every event after the cursor as it commits, a
    keep-alive comment after each quiet heartbeat interval, for up to ASYNC_STREAM_SECONDS.
    At most BATCH events are read at a time and each is handed on only when the server has sent
    the last (the ASGI server's flow control), so a slow reader never makes the buffer grow."""

    def __init__(self, user, after: int):
        self.user, self.after = user, after
        self.lease: leases.Lease | None = None

    def __aiter__(self):
        return self._run()

    async def _run(self):
        metrics.stream_opened()
        try:
            yield "retry: 3000\n\n"
            heartbeat = settings.EVENT_HEARTBEAT_SECONDS
            with fanout.hub().watch(user_id=self.user.pk) as waiter:
                end = time.monotonic() + settings.ASYNC_STREAM_SECONDS
                next_beat = time.monotonic() + heartbeat
                while True:
                    found = await _events_after(self.user, self.after, BATCH)
                    for event in found:
                        self.after = event.pk
                        yield sse(event)
                    now = time.monotonic()
                    if found:
                        next_beat = now + heartbeat
                        if len(found) == BATCH:
                            continue
                    if now >= end:
                        return
                    if now >= next_beat:
                        yield sse(None)
                        next_beat = now + heartbeat
                    await waiter.wait(min(end, next_beat) - now)
        finally:
            metrics.stream_closed()
            self.close()

    def close(self) -> None:
        """Also called by Django when the response is closed before it was ever read."""
        if self.lease is not None:
            self.lease.release()


async def event_stream(request: HttpRequest) -> HttpResponse:
    opened: list[EventStream] = []

    def body(user, after: int) -> EventStream:
        opened.append(EventStream(user, after))
        return opened[0]

    request.async_stream_body = body
    response = await _event_stream_view(request)
    if not opened:
        return response                 # refused by the view: 400, 401, 429 throttled
    lease = await lease_for(request, request.user.pk)
    if isinstance(lease, leases.Refusal):
        return too_many_streams(lease)
    opened[0].lease = lease
    return response


async def event_list(request: HttpRequest) -> HttpResponse:
    """`events/`: a long poll (`?wait=`) with nothing pending waits here, then the view answers."""
    asked: dict = {}
    request.defer_wait = lambda after, seconds: asked.update(after=after, seconds=seconds)
    response = await _event_list_view(request)
    if not asked:
        return response
    lease = await lease_for(request, request.user.pk)
    if isinstance(lease, leases.Refusal):
        return too_many_streams(lease)
    try:
        found = await wait_for_events(request.user, asked["after"], asked["seconds"])
    finally:
        lease.release()
    if not found:
        return response                 # the empty page the view answered
    request.defer_wait = None
    return await _event_list_view(request)


async def wait_for_events(user, after: int, seconds: float) -> bool:
    """Whether the user has an event after `after` within `seconds` (woken by the hub)."""
    give_up = time.monotonic() + seconds
    with fanout.hub().watch(user_id=user.pk) as waiter:
        while True:
            if await _events_after(user, after, 1):
                return True
            left = give_up - time.monotonic()
            if left <= 0:
                return False
            await waiter.wait(left)
