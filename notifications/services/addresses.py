"""An account's e-mail address: set (at sign-up or later), verified by a signed link, removed.

A new or changed address starts unverified and gets the verification mail, written to the outbox
in the same transaction; nothing else is ever sent to an unverified address."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.errors import ServiceError
from notifications import links
from notifications.models import EmailAddress

from .outbox import enqueue_now


def _normalized(address: str) -> str:
    local, _, domain = address.strip().rpartition("@")
    return f"{local}@{domain.lower()}"


def _check_free(address: str, user) -> None:
    if EmailAddress.objects.filter(address__iexact=address).exclude(user=user).exists():
        raise ServiceError("email_taken", "another account uses this e-mail address")


def address_at_signup(*, user, email: str = "") -> None:
    """Sign-up's hook (matches.services.accounts.ACCOUNT_CREATED): keep the address, if any."""
    if email:
        address_set(user=user, address=email)


@transaction.atomic
def address_set(*, user, address: str) -> EmailAddress:
    """Set or change the address; a different one is unverified until its link is opened."""
    address = _normalized(address)
    _check_free(address, user)
    row = EmailAddress.objects.select_for_update().filter(user=user).first()
    if row is not None and row.address.lower() == address.lower():
        return row
    try:
        with transaction.atomic():
            if row is None:
                row = EmailAddress.objects.create(user=user, address=address)
            else:
                row.address, row.verified_at = address, None
                row.save(update_fields=["address", "verified_at", "changed_at"])
    except IntegrityError:                   # the same address, in some case, taken meanwhile
        raise ServiceError("email_taken", "another account uses this e-mail address") from None
    _send_verification(row)
    return row


def _send_verification(row: EmailAddress) -> None:
    enqueue_now(user=row.user, kind="verify_email", key=f"verify:{row.user_id}:{row.pk}:{timezone.now().timestamp()}",
                payload={"address": row.address})


@transaction.atomic
def address_resend(*, user) -> None:
    row = EmailAddress.objects.select_for_update().filter(user=user).first()
    if row is None:
        raise ServiceError("no_email", "you have no e-mail address; set one first")
    if row.verified:
        raise ServiceError("already_verified", "this address is verified already")
    _send_verification(row)


def address_remove(*, user) -> int:
    return EmailAddress.objects.filter(user=user).delete()[0]


@transaction.atomic
def address_verify(*, token: str) -> EmailAddress:
    """Mark the address the link was sent to verified (if it is still the account's address)."""
    found = links.verify_token_read(token)
    row = found and EmailAddress.objects.select_for_update().filter(user_id=found[0]).first()
    if not row or row.address.lower() != found[1]:
        raise ServiceError("invalid_link", "this verification link is wrong, expired or for an old address")
    if not row.verified:
        row.verified_at = timezone.now()
        row.save(update_fields=["verified_at", "changed_at"])
    return row
