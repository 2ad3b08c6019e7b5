"""Players: the list, a player's page, rating histories, and the leaderboards per game."""
from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from matches.errors import ServiceError
from matches.rating_keys import GLICKO2, WENG_LIN
from matches.selectors import players

from .matches import MatchSummaryOut
from .query import Api, PageQueryIn, parse_query, query_params
from .schema import GameSlugField, VariantField, errors, page_of, paginated


class RatingOut(serializers.Serializer):
    game = serializers.CharField()
    variant = serializers.CharField(allow_null=True, help_text="a variant rated on its own, or null")
    system = serializers.ChoiceField(choices=[GLICKO2, WENG_LIN], help_text="see docs/ratings.md")
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField(help_text="deviation too wide to be on a leaderboard")
    rank = serializers.IntegerField(allow_null=True, help_text="place on the leaderboard; null when not on it")
    games = serializers.IntegerField(help_text="rated results counted")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class MatchCountsOut(serializers.Serializer):
    active = serializers.IntegerField()
    finished = serializers.IntegerField()
    aborted = serializers.IntegerField()


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    bio = serializers.CharField(allow_blank=True)
    joined = serializers.DateTimeField()
    ratings = RatingOut(many=True)
    matches = MatchCountsOut()
    recent_matches = MatchSummaryOut(many=True, help_text="the newest ten, any status")


class PlayerListOut(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    rating = RatingOut(allow_null=True, help_text="the rating for ?game= (and ?variant=); null without")


class RatingPointOut(serializers.Serializer):
    match = serializers.IntegerField()
    date = serializers.DateTimeField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_before = serializers.FloatField()
    deviation_after = serializers.FloatField()


class LeaderboardEntryOut(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    system = serializers.ChoiceField(choices=[GLICKO2, WENG_LIN])
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    last_played_at = serializers.DateTimeField(allow_null=True)


VARIANT_HELP = "a variant rated on its own (e.g. tenbin); any other variant means the game's own rating"


class PlayerListQueryIn(PageQueryIn):
    q = serializers.CharField(required=False, max_length=150, help_text="usernames starting with this")
    game = GameSlugField(required=False, max_length=40, help_text="only players rated in this game, best first")
    variant = VariantField(required=False, max_length=40, help_text=VARIANT_HELP)


class VariantQueryIn(PageQueryIn):
    variant = VariantField(required=False, max_length=40, help_text=VARIANT_HELP)


class PlayerListApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(PlayerListOut), **errors("page_not_found", "invalid_filter", "game_not_found")},
                   summary="Players: by username prefix, or rated in a game (best first)")
    @query_params(PlayerListQueryIn)
    def get(self, request: Request) -> Response:
        query = request.query
        if "variant" in query and "game" not in query:
            raise ServiceError("invalid_filter", "variant needs game", detail={"parameter": "variant"})
        key = players.rating_key(query["game"], query.get("variant")) if "game" in query else None
        qs = players.players_query(prefix=query.get("q"), key=key)
        return paginated(request, self, qs, players.player_list_entry, PlayerListOut)


class PlayerDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerOut, **errors("player_not_found")},
                   summary="A player's page: ratings with rank and record, recent matches")
    def get(self, request: Request, username: str) -> Response:
        return Response(PlayerOut(players.player_profile(username)).data)


class RatingHistoryApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(RatingPointOut), **errors("page_not_found", "player_not_found", "game_not_found",
                                                                      "invalid_filter")},
                   summary="A player's rating history in a game: one point per rated result, oldest first")
    @query_params(VariantQueryIn)
    def get(self, request: Request, username: str, game: str) -> Response:
        key = players.rating_key(game, request.query.get("variant"))
        return paginated(request, self, players.rating_history(username, key), players.rating_point, RatingPointOut)


class LeaderboardApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(LeaderboardEntryOut), **errors("page_not_found", "game_not_found", "invalid_filter")},
                   summary="The best established, active ratings of a game (or of a variant rated on its own)")
    @query_params(VariantQueryIn)
    def get(self, request: Request, slug: str) -> Response:
        key = players.rating_key(slug, request.query.get("variant"))
        paginator = PageNumberPagination()
        rows = paginator.paginate_queryset(players.leaderboard_query(key), request, view=self)
        first = (paginator.page.number - 1) * paginator.page.paginator.per_page + 1
        entries = [players.leaderboard_entry(row, first + i) for i, row in enumerate(rows)]
        return paginator.get_paginated_response(LeaderboardEntryOut(entries, many=True).data)


class TextRecordsRenderer(JSONRenderer):
    """Names `?format=text` for DRF's negotiation; the records themselves are streamed."""

    media_type, format = "text/plain", "text"


class NdjsonRenderer(JSONRenderer):
    media_type, format = "application/x-ndjson", "ndjson"


EXPORT_TYPES = {"text": "text/plain; charset=utf-8", "ndjson": "application/x-ndjson"}


class ExportQueryIn(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(EXPORT_TYPES), default="text", help_text=(
        "text: the text records of matches/{id}/export/, a blank line between them; "
        "ndjson: one JSON object a line (id, game, variant, seats, result, finished_at, record)"))


class PlayerExportApi(Api):
    permission_classes = [permissions.AllowAny]
    # `format` picks a renderer before the handler runs: both are declared, so it never 404s.
    renderer_classes = [TextRecordsRenderer, NdjsonRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False):
        if not force:
            request.query = parse_query(ExportQueryIn, request)   # a bad ?format= is a 400, not a 404
        return super().perform_content_negotiation(request, force)

    def finalize_response(self, request: Request, response, *args, **kwargs):
        if isinstance(response, Response):           # a refusal: JSON, as everywhere
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(parameters=[ExportQueryIn], summary="Every finished match of a player, streamed as records",
                   responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="text records"),
                              (200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description=(
                                  "with ?format=ndjson: one JSON object a line")),
                       **errors("player_not_found", "invalid_filter")})
    def get(self, request: Request, username: str) -> StreamingHttpResponse:
        form = request.query["format"]
        chunks = players.export_chunks(players.export_query(username), form)
        response = StreamingHttpResponse(chunks, content_type=EXPORT_TYPES[form])
        suffix = "txt" if form == "text" else "ndjson"
        response["Content-Disposition"] = f'attachment; filename="{username}-matches.{suffix}"'
        return response


@extend_schema_view(get=extend_schema(exclude=True))
class PlayerExportNoSlashApi(PlayerExportApi):
    """`players/{username}/matches/export` without the slash, answered in place (no redirect)."""
