"""`Authorization: Bearer <key>` (or `Token <key>`, the older spelling) against hashed API tokens
(matches.services.accounts)."""
from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from matches.services import accounts

KEYWORDS = (b"bearer", b"token")


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's header format and errors, under either keyword; the key is looked up by its digest,
    and expires (a bad or expired key is 401 `authentication_failed`)."""

    keyword = "Bearer"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header must be `Bearer <token>`")
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("the token holds characters a token never has") from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str):
        token = accounts.token_authenticate(key)
        if token is None:
            raise exceptions.AuthenticationFailed("invalid or expired token")
        return token.user, token
