"""The staff moderation API: the report queue, suspensions, hiding messages, the audit log."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api, PageQueryIn, query_params
from matches.apis.schema import errors, page_of, paginated, valid
from matches.errors import ServiceError

from ..models import Report
from ..selectors import moderation as selectors
from ..selectors.chat import message_payload
from ..services import moderation, reports
from .chat import ChatMessageOut


class StaffApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        if not request.user.is_staff:
            raise ServiceError("staff_only", "only staff may do this")


class ReasonIn(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)


class SuspendIn(ReasonIn):
    days = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=36500, default=None,
                                    help_text="how long; null or absent: for good")


class ReportQueueIn(PageQueryIn):
    status = serializers.ChoiceField(choices=Report.Status.values, required=False, default="open")


class ReportMatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField()


class StaffReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    reporter = serializers.CharField(allow_null=True)
    player = serializers.CharField(allow_null=True)
    message = ChatMessageOut(allow_null=True)
    match = ReportMatchOut(allow_null=True)
    context = ChatMessageOut(many=True, help_text="the chat around what was reported (hidden text included)")


class SuspensionOut(serializers.Serializer):
    username = serializers.CharField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    lifted_at = serializers.DateTimeField(allow_null=True)


class AuditOut(serializers.Serializer):
    id = serializers.IntegerField()
    actor = serializers.CharField()
    action = serializers.CharField()
    target = serializers.CharField()
    reason = serializers.CharField()
    detail = serializers.JSONField()
    created_at = serializers.DateTimeField()


class ReportQueueApi(StaffApi):
    @extend_schema(responses={200: page_of(StaffReportOut), **errors("staff_only", "invalid_filter",
                                                                     "page_not_found", auth=True)},
                   summary="Staff: reports, newest first, with their context")
    @query_params(ReportQueueIn)
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.report_queue(request.query["status"]), selectors.report_payload,
                         StaffReportOut)


class ReportResolveApi(StaffApi):
    @extend_schema(request=ReasonIn, responses={200: StaffReportOut, **errors("staff_only", "report_not_found",
                                                                              "report_closed", "reason_required",
                                                                              body=True, auth=True)},
                   summary="Staff: mark a report resolved (the reason is the note kept in the audit log)")
    def post(self, request: Request, pk: int) -> Response:
        report = reports.report_resolve(staff=request.user, report_id=pk, note=valid(ReasonIn, request)["reason"])
        return Response(StaffReportOut(selectors.report_payload(report)).data)


class ReportDismissApi(StaffApi):
    @extend_schema(request=ReasonIn, responses={200: StaffReportOut, **errors(
        "staff_only", "report_not_found", "report_closed", "reason_required", body=True, auth=True)},
        summary="Staff: dismiss a report (nothing to act on; the reason is kept in the audit log)")
    def post(self, request: Request, pk: int) -> Response:
        report = reports.report_dismiss(staff=request.user, report_id=pk, note=valid(ReasonIn, request)["reason"])
        return Response(StaffReportOut(selectors.report_payload(report)).data)


class SuspendApi(StaffApi):
    @extend_schema(request=SuspendIn, responses={200: SuspensionOut, **errors(
        "staff_only", "player_not_found", "already_suspended", "reason_required", "invalid_suspension",
        body=True, auth=True)}, summary="Staff: suspend a player for some days or for good")
    def post(self, request: Request, username: str) -> Response:
        data = valid(SuspendIn, request)
        suspension = moderation.suspend(staff=request.user, username=username, reason=data["reason"],
                                        days=data["days"])
        return Response(SuspensionOut(selectors.suspension_payload(suspension)).data)


class UnsuspendApi(StaffApi):
    @extend_schema(request=ReasonIn, responses={200: SuspensionOut, **errors(
        "staff_only", "player_not_found", "not_suspended", "reason_required", body=True, auth=True)},
        summary="Staff: lift a player's suspension")
    def post(self, request: Request, username: str) -> Response:
        suspension = moderation.unsuspend(staff=request.user, username=username,
                                          reason=valid(ReasonIn, request)["reason"])
        return Response(SuspensionOut(selectors.suspension_payload(suspension)).data)


class MessageHideApi(StaffApi):
    @extend_schema(request=ReasonIn, responses={200: ChatMessageOut, **errors(
        "staff_only", "message_not_found", "reason_required", body=True, auth=True)},
        summary="Staff: hide a chat message")
    def post(self, request: Request, pk: int) -> Response:
        message = moderation.message_hide(staff=request.user, message_id=pk,
                                          reason=valid(ReasonIn, request)["reason"])
        return Response(ChatMessageOut(message_payload(message)).data)


class MessageUnhideApi(StaffApi):
    @extend_schema(request=ReasonIn, responses={200: ChatMessageOut, **errors(
        "staff_only", "message_not_found", "message_not_hidden", "reason_required", body=True, auth=True)},
        summary="Staff: show a hidden chat message again")
    def post(self, request: Request, pk: int) -> Response:
        message = moderation.message_unhide(staff=request.user, message_id=pk,
                                            reason=valid(ReasonIn, request)["reason"])
        return Response(ChatMessageOut(message_payload(message)).data)


class AuditLogApi(StaffApi):
    @extend_schema(responses={200: page_of(AuditOut), **errors("staff_only", "invalid_filter", "page_not_found",
                                                               auth=True)},
                   summary="Staff: the audit log of staff actions, newest first (read only)")
    @query_params(PageQueryIn)
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.audit_log(), selectors.audit_payload, AuditOut)
