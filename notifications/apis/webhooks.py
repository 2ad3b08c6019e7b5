"""The caller's webhooks (`accounts/me/webhooks/`) and each one's delivery log."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api, PageQueryIn, query_params
from matches.apis.schema import errors, page_of, paginated, valid
from notifications.models import KINDS
from notifications.selectors import account as selectors
from notifications.services import webhooks


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    kinds = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    failures = serializers.IntegerField(help_text="failed attempts in a row")
    disabled_reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class WebhookCreatedOut(WebhookOut):
    secret = serializers.CharField(help_text="the HMAC-SHA256 key of the signatures: shown only now")


class WebhookIn(serializers.Serializer):
    url = serializers.URLField(max_length=500, help_text="https://...; it must resolve to public addresses")
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=KINDS), min_length=1, max_length=len(KINDS))


class WebhookPatchIn(serializers.Serializer):
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=KINDS), min_length=1, max_length=len(KINDS),
                                  required=False)
    active = serializers.BooleanField(required=False, help_text="true switches a disabled webhook on again")


class DeliveryOut(serializers.Serializer):
    id = serializers.CharField(help_text="the X-Pearlsite-Delivery header: the same on every retry")
    kind = serializers.CharField()
    status = serializers.CharField(help_text="pending, queued, sending, sent, failed or dropped")
    attempts = serializers.IntegerField()
    response_status = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField()
    created_at = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class WebhookListApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: WebhookOut(many=True), **errors(auth=True)}, summary="Your webhooks")
    def get(self, request: Request) -> Response:
        return Response(WebhookOut([selectors.webhook_payload(h) for h in selectors.webhooks_of(request.user)],
                                   many=True).data)

    @extend_schema(request=WebhookIn, summary="Add a webhook (its secret is shown only in this answer)",
                   responses={201: WebhookCreatedOut, **errors("webhook_url_refused", "too_many_webhooks",
                                                               "invalid_channels", body=True, auth=True)})
    def post(self, request: Request) -> Response:
        data = valid(WebhookIn, request)
        hook = webhooks.webhook_create(user=request.user, url=data["url"], kinds=data["kinds"])
        return Response(WebhookCreatedOut({**selectors.webhook_payload(hook), "secret": hook.secret}).data,
                        status=status.HTTP_201_CREATED)


class WebhookDetailApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=WebhookPatchIn, summary="Change a webhook's kinds, or switch it on or off",
                   responses={200: WebhookOut, **errors("webhook_not_found", "invalid_channels", body=True,
                                                        auth=True)})
    def patch(self, request: Request, pk: int) -> Response:
        data = valid(WebhookPatchIn, request)
        hook = webhooks.webhook_update(user=request.user, webhook_id=pk, **data)
        return Response(WebhookOut(selectors.webhook_payload(hook)).data)

    @extend_schema(request=None, responses={204: None, **errors("webhook_not_found", auth=True)},
                   summary="Delete a webhook")
    def delete(self, request: Request, pk: int) -> Response:
        webhooks.webhook_delete(user=request.user, webhook_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: page_of(DeliveryOut), **errors("webhook_not_found", "invalid_filter", "page_not_found", auth=True)},
                   summary="A webhook's delivery log, newest first")
    @query_params(PageQueryIn)
    def get(self, request: Request, pk: int) -> Response:
        return paginated(request, self, selectors.deliveries_of(request.user, pk), selectors.delivery_payload,
                         DeliveryOut)
