"""Accounts: registration, and API tokens (made, used, listed and revoked).

A token's key is `secrets.token_hex(20)`; only its SHA-256 digest is stored, so a copy of the
database holds no working key. Usernames are unique regardless of case (a database index on
lower(username) backs the check) and the engine and system names are reserved."""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches import policies
from matches.errors import ServiceError
from matches.models import ApiToken
from matches.models.tokens import TOKEN_PREFIX_LENGTH
from matches.selectors.accounts import token_with_user

from .logins import login_check, login_failed

User = get_user_model()
AI_PREFIX = "ai:"
RESERVED_USERNAMES = frozenset({
    "admin", "administrator", "ai", "anonymous", "api", "engine", "me", "moderator", "none", "null",
    "pearlsite", "root", "staff", "superuser", "support", "system",
})
# A login makes a token; beyond this many, the least recently used are removed.
MAX_TOKENS_PER_USER = 100
# last_used_at is written at most this often per token (it only feeds the idle expiry).
LAST_USED_RESOLUTION = timedelta(minutes=5)
# Apps that keep more about an account than this one (notifications: the e-mail address) append
# a function here from their AppConfig.ready(). Each is called inside the registration's
# transaction as f(user=..., email=...) and may refuse with a ServiceError (nothing is then made).
ACCOUNT_CREATED: list[Callable[..., None]] = []


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _check_username(username: str) -> None:
    if username.lower().startswith(AI_PREFIX) or ":" in username:
        raise ServiceError("invalid_username", "usernames may not contain ':'", detail={"username": username})
    if username.lower() in RESERVED_USERNAMES:
        raise ServiceError("invalid_username", f"the username {username!r} is reserved", detail={"username": username})
    policies.check_username(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError("username_taken", f"the username {username!r} is taken")


@transaction.atomic
def account_register(*, username: str, password: str, email: str = "") -> tuple["User", str]:
    _check_username(username)
    try:
        validate_password(password, user=User(username=username))
    except DjangoValidationError as exc:
        raise ServiceError("weak_password", "the password is too weak: " + " ".join(exc.messages),
                           detail={"password": exc.messages}) from exc
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            key = token_create(user=user)[1]
            for hook in ACCOUNT_CREATED:
                hook(user=user, email=email)
    except IntegrityError:        # the same name, in some case, registered meanwhile
        raise ServiceError("username_taken", f"the username {username!r} is taken") from None
    return user, key


@transaction.atomic
def token_create(*, user, expires_in_days: int | None = None) -> tuple[ApiToken, str]:
    """A new token for `user`; the key is returned here and never again."""
    key = secrets.token_hex(20)
    expires_at = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    token = ApiToken.objects.create(user=user, prefix=key[:TOKEN_PREFIX_LENGTH], digest=token_digest(key),
                                    expires_at=expires_at)
    surplus = ApiToken.objects.filter(user=user).order_by("-last_used_at", "-created_at", "-id") \
        .values_list("pk", flat=True)[MAX_TOKENS_PER_USER:]
    ApiToken.objects.filter(pk__in=list(surplus)).delete()
    return token, key


@transaction.atomic
def token_for_credentials(*, username: str, password: str, expires_in_days: int | None = None,
                          request=None) -> tuple[ApiToken, str]:
    """A new token, for the right username (in any case) and password; the account's failed
    logins are counted and limited (logins.py)."""
    login_check(username)
    stored = User.objects.filter(username__iexact=username).values_list("username", flat=True).first()
    user = authenticate(request, username=stored or username, password=password)
    if user is None:
        login_failed(username)
        raise ServiceError("invalid_credentials", "wrong username or password")
    return token_create(user=user, expires_in_days=expires_in_days)


def token_authenticate(key: str) -> ApiToken | None:
    """The live token with this key (its user loaded), or None: unknown, expired or idle too long."""
    token = token_with_user(token_digest(key))
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    idle_since = token.last_used_at or token.created_at
    if (token.expires_at and token.expires_at <= now) or idle_since <= now - timedelta(days=settings.TOKEN_IDLE_DAYS):
        token.delete()
        return None
    if token.last_used_at is None or token.last_used_at <= now - LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


@transaction.atomic
def token_revoke(*, user, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ServiceError("token_not_found", f"you have no token {token_id}")


@transaction.atomic
def tokens_revoke_all(*, username: str) -> int:
    """Staff: revoke every API token of the account (a leaked key, a misbehaving bot); how many.
    The account itself stays: its owner logs in again for a new token."""
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        raise ServiceError("user_not_found", f"no user {username!r}")
    return ApiToken.objects.filter(user=user).delete()[0]


@transaction.atomic
def token_logout(*, user, current: ApiToken | None, everywhere: bool = False) -> int:
    """Revoke the token the request came with, or every token of `user`; how many were revoked."""
    if everywhere:
        return ApiToken.objects.filter(user=user).delete()[0]
    if not isinstance(current, ApiToken):
        raise ServiceError("no_token", "this request did not use a token; use ?all=true to revoke every token")
    return ApiToken.objects.filter(user=user, pk=current.pk).delete()[0]
