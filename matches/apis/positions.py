"""The analysis board: ask an engine for a position's best lines, and read them."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from ai_workers.engines.jobs import MAX_LINES
from matches.converters import MAX_ID
from matches.errors import ServiceError
from matches.models import PositionAnalysis
from matches.selectors import positions as selectors
from matches.services import positions

from .query import Api
from .schema import AnalysisLevelField, GameSlugField, VariantField, errors, valid

MOVE_TEXT_MAX = 200


class _LineIn(serializers.Serializer):
    moves = serializers.ListField(child=serializers.CharField(max_length=MOVE_TEXT_MAX, allow_blank=False),
                                  required=False, default=list, max_length=10_000,
                                  help_text="the line's moves in notation, each checked by the rules")
    level = AnalysisLevelField(required=False, default="medium", max_length=32,
                               help_text="an engine level other than random")
    lines = serializers.IntegerField(required=False, default=3, min_value=1, max_value=MAX_LINES,
                                     help_text=f"how many best moves (multi-PV), 1-{MAX_LINES}")
    seconds = serializers.FloatField(required=False, min_value=0.001, help_text=(
        "thinking time, at most the level's budget (default: the budget)"))


class PositionFromMatchIn(_LineIn):
    """The line starts in a finished match."""

    match = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=(
        "a finished match: the line starts at its `ply`"))
    ply = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID, help_text=(
        "the match's position after this many plies (default: its end)"))

    def validate(self, data):
        if "game" in self.initial_data:
            raise serializers.ValidationError("give either `match` (and `ply`) or `game` (and `options`)")
        # Schema-valid (a body may carry other keys) but meaningless here: refused by the rule's code.
        if {"options", "variant", "players"} & self.initial_data.keys():
            raise ServiceError("invalid_options", "`options`, `variant` and `players` go with `game`")
        return data


class PositionFromGameIn(_LineIn):
    """The line starts at a game's start."""

    game = GameSlugField(max_length=40, help_text="the line starts at this game's start")
    options = serializers.DictField(required=False, help_text="the game's options")
    variant = VariantField(required=False, max_length=40)
    players = serializers.IntegerField(required=False, min_value=1, max_value=16,
                                       help_text="the seat count (default: the fewest)")

    def validate(self, data):
        if "ply" in self.initial_data:
            raise ServiceError("invalid_ply", gettext_lazy("`ply` goes with `match` (a game's line starts at "
                                                          "its start)"))
        return data


# One body or the other: `match` picks the first (what else the body holds is not read).
POSITION_IN = PolymorphicProxySerializer(component_name="PositionIn", resource_type_field_name=None,
                                         serializers=[PositionFromMatchIn, PositionFromGameIn])


class LineOut(serializers.Serializer):
    move = serializers.CharField()
    value = serializers.FloatField(help_text="the position after this move, for the seat to move: -1..1")
    pv = serializers.ListField(child=serializers.CharField(), help_text="the line, starting with `move`")


class PositionOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    options = serializers.DictField()
    players = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="plies played to reach the position")
    seat = serializers.IntegerField(help_text="the seat to move: every value is from its side")
    level = serializers.CharField()
    lines_asked = serializers.IntegerField()
    seconds = serializers.FloatField(help_text="the thinking time")
    status = serializers.ChoiceField(choices=PositionAnalysis.Status.values)
    value = serializers.FloatField(allow_null=True, help_text="the position for `seat`: -1..1 (docs/analysis.md)")
    lines = LineOut(many=True, help_text="the best moves, best first (fewer when fewer are legal)")
    nodes = serializers.IntegerField(allow_null=True)
    depth = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PositionCreateApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "analysis"}

    @extend_schema(request=POSITION_IN, summary="Ask an engine for a position's best lines (analysis board)",
                   description="202 with a new job (an event `position_done` follows; or poll "
                               "`GET positions/{id}/`); 200 with the stored lines when this position was "
                               "searched already at this level and line count with at least this time.",
                   responses={202: PositionOut, 200: PositionOut,
                              **errors("match_not_found", "match_in_progress", "invalid_ply", "unknown_level",
                                       "invalid_budget", "board_unavailable", "live_game_position",
                                       "too_many_board_moves", "too_many_analyses", "game_error",
                                       "unknown_game", "invalid_options", "invalid_move", "illegal_move",
                                       "game_over", body=True, auth=True)})
    def post(self, request: Request) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        data = valid(PositionFromMatchIn if "match" in body else PositionFromGameIn, request)
        row, created = positions.position_request(
            user=request.user, moves=data["moves"], level=data["level"], lines=data["lines"],
            seconds=data.get("seconds"), match_id=data.get("match"), ply=data.get("ply"),
            game=data.get("game"), options=data.get("options"), variant=data.get("variant"),
            players=data.get("players"))
        return Response(PositionOut(selectors.position_payload(row)).data,
                        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class PositionDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PositionOut, **errors("position_not_found", "live_game_position")},
                   summary="A position's lines (poll until `status` is done or failed)")
    def get(self, request: Request, pk: int) -> Response:
        return Response(PositionOut(selectors.position_payload(selectors.position_for(pk, request.user))).data)
