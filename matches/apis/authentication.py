"""`Authorization: Token <key>` against hashed API tokens (matches.services.accounts)."""
from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from matches.services import accounts


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's header format and errors; the key is looked up by its digest, and expires."""

    def authenticate_credentials(self, key: str):
        token = accounts.token_authenticate(key)
        if token is None:
            raise exceptions.AuthenticationFailed("invalid or expired token")
        return token.user, token
