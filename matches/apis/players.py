"""Players."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import players

from .query import Api
from .schema import errors


class RatingOut(serializers.Serializer):
    game = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField(help_text="rated results counted")


class MatchCountsOut(serializers.Serializer):
    active = serializers.IntegerField()
    finished = serializers.IntegerField()
    aborted = serializers.IntegerField()


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    joined = serializers.DateTimeField()
    ratings = RatingOut(many=True)
    matches = MatchCountsOut()


class PlayerDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerOut, **errors("player_not_found")}, summary="A player's profile and ratings")
    def get(self, request: Request, username: str) -> Response:
        return Response(PlayerOut(players.player_profile(username)).data)
