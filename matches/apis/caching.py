"""Cheap polling: weak ETags on what clients poll (match detail, match lists, events), so an
unchanged answer is a bodiless 304 to `If-None-Match`.

A tag is a hash of what the answer is made from (row versions, the caller, the query), computed
before the body is rendered. Tags are weak: a running clock's `remaining` counts down between two
equal tags (count down from `deadline`)."""
from __future__ import annotations

import hashlib
from typing import Callable

from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors.matches import seats_of

# For extend_schema: the answer a poller that sends If-None-Match may get. (The header is not
# declared as a parameter: a declared header set makes every other header "unexpected".)
ETAG_PARAMETERS: list = []
ETAG_RESPONSES = {304: OpenApiResponse(description=(
    "not modified since the ETag you sent in If-None-Match (no body)"))}


def weak_etag(*parts) -> str:
    return 'W/"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _matches(request: Request, etag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    if header.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == opaque for tag in header.split(","))


def conditional(request: Request, etag: str, render: Callable[[], Response]) -> Response:
    """304 if the client holds `etag`, else `render()`; either way tagged, private to the caller."""
    response = Response(status=304) if _matches(request, etag) else render()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"
    return response


def viewer_key(request: Request) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def match_version(match) -> tuple:
    """What a match payload is made from: the row's version and each seat's offer and clock."""
    return (match.pk, match.updated_at.isoformat(),
            tuple((s.seat, s.offer, s.offer_ply, s.clock) for s in seats_of(match)))
