"""Password reset by mail, with Django's token generator.

The request answers the same whether or not the account or address exists (the API says so in
every case); a mail goes only to a verified address, at most one per PASSWORD_RESET_EVERY_MINUTES.
A completed reset revokes every API token of the account; its sessions end too, since Django
ties each session to a hash of the password."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext_noop

from matches.errors import ServiceError
from matches.services.accounts import token_logout
from notifications.models import EmailAddress

from .outbox import enqueue_now

User = get_user_model()
RESET_ANSWER = gettext_noop("if the account exists and has a verified e-mail address, a reset link is on its way")


def _account(login: str):
    """The active account with this username or verified address, or None."""
    if "@" in login:
        row = EmailAddress.objects.select_related("user").filter(address__iexact=login.strip(),
                                                                 verified_at__isnull=False).first()
        user = row.user if row else None
    else:
        user = User.objects.filter(username__iexact=login.strip()).first()
    return user if user is not None and user.is_active else None


@transaction.atomic
def reset_request(*, login: str) -> None:
    """Mail a reset link if `login` names an account with a verified address; otherwise nothing."""
    user = _account(login)
    if user is None or not EmailAddress.objects.filter(user=user, verified_at__isnull=False).exists():
        return
    now, every = timezone.now().timestamp(), settings.PASSWORD_RESET_EVERY_MINUTES * 60
    bucket = int(now // every) if every else now           # one mail per window (0: no window)
    enqueue_now(user=user, kind="password_reset", key=f"reset:{user.pk}:{bucket}", payload={})


def _user_from_uid(uid: str):
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError):
        return None
    return User.objects.filter(pk=pk, is_active=True).first()


def reset_link_user(uid: str, token: str):
    """The account a reset link is for, if the link is good; else None."""
    user = _user_from_uid(uid)
    return user if user is not None and default_token_generator.check_token(user, token) else None


@transaction.atomic
def reset_confirm(*, uid: str, token: str, password: str):
    user = reset_link_user(uid, token)
    if user is None:
        raise ServiceError("invalid_link", "this reset link is wrong, used already or expired")
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise ServiceError("weak_password", "the password is too weak: " + " ".join(exc.messages),
                           detail={"password": exc.messages}) from exc
    user.set_password(password)
    user.save(update_fields=["password"])
    token_logout(user=user, current=None, everywhere=True)
    return user
