"""Accounts: registration and API tokens."""
from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from matches.errors import ServiceError

User = get_user_model()
AI_PREFIX = "ai:"


def account_register(*, username: str, password: str) -> tuple["User", str]:
    if username.startswith(AI_PREFIX) or ":" in username:
        raise ServiceError("invalid_username", "usernames may not contain ':'")
    candidate = User(username=username)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ServiceError("weak_password", "the password is too weak",
                           detail={"password": exc.messages}) from exc
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError:
        raise ServiceError("username_taken", f"the username {username!r} is taken") from None
    return user, token.key


@transaction.atomic
def token_for_credentials(*, username: str, password: str, request=None) -> str:
    """The account's API token (created on first use), for the right username and password."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise ServiceError("invalid_credentials", "wrong username or password")
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
