"""Accounts and tokens."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.services import accounts

from .query import Api
from .schema import errors, valid


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(r"^[A-Za-z0-9_.@+-]{2,150}$", help_text="2-150 letters, digits, _.@+-")
    password = serializers.CharField(write_only=True, min_length=8, max_length=128)


class RegisteredOut(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(help_text="send as `Authorization: Token <token>`")


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Token <token>`")


class AccountCreateApi(Api):
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "registration"}

    @extend_schema(request=RegisterIn, summary="Register an account",
                   responses={201: RegisteredOut, **errors("invalid_username", "weak_password",
                                                           "username_taken", body=True)})
    def post(self, request: Request) -> Response:
        data = valid(RegisterIn, request)
        user, token = accounts.account_register(username=data["username"], password=data["password"])
        return Response(RegisteredOut({"username": user.username, "token": token}).data,
                        status=status.HTTP_201_CREATED)


class TokenApi(Api):
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "login"}

    @extend_schema(request=TokenIn, summary="Get your API token",
                   responses={200: TokenOut, **errors("invalid_credentials", body=True)})
    def post(self, request: Request) -> Response:
        data = valid(TokenIn, request)
        token = accounts.token_for_credentials(username=data["username"], password=data["password"],
                                               request=request)
        return Response(TokenOut({"token": token}).data)
