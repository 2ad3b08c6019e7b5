"""The game catalogue and each game's rules document."""
from __future__ import annotations

from html import escape

from django.conf import settings
from django.http import Http404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers, serializers
from rest_framework.exceptions import NotAcceptable
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import catalogue

from .query import Api, query_params
from .schema import errors


class RulesQueryIn(serializers.Serializer):
    lang = serializers.ChoiceField(choices=[code for code, _ in settings.LANGUAGES], required=False,
                                   help_text="the document's language: en, or ja (docs/rules/ja/); without it the "
                                             "Accept-Language header chooses, else English")


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


class NameOut(serializers.Serializer):
    name = serializers.CharField()
    summary = serializers.CharField()


class JapaneseOut(serializers.Serializer):
    """The Japanese beside the English: the seeds' own terms where they have them."""

    title = serializers.CharField(help_text="the game's Japanese name, e.g. はさみ将棋")
    summary = serializers.CharField(help_text="the game's summary in Japanese")
    variants = serializers.DictField(child=NameOut(), help_text="variant name → its Japanese name and summary "
                                                                "(e.g. tenbin → 天秤 (はさみ天秤端落とし))")
    options = serializers.DictField(child=NameOut(), help_text="option name → its Japanese name and summary")


class LevelStrengthOut(serializers.Serializer):
    level = serializers.CharField()
    elo = serializers.FloatField(allow_null=True, help_text=(
        "kind elo: Elo relative to random (the sum of the measured gaps up the ladder); null: no game "
        "lost on the way, so unbounded above (elo_low is the bound), or kind walk"))
    elo_low = serializers.FloatField(allow_null=True, help_text="95 % lower bound (sum of the gaps' bounds)")
    elo_high = serializers.FloatField(allow_null=True, help_text="95 % upper bound; null: unbounded")
    games = serializers.IntegerField(allow_null=True, help_text=(
        "games played on the way up from random (null for kind walk)"))
    decision = serializers.CharField(allow_null=True, help_text=(
        "the SPRT on the gap to the level below: H1 (at least elo1 stronger), H0 (not), null (undecided)"))
    walks = serializers.DictField(child=serializers.IntegerField(), allow_null=True, help_text=(
        "kind walk (Pearl Maze): the level's walk, in steps, from each standard start (variant → "
        "steps; random's walk is the baseline); null for kind elo"))


class StrengthRunOut(serializers.Serializer):
    command = serializers.CharField(help_text="the bench.levels run that measured it")
    date = serializers.CharField()
    budgets = serializers.CharField(help_text=(
        "nodes (from the level's time budget × scale), CPU seconds, or seconds (the levels' own "
        "budgets, as served: New Eleusis)"))
    scale = serializers.FloatField(help_text="the factor on every level's time budget")
    sprt = serializers.DictField(allow_null=True)
    solution_files = serializers.ListField(child=serializers.CharField(), required=False, help_text=(
        "kind walk: the solution files (manage.py solve --cache) the strong level read, as a "
        "deployment has them"))


class LevelStrengthTableOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["elo", "walk"], help_text=(
        "elo: levels measured against each other in games; walk: a puzzle's levels by the walk "
        "each one finds"))
    levels = LevelStrengthOut(many=True)
    run = StrengthRunOut()


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
    ja = JapaneseOut(help_text="the game, every variant and every option named and summarised in Japanese")
    rules_page = serializers.CharField(help_text="the rules document's path in the repository")
    rules_url = serializers.CharField(help_text="the rules document: GET it as Markdown, or as HTML with ?format=html")
    ai_levels = serializers.ListField(child=serializers.CharField(), help_text='engine seats are "ai:<level>"')
    level_strength = LevelStrengthTableOut(allow_null=True, help_text=(
        "each level's measured strength relative to random (python -m bench.levels --sprt "
        "--strength; docs/engines.md §5.3); null where not measured"))


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
        body = catalogue.rules_html(data["markdown"], data.get("language"))[0]
        japanese = catalogue.is_japanese(data.get("language"))
        title = f"{data['title']}：ルール" if japanese else f"{data['title']}: rules"
        return RULES_PAGE.format(title=escape(title), body=body, lang="ja" if japanese else "en")


RULES_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
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
    @query_params(RulesQueryIn)
    def get(self, request: Request, slug: str) -> Response:
        language = request.query.get("lang") or translation.get_language()
        title, text = catalogue.rules_document(slug, language)
        response = Response({"title": title, "markdown": text, "language": language})
        response["Content-Language"] = "ja" if catalogue.is_japanese(language) else "en"
        return response
