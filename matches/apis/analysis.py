"""Engine analysis of finished matches."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from ai_workers.engines.analysis import CLASSES
from matches.models import Analysis
from matches.selectors import analysis as selectors
from matches.services import analysis

from .query import Api
from .schema import AnalysisLevelField, errors, valid


class AnalysisIn(serializers.Serializer):
    level = AnalysisLevelField(required=False, default="medium", max_length=32,
                               help_text="an engine level other than random")


class CandidateOut(serializers.Serializer):
    move = serializers.CharField()
    value = serializers.FloatField(help_text="the position after this move, for the mover: -1..1")
    pv = serializers.ListField(child=serializers.CharField(), help_text="the line, starting with `move`")


class AnalysedPlyOut(serializers.Serializer):
    ply = serializers.IntegerField(help_text="the ply of the played move (1 = the first move)")
    seat = serializers.IntegerField(help_text="the seat that moved (the seat to move in the analysed position)")
    played = serializers.CharField()
    best = serializers.CharField(help_text="the engine's choice in the position before the move")
    value = serializers.FloatField(help_text=(
        "the position before the move, from `seat`'s point of view: -1 (certain loss) .. 0 (even, or a "
        "draw) .. 1 (certain win); three decimals, never -0.0 (docs/analysis.md)"))
    value_before = serializers.FloatField(
        allow_null=True, help_text="the position's value before the move, for the mover (= value); -1..1")
    value_after = serializers.FloatField(
        allow_null=True, help_text="the value after the played move, for the mover; null where "
                                   "unknown (multi-seat and hidden-information moves that pass the turn)")
    loss = serializers.FloatField(allow_null=True, help_text="what the move gave away, in summary.scale.unit")
    classification = serializers.ChoiceField(
        choices=CLASSES, allow_null=True,
        help_text="forced, best, good, inaccuracy, mistake or blunder (thresholds in summary.scale)")
    accuracy = serializers.FloatField(allow_null=True, help_text="move accuracy, 0–100 (lichess's formula)")
    pv = serializers.ListField(child=serializers.CharField(), help_text="the engine's principal line")
    nodes = serializers.IntegerField()
    candidates = CandidateOut(many=True, help_text=(
        "at an inaccuracy, mistake or blunder: the engine's best moves in the position before it "
        "(multi-PV, best first), each with its value for `seat` and its line; empty elsewhere"))


class ScaleOut(serializers.Serializer):
    name = serializers.ChoiceField(choices=("winning_chances", "walk_length"))
    unit = serializers.CharField(help_text="what a loss is measured in")
    inaccuracy = serializers.FloatField(help_text="smallest loss that is an inaccuracy")
    mistake = serializers.FloatField(help_text="smallest loss that is a mistake")
    blunder = serializers.FloatField(help_text="smallest loss that is a blunder")


class SeatSummaryOut(serializers.Serializer):
    seat = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="the seat's analysed moves")
    forced = serializers.IntegerField()
    best = serializers.IntegerField()
    good = serializers.IntegerField()
    inaccuracy = serializers.IntegerField()
    mistake = serializers.IntegerField()
    blunder = serializers.IntegerField()
    average_loss = serializers.FloatField(allow_null=True)
    accuracy = serializers.FloatField(allow_null=True, help_text="game accuracy, 0–100 (lichess's formula)")


class SeriesPointOut(serializers.Serializer):
    ply = serializers.IntegerField()
    value = serializers.FloatField(allow_null=True, help_text="value after the ply for seat 0, -1..1")


class AnalysisSummaryOut(serializers.Serializer):
    scale = ScaleOut()
    seats = SeatSummaryOut(many=True)
    series = SeriesPointOut(many=True)


class AnalysisOut(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    level = serializers.CharField()
    status = serializers.ChoiceField(choices=Analysis.Status.values)
    upto_ply = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="hidden-information games: whose turns only")
    results = AnalysedPlyOut(many=True)
    summary = AnalysisSummaryOut(help_text="per seat: counts per class and accuracy; the scale; a graph series")
    error = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchAnalysisApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "analysis"}

    @extend_schema(request=AnalysisIn, summary="Ask an engine to analyse a finished match",
                   description="202 with a new analysis; 200 with the existing one when this match was "
                               "already analysed (or is being analysed) at this level.",
                   responses={202: AnalysisOut, 200: AnalysisOut,
                              **errors("match_not_found", "unknown_level", "match_in_progress",
                                       "hidden_information", "too_many_analyses", body=True, auth=True)})
    def post(self, request: Request, pk: int) -> Response:
        data = valid(AnalysisIn, request)
        job, created = analysis.analysis_request_once(match_id=pk, user=request.user, level=data["level"])
        return Response(AnalysisOut(selectors.analysis_payload(job)).data,
                        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class AnalysisDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: AnalysisOut, **errors("analysis_not_found", "not_yours")},
                   summary="An analysis job and its per-ply results")
    def get(self, request: Request, pk: int) -> Response:
        return Response(AnalysisOut(selectors.analysis_payload(selectors.analysis_for(pk, request.user))).data)
