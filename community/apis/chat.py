"""Match chat: read a room, write in yours (rules: community.selectors.chat)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api, query_params
from matches.apis.schema import errors, valid

from ..selectors import chat as selectors
from ..services import chat


class ChatQueryIn(serializers.Serializer):
    room = serializers.ChoiceField(choices=selectors.ROOMS, required=False, default="players",
                                   help_text="players (the seats) or spectators (everyone else)")
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**63 - 1,
                                     help_text="only messages with a larger id (for polling)")


class ChatIn(serializers.Serializer):
    room = serializers.ChoiceField(choices=selectors.ROOMS, default="players")
    text = serializers.CharField(trim_whitespace=False, allow_blank=True, max_length=10_000,
                                 help_text="plain text (shown as text, never as HTML)")


class ChatMessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    room = serializers.CharField()
    author = serializers.CharField()
    text = serializers.CharField(help_text="empty when staff hid the message")
    hidden = serializers.BooleanField()
    ply = serializers.IntegerField(help_text="the move the message followed (0: before the first)")
    created_at = serializers.DateTimeField()


class MatchChatApi(Api):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_scopes = {"POST": "chat"}

    @extend_schema(responses={200: ChatMessageOut(many=True), **errors("match_not_found", "chat_closed",
                                                                        "invalid_filter")},
                   summary="A room of the match's chat (up to 100 messages after `after`)")
    @query_params(ChatQueryIn)
    def get(self, request: Request, pk: int) -> Response:
        rows = selectors.chat_messages(match_id=pk, user=request.user, room=request.query["room"],
                                       after=request.query["after"])
        return Response(ChatMessageOut([selectors.message_payload(m) for m in rows], many=True).data)

    @extend_schema(request=ChatIn, responses={201: ChatMessageOut, **errors(
        "match_not_found", "chat_closed", "message_empty", "message_too_long", body=True, auth=True)},
        summary="Write in the match's chat")
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ChatIn, request)
        message = chat.chat_post(match_id=pk, user=request.user, room=data["room"], text=data["text"])
        return Response(ChatMessageOut(selectors.message_payload(message)).data, status=status.HTTP_201_CREATED)
