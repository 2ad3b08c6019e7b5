"""A player's webhooks: made (the secret shown once), changed, deleted; switched off after failures."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import transaction

from matches.errors import ServiceError
from notifications import netguard
from notifications.models import KINDS, Webhook

from .outbox import enqueue_now


def _check_kinds(kinds: list[str]) -> None:
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ServiceError("invalid_channels", f"no notification kind {unknown[0]!r}", detail={"kind": unknown[0]})


def _check(url: str, kinds: list[str]) -> None:
    """Checked when made, and again before every delivery (the name may resolve elsewhere later)."""
    try:
        netguard.check(url)
    except netguard.Refused as exc:
        raise ServiceError("webhook_url_refused", f"this URL is refused: {exc}", detail={"url": url}) from None
    _check_kinds(kinds)


@transaction.atomic
def webhook_create(*, user, url: str, kinds: list[str]) -> Webhook:
    _check(url, kinds)
    limit = settings.WEBHOOKS_PER_USER
    if Webhook.objects.select_for_update().filter(user=user).count() >= limit:
        raise ServiceError("too_many_webhooks", f"you have {limit} webhooks already", detail={"limit": limit})
    return Webhook.objects.create(user=user, url=url, kinds=list(dict.fromkeys(kinds)),
                                  secret=secrets.token_hex(32))


def _own(user, webhook_id: int) -> Webhook:
    row = Webhook.objects.select_for_update().filter(user=user, pk=webhook_id).first()
    if row is None:
        raise ServiceError("webhook_not_found", f"you have no webhook {webhook_id}")
    return row


@transaction.atomic
def webhook_update(*, user, webhook_id: int, kinds: list[str] | None = None, active: bool | None = None) -> Webhook:
    row = _own(user, webhook_id)
    if kinds is not None:
        _check_kinds(kinds)
        row.kinds = list(dict.fromkeys(kinds))
    if active is not None:
        row.active = active
        if active:
            row.failures, row.disabled_reason = 0, ""
    row.save()
    return row


@transaction.atomic
def webhook_delete(*, user, webhook_id: int) -> None:
    _own(user, webhook_id).delete()


@transaction.atomic
def webhook_attempted(webhook: Webhook, ok: bool, error: str = "") -> None:
    """Count failures in a row; past WEBHOOK_DISABLE_AFTER switch it off and tell the owner by mail."""
    row = Webhook.objects.select_for_update().get(pk=webhook.pk)
    if ok:
        if row.failures:
            Webhook.objects.filter(pk=row.pk).update(failures=0)
        return
    row.failures += 1
    if row.active and row.failures >= settings.WEBHOOK_DISABLE_AFTER:
        row.active = False
        row.disabled_reason = f"{row.failures} failed deliveries in a row; last: {error}"[:200]
        enqueue_now(user=row.user, kind="webhook_disabled", key=f"webhook-off:{row.pk}:{row.failures}",
                    payload={"webhook": row.pk, "url": row.url, "reason": row.disabled_reason})
    row.save(update_fields=["failures", "active", "disabled_reason"])
