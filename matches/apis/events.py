"""The caller's event stream."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.errors import ServiceError
from matches.selectors import events

from .schema import PAGE_PARAMETER, errors, page_of, paginated


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.DictField()
    created_at = serializers.DateTimeField()


class EventListApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("after", int, description="only events with a larger id"),
                               PAGE_PARAMETER],
                   responses={200: page_of(EventOut), **errors("invalid_filter", auth=True)},
                   summary="Your event stream, newest first")
    def get(self, request: Request) -> Response:
        after = request.query_params.get("after")
        if after is not None and not (after.isascii() and after.isdigit()):
            raise ServiceError("invalid_filter", "after must be an event id")
        qs = events.events_for(request.user, after=int(after) if after is not None else None)
        return paginated(request, self, qs, events.event_payload, EventOut)
