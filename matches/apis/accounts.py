"""Accounts and tokens: register, log in (a new token), list your tokens, revoke one or all."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import accounts as selectors
from matches.services import accounts

from .query import Api, PageQueryIn, query_params
from .schema import PasswordField, errors, page_of, paginated, valid


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(
        r"^[A-Za-z0-9_.@+-]{2,150}$", help_text="2-150 characters: ASCII letters, digits and _ . @ + -",
        error_messages={"invalid": "2-150 characters: ASCII letters (a-z, A-Z), digits and _ . @ + - only"})
    password = PasswordField(write_only=True, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254,
                                   help_text="optional; a link to verify it is mailed there")


class RegisteredOut(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(help_text="send as `Authorization: Bearer <token>`; shown only now")


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128, trim_whitespace=False)
    expires_in_days = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=3650,
                                               help_text="a hard expiry; without it the token lives while used")


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Bearer <token>`; shown only now")
    id = serializers.IntegerField()
    prefix = serializers.CharField(help_text="the key's first characters, to tell your tokens apart")
    expires_at = serializers.DateTimeField(allow_null=True)


class TokenInfoOut(serializers.Serializer):
    id = serializers.IntegerField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True, help_text="hard expiry, if any")
    current = serializers.BooleanField(help_text="the token this request came with")


class LogoutQueryIn(serializers.Serializer):
    all = serializers.BooleanField(required=False, default=False, help_text="revoke every token of yours")


class AccountCreateApi(Api):
    """Registration takes no credentials: a stale token left in a client's headers cannot block it."""

    authentication_classes = []
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "registration"}

    @extend_schema(request=RegisterIn, summary="Register an account",
                   responses={201: RegisteredOut, **errors("invalid_username", "weak_password",
                                                           "username_taken", "email_taken", body=True)})
    def post(self, request: Request) -> Response:
        data = valid(RegisterIn, request)
        user, token = accounts.account_register(username=data["username"], password=data["password"],
                                                  email=data.get("email", ""))
        return Response(RegisteredOut({"username": user.username, "token": token}).data,
                        status=status.HTTP_201_CREATED)


class TokenApi(Api):
    permission_classes = [permissions.AllowAny]
    throttle_scopes = {"POST": "login"}

    def get_authenticators(self):
        """Logging in takes no credentials but the body's: a bot whose token expired logs in again
        with the stale one still in its headers. Logging out is authenticated."""
        logging_in = getattr(self.request, "method", None) == "POST"      # None while a schema is built
        return [] if logging_in else super().get_authenticators()

    @extend_schema(request=TokenIn, summary="Log in: a new API token",
                   responses={200: TokenOut, **errors("invalid_credentials", body=True)})
    def post(self, request: Request) -> Response:
        data = valid(TokenIn, request)
        token, key = accounts.token_for_credentials(
            username=data["username"], password=data["password"],
            expires_in_days=data.get("expires_in_days"), request=request)
        return Response(TokenOut({"token": key, "id": token.pk, "prefix": token.prefix,
                                  "expires_at": token.expires_at}).data)

    @extend_schema(request=None, summary="Log out: revoke this token (or, with ?all=true, all of yours)",
                   responses={204: None, **errors("no_token", "invalid_filter", auth=True)})
    @query_params(LogoutQueryIn)
    def delete(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            self.permission_denied(request)
        accounts.token_logout(user=request.user, current=request.auth, everywhere=request.query["all"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: page_of(TokenInfoOut), **errors("invalid_filter", "page_not_found", auth=True)},
                   summary="Your API tokens (never their keys)")
    @query_params(PageQueryIn)
    def get(self, request: Request) -> Response:
        current = getattr(request.auth, "pk", None)
        return paginated(request, self, selectors.tokens_of(request.user),
                         lambda t: selectors.token_payload(t, current), TokenInfoOut)


class TokenDetailApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, summary="Revoke one of your tokens",
                   responses={204: None, **errors("token_not_found", auth=True)})
    def delete(self, request: Request, pk: int) -> Response:
        accounts.token_revoke(user=request.user, token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
