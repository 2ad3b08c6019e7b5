"""The game catalogue."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import catalogue

from .query import Api
from .schema import errors


class OptionOut(serializers.Serializer):
    default = serializers.JSONField(allow_null=True)
    doc = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)


class GameOut(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    has_hidden_information = serializers.BooleanField()
    options = serializers.DictField(child=OptionOut(), help_text="option name → its default, doc and range")
    variants = serializers.DictField(child=serializers.DictField(), help_text="variant name → the options it sets")
    summary = serializers.CharField()
    rules_page = serializers.CharField()
    ai_levels = serializers.ListField(child=serializers.CharField(), help_text='engine seats are "ai:<level>"')


class GameListApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameOut(many=True), **errors()}, summary="The game catalogue",
                   operation_id="games_list")
    def get(self, request: Request) -> Response:
        return Response(GameOut(catalogue.catalogue(), many=True).data)


class GameDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameOut, **errors("game_not_found")},
                   summary="One game: seats, options, variants, rules summary")
    def get(self, request: Request, slug: str) -> Response:
        return Response(GameOut(catalogue.game_detail(slug)).data)
