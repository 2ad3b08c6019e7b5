"""What the async stream views of the API and of the pages share: the Server-Sent Events format of
an event (the same JSON as `GET events/` lists it), the client's address, the stream limit's 429."""
from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, JsonResponse
from rest_framework.fields import DateTimeField
from rest_framework.throttling import BaseThrottle

from matches.converters import MAX_ID  # noqa: F401  (the largest id a cursor may name, re-exported)
from matches.errors import CODES, error_body
from matches.models import Event

from . import leases

BATCH = 100          # events read (and held) at once per stream: a slow reader's bound
KEEP_ALIVE = ": keep-alive\n\n"
_created_at = DateTimeField()


def sse(event: Event | None) -> str:
    """One event (or a keep-alive comment) in the Server-Sent Events format."""
    if event is None:
        return KEEP_ALIVE
    body = {"id": event.pk, "kind": event.kind, "payload": event.payload,
            "created_at": _created_at.to_representation(event.created_at)}
    return f"id: {event.pk}\nevent: {event.kind}\ndata: {json.dumps(body, cls=DjangoJSONEncoder)}\n\n"


def client_address(request: HttpRequest) -> str:
    """The client's address as the throttles see it (X-Forwarded-For behind NUM_PROXIES proxies)."""
    return BaseThrottle().get_ident(request)


async def lease_for(request: HttpRequest, user_id: int | None) -> leases.Lease | leases.Refusal:
    return await leases.acquire(user_id, client_address(request))


def too_many_streams(refusal: leases.Refusal) -> JsonResponse:
    message = (f"{refusal.limit} streams and waiting requests are open for your "
               f"{'account' if refusal.scope == 'user' else 'address'}; close one first")
    response = JsonResponse(error_body("too_many_streams", message, {"scope": refusal.scope, "limit": refusal.limit}),
                            status=CODES["too_many_streams"][0])
    response["Retry-After"] = "5"
    return response
