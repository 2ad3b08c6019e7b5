"""Reporting a player, a message or a match."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api
from matches.apis.schema import errors, valid

from ..models.reports import REASON_MAX
from ..services import reports


class ReportIn(serializers.Serializer):
    player = serializers.CharField(required=False, max_length=150)
    message = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    match = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    reason = serializers.CharField(max_length=REASON_MAX)


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()


class ReportCreateApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "report"}

    @extend_schema(request=ReportIn, responses={201: ReportOut, **errors(
        "invalid_report", "player_not_found", "message_not_found", "match_not_found", body=True, auth=True)},
        summary="Report a player, a message or a match to staff")
    def post(self, request: Request) -> Response:
        data = valid(ReportIn, request)
        report = reports.report_create(reporter=request.user, **data)
        return Response(ReportOut({"id": report.pk, "status": report.status}).data, status=status.HTTP_201_CREATED)
