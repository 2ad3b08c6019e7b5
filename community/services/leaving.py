"""Deleting an account, in one transaction (policy: docs/moderation.md).

Personal data goes: e-mail, names, profile and settings, tokens, events, blocks, vacation; the
password becomes unusable and `is_active` is cleared, so every session and token stops. The user
row stays as a placeholder player named `deleted-<id>`, so opponents keep their matches and
ratings; what the user wrote in chat reads "deleted"; their old username is held for
PEARLSITE_DELETED_USERNAME_HOLD_DAYS days. Active matches are resigned (the opponents win), or
voided where resigning is refused."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from matches.errors import ServiceError
from matches.models import ApiToken, Event, Match, Profile, Vacation
from matches.policies import erase_account
from matches.services import results

from ..models import Block, ChatMessage, UsernameHold
from ..models.moderation import DELETED_PREFIX
from .moderation import withdraw_from_play

DELETED_TEXT = "deleted"


def _resign_active(user) -> None:
    for pk in Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user).values_list("pk", flat=True).distinct():
        try:
            results.match_resign(match_id=pk, user=user)
        except ServiceError:          # e.g. the clock ran out: the match is voided below instead
            pass


@transaction.atomic
def account_delete(*, user, password: str) -> None:
    if not isinstance(password, str) or not user.check_password(password):
        raise ServiceError("wrong_password", "the password is not this account's")
    _resign_active(user)
    withdraw_from_play(user)
    until = timezone.now() + timedelta(days=settings.DELETED_USERNAME_HOLD_DAYS)
    UsernameHold.objects.update_or_create(username=user.username.lower(), defaults={"until": until})
    ChatMessage.objects.filter(author=user).update(text=DELETED_TEXT)
    for model in (ApiToken, Event, Profile, Vacation):
        model.objects.filter(user=user).delete()
    Block.objects.filter(blocker=user).delete()
    Block.objects.filter(blocked=user).delete()
    erase_account(user)          # what other apps hold (notifications: address, webhooks...)
    user.username = f"{DELETED_PREFIX}{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
