"""Password reset: ask for a link (`auth/password-reset/`), then set a new password with it."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api
from matches.apis.schema import PasswordField, errors, valid
from notifications.services import passwords


class ResetIn(serializers.Serializer):
    login = serializers.CharField(max_length=254, help_text="your username or your verified e-mail address")


class ResetOut(serializers.Serializer):
    detail = serializers.CharField()


class ResetConfirmIn(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=100)
    password = PasswordField(write_only=True, max_length=128)


class PasswordResetApi(Api):
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "password_reset"}

    @extend_schema(request=ResetIn, responses={202: ResetOut, **errors(body=True)},
                   summary="Mail a password reset link (the answer is the same for every login)")
    def post(self, request: Request) -> Response:
        passwords.reset_request(login=valid(ResetIn, request)["login"])
        return Response(ResetOut({"detail": passwords.RESET_ANSWER}).data, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmApi(Api):
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "password_reset"}

    @extend_schema(request=ResetConfirmIn, responses={204: None, **errors("invalid_link", "weak_password", body=True)},
                   summary="Set a new password with the link's uid and token (every API token is revoked)")
    def post(self, request: Request) -> Response:
        data = valid(ResetConfirmIn, request)
        passwords.reset_confirm(uid=data["uid"], token=data["token"], password=data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)
