"""Signed links in mails: verify an address, reset a password, turn a kind off (no sign-in).

Verification and unsubscribe links are Django signatures (HMAC with SECRET_KEY and a salt of
their own); reset links use Django's password-reset token generator, which a new password,
a log-in or a new address makes void."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

VERIFY_SALT = "notifications.verify-email"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def verify_token(user_id: int, address: str) -> str:
    return signing.dumps({"u": user_id, "a": address.lower()}, salt=VERIFY_SALT, compress=True)


def verify_token_read(token: str) -> tuple[int, str] | None:
    """(user id, address) from a token signed within EMAIL_VERIFY_HOURS, else None."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_HOURS * 3600)
        return int(data["u"]), str(data["a"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def verify_url(user_id: int, address: str) -> str:
    return absolute(reverse("notifications:verify-email", args=[verify_token(user_id, address)]))


def reset_url(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return absolute(reverse("notifications:password-reset-confirm", args=[uid, default_token_generator.make_token(user)]))


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_token_read(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        return int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def unsubscribe_url(user_id: int, kind: str) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id, kind)]))


def match_url(match_id: int) -> str:
    return absolute(reverse("web:match", args=[match_id]))


def settings_url() -> str:
    return absolute(reverse("notifications:settings"))
