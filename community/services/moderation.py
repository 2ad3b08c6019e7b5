"""Staff actions on players and messages (policy: docs/moderation.md). Each one is audited.

Suspending clears Django's `is_active`, which stops the player's sessions (the auth backend
refuses inactive users) and API tokens (matches.services.accounts.token_authenticate) at once; it cancels their
open challenges, declines those waiting for them, takes them off ladders and out of tournaments
that have not started, and voids their active matches (no result, unrated). Leaderboards list
active users only; the rounds of a running tournament score their pairings as forfeits."""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from matches.errors import ServiceError, first_or_error
from matches.models import Challenge, Match, Tournament
from matches.services import challenges, ladders, results, tournaments

from ..models import ChatMessage, Suspension
from .audit import audit

User = get_user_model()
REASON_MAX = 1000


def _player(username: str, *, lock: bool = False):
    rows = User.objects.filter(username__iexact=username).order_by("pk")
    return first_or_error(rows.select_for_update() if lock else rows, "player_not_found",
                          f"no player named {username!r}")


def _check_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason or len(reason) > REASON_MAX:
        raise ServiceError("reason_required", f"give a reason of 1 to {REASON_MAX} characters")
    return reason


def withdraw_from_play(user) -> dict:
    """Cancel, decline, leave and void everything `user` has going; what was done, by id."""
    done = {"cancelled": [], "declined": [], "voided": [], "left_tournaments": [], "left_ladders": []}
    for pk in Challenge.objects.filter(created_by=user, status=Challenge.Status.OPEN).values_list("pk", flat=True):
        challenges.challenge_cancel(challenge_id=pk, user=user)
        done["cancelled"].append(pk)
    waiting = Challenge.objects.filter(status=Challenge.Status.OPEN, seats__user=user).exclude(created_by=user)
    for pk in waiting.values_list("pk", flat=True).distinct():
        challenges.challenge_decline(challenge_id=pk, user=user)
        done["declined"].append(pk)
    for pk in Tournament.objects.filter(status=Tournament.Status.OPEN, entries__user=user).values_list("pk", flat=True):
        tournaments.tournament_leave(tournament_id=pk, user=user)
        done["left_tournaments"].append(pk)
    for pk in Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user).values_list("pk", flat=True).distinct():
        results.match_void(match_id=pk)
        done["voided"].append(pk)
    done["left_ladders"] = ladders.ladder_leave_all(user=user)
    return done


@transaction.atomic
def suspend(*, staff, username: str, reason: str, days: int | None = None) -> Suspension:
    """For `days` days, or for good when None."""
    reason = _check_reason(reason)
    if days is not None and (not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 36500):
        raise ServiceError("invalid_suspension", "days is a whole number from 1 to 36500, or null for good")
    user = _player(username, lock=True)
    if Suspension.objects.filter(user=user, lifted_at=None).exists():
        raise ServiceError("already_suspended", f"{username!r} is suspended already")
    ends_at = timezone.now() + timedelta(days=days) if days else None
    suspension = Suspension.objects.create(user=user, reason=reason, ends_at=ends_at)
    user.is_active = False
    user.save(update_fields=["is_active"])
    done = withdraw_from_play(user)
    audit(actor=staff, action="suspend", target=f"user:{user.pk}", reason=reason,
          detail={"username": user.username, "days": days, **done})
    return suspension


def _lift(suspension: Suspension, *, actor, reason: str) -> None:
    suspension.lifted_at = timezone.now()
    suspension.save(update_fields=["lifted_at"])
    user = suspension.user
    user.is_active = True
    user.save(update_fields=["is_active"])
    audit(actor=actor, action="unsuspend", target=f"user:{user.pk}", reason=reason,
          detail={"username": user.username, "suspension": suspension.pk})


@transaction.atomic
def unsuspend(*, staff, username: str, reason: str) -> Suspension:
    reason = _check_reason(reason)
    user = _player(username, lock=True)
    suspension = first_or_error(Suspension.objects.filter(user=user, lifted_at=None), "not_suspended",
                                f"{username!r} is not suspended")
    _lift(suspension, actor=staff, reason=reason)
    return suspension


def suspensions_lift_expired(now=None) -> list[int]:
    """Lift every suspension whose time is up (the beat task); one transaction each."""
    now = now or timezone.now()
    lifted = []
    for pk in Suspension.objects.filter(lifted_at=None, ends_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            suspension = Suspension.objects.select_for_update().select_related("user").filter(
                pk=pk, lifted_at=None).first()
            if suspension is not None:
                _lift(suspension, actor=None, reason="the suspension ended")
                lifted.append(pk)
    return lifted


@transaction.atomic
def message_hide(*, staff, message_id: int, reason: str) -> ChatMessage:
    reason = _check_reason(reason)
    message = first_or_error(ChatMessage.objects.select_for_update().filter(pk=message_id), "message_not_found",
                             f"no message with id {message_id}")
    if message.hidden_at is None:
        message.hidden_at = timezone.now()
        message.save(update_fields=["hidden_at"])
    audit(actor=staff, action="message_hide", target=f"message:{message.pk}", reason=reason,
          detail={"match": message.match_id, "author_id": message.author_id})
    return message


@transaction.atomic
def message_unhide(*, staff, message_id: int, reason: str) -> ChatMessage:
    """Show a hidden message again."""
    reason = _check_reason(reason)
    message = first_or_error(ChatMessage.objects.select_for_update().filter(pk=message_id), "message_not_found",
                             f"no message with id {message_id}")
    if message.hidden_at is None:
        raise ServiceError("message_not_hidden", f"message {message_id} is not hidden")
    message.hidden_at = None
    message.save(update_fields=["hidden_at"])
    audit(actor=staff, action="message_unhide", target=f"message:{message.pk}", reason=reason,
          detail={"match": message.match_id, "author_id": message.author_id})
    return message
