"""The owner's own view of their address, preferences, webhooks and deliveries (never anyone else's)."""
from __future__ import annotations

from django.db.models import QuerySet

from matches.errors import ServiceError
from matches.models import Profile
from notifications.models import (
    CHANNELS,
    KINDS,
    EmailAddress,
    Notification,
    Preferences,
    Presence,
    Webhook,
)


def email_payload(user) -> dict:
    row = EmailAddress.objects.filter(user=user).first()
    return {"email": row.address if row else None, "verified": bool(row and row.verified),
            "verified_at": row.verified_at if row else None}


def preferences_payload(user) -> dict:
    prefs = Preferences.objects.filter(user=user).first() or Preferences()
    profile = Profile.objects.filter(user=user).first()
    return {"channels": {kind: prefs.channels_for(kind) for kind in KINDS}, "time_zone": prefs.time_zone,
            "digest": profile.notification_digest if profile else Profile.Digest.NONE,
            "digest_hour": prefs.digest_hour, "digest_weekday": prefs.digest_weekday, "language": prefs.language,
            "kinds": list(KINDS), "channel_names": list(CHANNELS)}


def webhooks_of(user) -> QuerySet[Webhook]:
    return Webhook.objects.filter(user=user).order_by("id")


def webhook_payload(hook: Webhook) -> dict:
    return {"id": hook.pk, "url": hook.url, "kinds": hook.kinds, "active": hook.active, "failures": hook.failures,
            "disabled_reason": hook.disabled_reason, "created_at": hook.created_at}


def deliveries_of(user, webhook_id: int) -> QuerySet[Notification]:
    if not Webhook.objects.filter(user=user, pk=webhook_id).exists():
        raise ServiceError("webhook_not_found", f"you have no webhook {webhook_id}")
    return Notification.objects.filter(user=user, webhook_id=webhook_id).order_by("-id")


def delivery_payload(row: Notification) -> dict:
    return {"id": row.payload.get("id"), "kind": row.kind, "status": row.status, "attempts": row.attempts,
            "response_status": row.response_status, "last_error": row.last_error, "created_at": row.created_at,
            "sent_at": row.sent_at, "next_attempt_at": row.due_at if row.status == "pending" else None}


def _iso(value):
    return value.isoformat() if value is not None else None


def account_export_part(user) -> dict:
    """This app's part of the account's data download (community's export, through
    matches.policies.account_exports): the address, the preferences, the webhooks (never their
    signing secret) and every notification made for the account (kind, channel, status, dates)."""
    email = email_payload(user)
    prefs = preferences_payload(user)
    presence = Presence.objects.filter(user=user).first()
    return {"notifications": {
        "email": {"address": email["email"], "verified_at": _iso(email["verified_at"])},
        "preferences": {k: prefs[k] for k in ("channels", "time_zone", "digest", "digest_hour", "digest_weekday")},
        "last_seen_at": _iso(presence.seen_at) if presence else None,
        "webhooks": [{**webhook_payload(h), "created_at": _iso(h.created_at)} for h in webhooks_of(user)],
        "sent": [{"kind": n.kind, "channel": n.channel, "status": n.status, "created_at": _iso(n.created_at),
                  "sent_at": _iso(n.sent_at)} for n in Notification.objects.filter(user=user).order_by("id")],
    }}
