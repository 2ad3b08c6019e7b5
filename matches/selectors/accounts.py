"""Account reads: a user's API tokens (never their keys: only digests are stored)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import router
from django.db.models import QuerySet

from matches.models import ApiToken

from . import rows


def tokens_of(user) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-id")


def token_payload(token: ApiToken, current_id: int | None) -> dict:
    return {"id": token.pk, "prefix": token.prefix, "created_at": token.created_at,
            "last_used_at": token.last_used_at, "expires_at": token.expires_at, "current": token.pk == current_id}


def token_with_user(digest: str) -> ApiToken | None:
    """The token with this digest, its user loaded, or None. Read on every request that carries a
    token: plain SQL on PostgreSQL (rows.py)."""
    alias = router.db_for_read(ApiToken)
    if not rows.plain_sql(alias):
        return ApiToken.objects.using(alias).select_related("user").filter(digest=digest).first()
    found = rows.fetch(alias, _TOKEN_SQL, [digest])
    if not found:
        return None
    token = _TOKEN.instance(found[0], 0, alias)
    token.user = _USER.instance(found[0], _TOKEN.width, alias)
    return token


_TOKEN, _USER = rows.Columns(ApiToken, "t"), rows.Columns(get_user_model(), "u")
_TOKEN_SQL = (f"SELECT {_TOKEN.sql}, {_USER.sql} FROM {_TOKEN.table} JOIN {_USER.table} ON {_USER.pk} = t.user_id "
              "WHERE t.digest = %s")
