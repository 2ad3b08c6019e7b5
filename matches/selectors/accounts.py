"""Account reads: a user's API tokens (never their keys: only digests are stored)."""
from __future__ import annotations

from django.db.models import QuerySet

from matches.models import ApiToken


def tokens_of(user) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-id")


def token_payload(token: ApiToken, current_id: int | None) -> dict:
    return {"id": token.pk, "prefix": token.prefix, "created_at": token.created_at,
            "last_used_at": token.last_used_at, "expires_at": token.expires_at, "current": token.pk == current_id}
