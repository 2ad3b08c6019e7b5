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
    choices = serializers.ListField(child=serializers.JSONField(), required=False,
                                    help_text="the values admitted (beside a range: its named values)")
    min = serializers.IntegerField(required=False, help_text="an integer range, min..max")
    max = serializers.IntegerField(required=False)
    off = serializers.IntegerField(required=False, help_text="the value outside the range that switches the rule off")


class MoveKindOut(serializers.Serializer):
    kind = serializers.CharField()
    doc = serializers.CharField()
    ebnf = serializers.CharField(help_text="the kind's production (shared terms under `definitions`)")
    regex = serializers.CharField(help_text="the canonical text of every such move matches this in full")
    examples = serializers.ListField(child=serializers.CharField())
    listed = serializers.BooleanField(help_text="legal_moves lists every legal move of this kind")


class NotationOut(serializers.Serializer):
    legal_moves_complete = serializers.BooleanField(
        help_text="true: legal_moves lists every legal move; false: some kinds are only described here")
    kinds = MoveKindOut(many=True)
    definitions = serializers.DictField(child=serializers.CharField(), help_text="shared EBNF productions")
    notes = serializers.CharField(help_text="what the parser accepts beyond the canonical form")


class GameOut(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    has_hidden_information = serializers.BooleanField()
    options = serializers.DictField(child=OptionOut(), help_text="option name → its default, doc and range")
    options_schema = serializers.DictField(help_text=(
        "JSON Schema (draft 2020-12) of the `options` object a challenge takes; the server enforces "
        "it strictly (a wrong type is 400 invalid_options naming the option)"))
    variants = serializers.DictField(child=serializers.DictField(), help_text="variant name → the options it sets")
    variant_aliases = serializers.DictField(child=serializers.CharField(),
                                            help_text="other accepted names → the variant they stand for")
    notation = NotationOut(help_text="how moves are written: a grammar per move kind, with examples")
    summary = serializers.CharField()
    rules_page = serializers.CharField(help_text="the rules document (GET games/{slug}/rules/)")
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
