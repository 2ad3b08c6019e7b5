"""Conditional moves: your prepared replies in a match (seen by you only)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

import games
from matches.converters import MAX_ID
from matches.errors import ServiceError
from matches.selectors import matches as match_selectors
from matches.selectors.conditional import conditional_payload
from matches.services import conditional

from .query import Api
from .schema import errors, valid

LINE_HELP = ("[their move, your reply, their next move, your reply, ...] from the current position, "
             "in notation")


class ConditionalIn(serializers.Serializer):
    lines = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=200), max_length=conditional.MAX_LINE_PLIES),
        max_length=conditional.MAX_LINES, help_text=f"the lines to store (they replace what you had): {LINE_HELP}")
    ply = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID,
                                   help_text="the ply the match is at (409 stale_ply if it moved on)")


class ConditionalOut(serializers.Serializer):
    ply = serializers.IntegerField(help_text="the position the lines start from (moves played)")
    lines = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), help_text=LINE_HELP)
    tree = serializers.DictField(help_text='the same as a tree: {their move: {"reply": your move, "then": {...}}}')


def _own_seat(request: Request, pk: int):
    match = match_selectors.get_match(pk)
    seat = match_selectors.viewer_seat(match, request.user)
    if seat is None:
        raise ServiceError("not_seated", "conditional moves are private to the player who prepares them")
    if games.get_game(match.game).has_hidden_information or match.players != 2:
        raise ServiceError("conditional_unavailable", "conditional moves are for two-seat games without hidden "
                           "information")
    return match, seat


READ_ERRORS = ("match_not_found", "not_seated", "conditional_unavailable")


class ConditionalApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ConditionalOut, **errors(*READ_ERRORS, auth=True)},
                   summary="Your conditional moves in this match")
    def get(self, request: Request, pk: int) -> Response:
        match, seat = _own_seat(request, pk)
        return Response(ConditionalOut(conditional_payload(match, seat)).data)

    @extend_schema(request=ConditionalIn, summary="Store your conditional moves (replacing any you had)",
                   responses={200: ConditionalOut, **errors(*READ_ERRORS, "match_finished", "your_turn", "stale_ply",
                                                            "invalid_conditional", body=True, auth=True)})
    def put(self, request: Request, pk: int) -> Response:
        data = valid(ConditionalIn, request)
        conditional.conditional_set(match_id=pk, user=request.user, lines=data["lines"], ply=data.get("ply"))
        match, seat = _own_seat(request, pk)
        return Response(ConditionalOut(conditional_payload(match, seat)).data)

    @extend_schema(request=None, responses={204: None, **errors("match_not_found", "not_seated", auth=True)},
                   summary="Forget your conditional moves")
    def delete(self, request: Request, pk: int) -> Response:
        conditional.conditional_clear(match_id=pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
