"""The game catalogue and each game's rules document."""
from __future__ import annotations

from html import escape

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers, serializers
from rest_framework.exceptions import NotAcceptable
from rest_framework.renderers import JSONRenderer
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
    rules_page = serializers.CharField(help_text="the rules document's path in the repository")
    rules_url = serializers.CharField(help_text="the rules document: GET it as Markdown, or as HTML with ?format=html")
    ai_levels = serializers.ListField(child=serializers.CharField(), help_text='engine seats are "ai:<level>"')


class GameListApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameOut(many=True), **errors()}, summary="The game catalogue")
    def get(self, request: Request) -> Response:
        return Response(GameOut(catalogue.catalogue(), many=True).data)


class GameDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameOut, **errors("game_not_found")},
                   summary="One game: seats, options, variants, rules summary")
    def get(self, request: Request, slug: str) -> Response:
        return Response(GameOut(catalogue.game_detail(slug)).data)


class MarkdownRenderer(renderers.BaseRenderer):
    media_type = "text/markdown"
    format = "md"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data["markdown"]


class RulesHtmlRenderer(renderers.BaseRenderer):
    """The Markdown as a small standalone HTML page, for browsers."""

    media_type = "text/html"
    format = "html"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        body = catalogue.rules_html(data["markdown"])[0]
        return RULES_PAGE.format(title=escape(f"{data['title']}: rules"), body=body)


RULES_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{max-width:52rem;margin:2rem auto;padding:0 1rem;font:16px/1.5 system-ui,sans-serif}}
pre{{background:#f6f6f2;padding:.6rem;overflow-x:auto;line-height:1.25}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2rem .5rem;vertical-align:top}}
code{{background:#f6f6f2}}</style></head>
<body>
{body}
</body></html>
"""


class GameRulesApi(Api):
    """The rules document of a game: Markdown by default, HTML for browsers (`?format=html` or an
    Accept header that prefers text/html). Errors (and OPTIONS) answer in JSON, like everywhere else."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [MarkdownRenderer, RulesHtmlRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False):
        try:
            return super().perform_content_negotiation(request, force)
        except Http404:
            raise NotAcceptable(f"no rules format {request.query_params.get('format')!r}; use md or html") from None

    def finalize_response(self, request: Request, response, *args, **kwargs):
        document = isinstance(getattr(response, "data", None), dict) and "markdown" in response.data
        if not document:                 # errors and OPTIONS metadata
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(
        summary="The game's rules (Markdown, or HTML for browsers)",
        parameters=[OpenApiParameter("format", str, enum=["md", "html"], required=False,
                                     description="md (the default) or html; an Accept header may choose too")],
        responses={(200, "text/markdown"): OpenApiResponse(OpenApiTypes.STR, description="the rules document"),
                   (200, "text/html"): OpenApiResponse(OpenApiTypes.STR, description="the same, as an HTML page"),
                   **errors("game_not_found", "not_acceptable", "invalid_filter")})
    def get(self, request: Request, slug: str) -> Response:
        title, text = catalogue.rules_document(slug)
        return Response({"title": title, "markdown": text})
