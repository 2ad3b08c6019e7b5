"""The caller's event stream."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import events

from .query import Api, PageQueryIn, query_params
from .schema import errors, page_of, paginated


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.DictField()
    created_at = serializers.DateTimeField()


class EventListQueryIn(PageQueryIn):
    after = serializers.IntegerField(required=False, min_value=0, help_text="only events with a larger id")


class EventListApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: page_of(EventOut), **errors("invalid_filter", "page_not_found", auth=True)},
                   summary="Your event stream, newest first")
    @query_params(EventListQueryIn)
    def get(self, request: Request) -> Response:
        qs = events.events_for(request.user, after=request.query.get("after"))
        return paginated(request, self, qs, events.event_payload, EventOut)
