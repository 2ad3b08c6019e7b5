"""The match page's live updates as async views, for the ASGI service (pearlsite/urls_asgi.py).

`live/stream/` is Server-Sent Events: `version` (`{"version"}`) whenever anything the page shows
changed (the page then fetches its parts from `live/?version=`), and, for a signed-in viewer,
their own events as `events/stream/` sends them (id, kind, JSON), so the page can tell of a
challenge or their turn in another match; `Last-Event-ID` resumes those. `live/?wait=1` is the
long poll the page falls back to, waiting here instead of in a thread. Both wake on the process's
hub (the match's channel, the viewer's events) and look at the match at least every
LIVE_STREAM_CHECK_SECONDS (a table of engines publishes no wake-ups).
"""
from __future__ import annotations

import json
import time

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches.live import fanout, leases
from matches.live.sse import BATCH, MAX_ID, lease_for, sse, too_many_streams
from matches.selectors import events
from pearlsite.metrics import stream_closed, stream_opened
from web import selectors

from . import matches

# Database work on the shared pool (matches/live/fanout.py `db_call`): the request's own thread
# never connects, a waiting page holds no connection.
_current_version = fanout.db_call(selectors.current_version)
_events_after = fanout.db_call(events.events_after)
_latest_event_id = fanout.db_call(events.latest_event_id)
_match_live = fanout.db_call(matches.match_live)


@fanout.db_call
def _viewer(request: HttpRequest):
    """The signed-in user or AnonymousUser (the session is read on the pool)."""
    user = request.user
    user.is_authenticated       # evaluates the lazy user here
    return user


def _gone(pk: int) -> JsonResponse:
    return JsonResponse({"code": "match_not_found", "message": f"no match {pk}"}, status=404)


@never_cache
@require_GET
async def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    if request.GET.get("wait") != "1":
        return await _match_live(request, pk)
    user = await _viewer(request)
    known = request.GET.get("version", "")
    lease = await lease_for(request, user.pk if user.is_authenticated else None)
    if isinstance(lease, leases.Refusal):
        return too_many_streams(lease)
    try:
        give_up = time.monotonic() + settings.WEB_LIVE_WAIT_SECONDS
        with _watch(pk, user) as waiter:
            while (version := await _current_version(pk, user)) == known:
                left = give_up - time.monotonic()
                if left <= 0:
                    break
                await waiter.wait(min(left, settings.LIVE_STREAM_CHECK_SECONDS))
    finally:
        lease.release()
    if version == "gone":
        return _gone(pk)
    request.GET = request.GET.copy()
    request.GET["wait"] = "0"           # the change is there: the page's parts, at once
    return await _match_live(request, pk)


def _watch(pk: int, user):
    return fanout.hub().watch(match_id=pk, user_id=user.pk if user.is_authenticated else None)


def _cursor(request: HttpRequest) -> int | None:
    raw = request.headers.get("Last-Event-ID", "")
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) <= MAX_ID else None


@never_cache
@require_GET
async def match_live_stream(request: HttpRequest, pk: int) -> HttpResponse:
    user = await _viewer(request)
    if await _current_version(pk, user) == "gone":
        return _gone(pk)
    after = None
    if user.is_authenticated:
        after = _cursor(request)
        if after is None:
            after = await _latest_event_id(user)
    lease = await lease_for(request, user.pk if user.is_authenticated else None)
    if isinstance(lease, leases.Refusal):
        return too_many_streams(lease)
    stream = MatchStream(pk, user, request.GET.get("version", ""), after, lease)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["X-Accel-Buffering"] = "no"
    return response


class MatchStream:
    def __init__(self, pk: int, user, version: str, after: int | None, lease: leases.Lease):
        self.pk, self.user, self.version, self.after, self.lease = pk, user, version, after, lease

    def __aiter__(self):
        return self._run()

    async def _run(self):
        stream_opened()
        try:
            yield "retry: 3000\n\n"
            heartbeat = settings.EVENT_HEARTBEAT_SECONDS
            with _watch(self.pk, self.user) as waiter:
                now = time.monotonic()
                end, next_beat = now + settings.ASYNC_STREAM_SECONDS, now + heartbeat
                while now < end:
                    news = False
                    async for part in self._news():
                        news = True
                        yield part
                    now = time.monotonic()
                    if news or now >= next_beat:
                        if not news:
                            yield sse(None)
                        next_beat = now + heartbeat
                    await waiter.wait(min(end, next_beat, now + settings.LIVE_STREAM_CHECK_SECONDS) - now)
                    now = time.monotonic()
        finally:
            stream_closed()
            self.close()

    async def _news(self):
        version = await _current_version(self.pk, self.user)
        if version != self.version:
            self.version = version
            yield f"event: version\ndata: {json.dumps({'version': version})}\n\n"
        if self.after is None:
            return
        while found := await _events_after(self.user, self.after, BATCH):
            for event in found:
                self.after = event.pk
                yield sse(event)
            if len(found) < BATCH:
                return

    def close(self) -> None:
        self.lease.release()
