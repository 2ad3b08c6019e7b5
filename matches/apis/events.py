"""The caller's event stream: a page after a cursor (optionally waiting for the next events), or
Server-Sent Events for bots that keep a connection open."""
from __future__ import annotations

from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import replace_query_param

from matches import wakeup
from matches.converters import MAX_ID
from matches.errors import ServiceError
from matches.live.sse import sse
from matches.models import Event
from matches.selectors import events
from pearlsite import metrics

from .caching import ETAG_PARAMETERS, ETAG_RESPONSES, conditional, weak_etag
from .query import Api, query_params
from .schema import errors, rendered

_SLOTS = wakeup.Slots(settings.EVENTS_WAIT_SLOTS)

KIND_PAYLOADS = {
    "challenge_received": "{challenge, game, variant, from}",
    "challenge_accepted": "{challenge, by}",
    "challenge_declined": "{challenge, by}",
    "challenge_cancelled": "{challenge}",
    "challenge_expired": "{challenge}",
    "challenge_seat_left": "{challenge, by}: someone who took an open seat left it (open again)",
    "match_started": "{match, game, variant}",
    "your_turn": "{match, ply, deadline}: you are to move",
    "move": "{match, ply, seat, move}: another seat moved",
    "offer_made": "{match, offer (draw|takeback), by, seat, ply}",
    "offer_withdrawn": "{match, offer, by, seat}",
    "offer_accepted": "{match, offer, by, seat, ply}",
    "offer_declined": "{match, offer, by, seat}",
    "offer_expired": "{match, offer, seat, ply}: a move was played, the offer lapsed",
    "match_finished": "{match, result}",
    "time_warning": "{match, ply, deadline}: your deadline is near",
    "analysis_done": "{analysis, match}",
    "position_done": "{position, status (done|failed)}: the lines you asked for in a position (analysis board)",
    "ladder_forfeit": "{ladder, challenge, forfeited_by}: a ladder challenge went unanswered",
    "tournament_round": "{tournament, round}: a new round is paired and its games started",
    "tournament_finished": "{tournament}",
    "chat_message": "{id, match, room, author, text, hidden, ply, created_at}: another seat wrote in the "
                    "players' room (never from a player you blocked)",
}
assert set(KIND_PAYLOADS) == set(Event.Kind.values)


class EventOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="grows with every event; resume with ?after=<id>")
    kind = serializers.ChoiceField(choices=Event.Kind.choices, help_text="payload by kind: " + "; ".join(
        f"`{kind}` {shape}" for kind, shape in KIND_PAYLOADS.items()))
    payload = serializers.DictField()
    created_at = serializers.DateTimeField()


class EventPageOut(serializers.Serializer):
    results = EventOut(many=True, help_text="oldest first")
    last_id = serializers.IntegerField(help_text="the cursor: the last id returned (or the one given)")
    next = serializers.URLField(help_text="this request after the cursor: follow it to read on")
    more = serializers.BooleanField(help_text="more events are waiting after this page")


class EventListQueryIn(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_ID,
                                     help_text="the last event id you have seen (0: from the start)")
    limit = serializers.IntegerField(required=False, default=50, min_value=1, max_value=200)
    wait = serializers.IntegerField(required=False, default=0, min_value=0, max_value=30, help_text=(
        "seconds to wait for an event when none is pending (long poll); the answer comes as soon "
        "as one arrives"))


def _wait_for(request: Request, after: int, limit: int, seconds: float) -> list[Event]:
    """Wait for the caller's next events, if a waiting slot is free (else answer at once)."""
    seconds = min(seconds, settings.EVENTS_MAX_WAIT_SECONDS)
    if seconds <= 0:
        return []
    defer = getattr(request, "defer_wait", None)
    if defer is not None:       # the ASGI view waits instead, without a thread (apis/streams.py)
        defer(after, seconds)
        return []
    if not _SLOTS.acquire():
        return []
    try:
        with wakeup.Listener(request.user.pk) as listener:
            return events.wait_for_events(request.user, after, limit, seconds, wait=listener.wait,
                                          interval=listener.interval)
    finally:
        _SLOTS.release()


class EventListApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: EventPageOut, **ETAG_RESPONSES, **errors("invalid_filter", "too_many_streams",
                                                                              auth=True)},
                   parameters=ETAG_PARAMETERS,
                   summary="Your events after a cursor, oldest first (long poll with ?wait=)")
    @query_params(EventListQueryIn)
    def get(self, request: Request) -> Response:
        after, limit = request.query["after"], request.query["limit"]
        found = events.events_after(request.user, after, limit + 1)
        if not found and request.query["wait"]:
            found = _wait_for(request, after, limit + 1, request.query["wait"])
        page, more = found[:limit], len(found) > limit
        last_id = page[-1].pk if page else after
        body = {"results": [events.event_payload(e) for e in page], "last_id": last_id, "more": more,
                "next": replace_query_param(request.build_absolute_uri(), "after", last_id)}
        etag = weak_etag("events", request.user.pk, after, limit, [e.pk for e in page], more)
        return conditional(request, etag, lambda: Response(rendered(EventPageOut, body)))


class JsonErrors(BaseContentNegotiation):
    """The stream answers `text/event-stream` whatever the client accepts (EventSource sends that
    Accept header); only refusals go through a renderer, and they are JSON."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        wanted = format_suffix or request.query_params.get(api_settings.URL_FORMAT_OVERRIDE)
        if wanted not in (None, "json", "sse", "event-stream"):
            raise NotAcceptable(f"no {wanted!r} format here: the stream is text/event-stream")
        return renderers[0], renderers[0].media_type


class EventStreamQueryIn(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_ID,
                                     help_text="the last event id you have seen; the Last-Event-ID header wins")


def _last_event_id(request: Request, default: int) -> int:
    raw = request.headers.get("Last-Event-ID")
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) > MAX_ID:
        raise ServiceError("invalid_filter", "Last-Event-ID must be an event id", detail={"parameter": "Last-Event-ID"})
    return int(raw)


class EventStreamApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JsonErrors

    @extend_schema(
        summary="Your events as Server-Sent Events (for bots)",
        description=("A text/event-stream to read with any Server-Sent Events client. Each event is `id:`, "
                     "`event:` (the kind) and `data:` (the event as JSON, as GET events/ lists it); `: keep-alive` "
                     "comments while quiet. The server ends the stream after a while (hours on the streaming "
                     "service, PEARLSITE_ASYNC_STREAM_SECONDS; PEARLSITE_EVENT_STREAM_SECONDS on the threaded "
                     "one): reconnect with the last id as `Last-Event-ID`."),
        parameters=[OpenApiParameter("Last-Event-ID", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
                                     pattern=r"^[0-9]*$", description=(
                                         "the last event id received (EventSource sends it on reconnecting): "
                                         "resume after it; wins over `after`"))],
        responses={(200, "text/event-stream"): OpenApiResponse(OpenApiTypes.STR, description=(
            "Server-Sent Events (UTF-8 text, not JSON): `retry:` first, then one block per event")),
            **errors("invalid_filter", "too_many_streams", auth=True)})
    @query_params(EventStreamQueryIn)
    def get(self, request: Request) -> StreamingHttpResponse:
        after = _last_event_id(request, request.query["after"])
        # Under ASGI the body is apis/streams.py's async stream; under WSGI this thread's.
        body = getattr(request, "async_stream_body", None) or _stream
        response = StreamingHttpResponse(body(request.user, after), content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"      # proxies must pass each event on at once
        return response


def _stream(user, after: int):
    waiting = _SLOTS.acquire()
    metrics.stream_opened()
    try:
        yield "retry: 3000\n\n"
        with wakeup.Listener(user.pk) as listener:
            duration = settings.EVENT_STREAM_SECONDS if waiting else 0
            for event in events.follow(user, after, duration=duration, heartbeat=settings.EVENT_HEARTBEAT_SECONDS,
                                       wait=listener.wait, interval=listener.interval):
                yield sse(event)
    finally:
        metrics.stream_closed()
        if waiting:
            _SLOTS.release()
