"""Your vacation: while on, the clocks of the matches where you are to move stand still."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors.vacations import vacation_payload
from matches.services import vacations

from .query import Api
from .schema import errors


class VacationOut(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="when this year's allowance runs out, if away")
    year = serializers.IntegerField(help_text="the calendar year (UTC) the allowance is counted in")
    allowance_days = serializers.IntegerField(help_text="vacation days a year (PEARLSITE_VACATION_DAYS_PER_YEAR)")
    used_seconds = serializers.IntegerField()
    left_seconds = serializers.IntegerField()


class VacationApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: VacationOut, **errors(auth=True)}, summary="Your vacation allowance")
    def get(self, request: Request) -> Response:
        return Response(VacationOut(vacation_payload(request.user)).data)

    @extend_schema(request=None, responses={200: VacationOut, **errors("already_on_vacation", "no_vacation_left",
                                                                       auth=True)},
                   summary="Go on vacation: your clocks stop until you come back")
    def post(self, request: Request) -> Response:
        vacations.vacation_start(user=request.user)
        return Response(VacationOut(vacation_payload(request.user)).data)

    @extend_schema(request=None, responses={200: VacationOut, **errors("not_on_vacation", auth=True)},
                   summary="Come back: your paused clocks run again")
    def delete(self, request: Request) -> Response:
        vacations.vacation_end(user=request.user)
        return Response(VacationOut(vacation_payload(request.user)).data)
