"""The worker's side: claim a row, build and send its mail or POST, record the outcome."""
from __future__ import annotations

import hashlib
import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation

from notifications import webhook_client
from notifications.models import Notification, Preferences
from notifications.selectors.mails import (
    ACCOUNT_MAILS,
    Drop,
    Mail,
    compose,
    mail_language,
)
from pearlsite.metrics import notification_sent

from . import outbox
from .webhooks import webhook_attempted

log = logging.getLogger(__name__)


def deliver(pk: int) -> str:
    """Send one row; what happened (`sent`, `dropped`, `retry`, `failed`, `skipped`)."""
    row = outbox.claim(pk)
    if row is None:
        return "skipped"              # sent, dropped or taken already: a duplicate task
    if row.channel == Notification.Channel.WEBHOOK:
        return _post(row)
    language = mail_language(row.user)
    try:
        _check_hourly_cap(row)
        with translation.override(language):
            mail = compose(row)
    except Drop as reason:
        outbox.mark_dropped(row, str(reason))
        return "dropped"
    try:
        with translation.override(language):
            message = _message(row, mail)
        message.send()
    except (smtplib.SMTPException, OSError) as exc:
        log.warning("mail %s not sent: %s", row.pk, exc)
        notification_sent("email", ok=False)
        return "failed" if outbox.mark_failed(row, f"{type(exc).__name__}: {exc}") else "retry"
    outbox.mark_sent(row)
    notification_sent("email", ok=True)
    if row.kind == "digest":
        Preferences.objects.update_or_create(user=row.user, defaults={"last_digest_at": timezone.now()})
    return "sent"


def _check_hourly_cap(row: Notification) -> None:
    """A player gets at most NOTIFY_MAILS_PER_HOUR notification mails an hour (account mails aside):
    a flood of challenges cannot flood an inbox; the digest still lists what was left out."""
    if row.kind in ACCOUNT_MAILS:
        return
    if outbox.mails_sent_lately(row.user, ACCOUNT_MAILS) >= settings.NOTIFY_MAILS_PER_HOUR:
        raise Drop(f"{settings.NOTIFY_MAILS_PER_HOUR} mails were sent to this player in the last hour")


def _message(row: Notification, mail: Mail) -> EmailMultiAlternatives:
    context = {**mail.context, "user": row.user, "unsubscribe_url": mail.unsubscribe_url,
               "site_url": settings.SITE_URL}
    text = render_to_string(f"notifications/mail/{mail.kind}.txt", context)
    html = render_to_string(f"notifications/mail/{mail.kind}.html", context)
    domain = settings.SITE_URL.split("://", 1)[1].split(":")[0]
    digest = hashlib.sha256(row.key.encode()).hexdigest()[:20]
    # The same Message-ID on a resend lets a receiving server drop a duplicate.
    headers = {"Message-ID": f"<{row.pk}.{digest}@{domain}>", "Auto-Submitted": "auto-generated"}
    if mail.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(mail.subject, text, settings.DEFAULT_FROM_EMAIL, [mail.to], headers=headers)
    message.attach_alternative(html, "text/html")
    return message


def _post(row: Notification) -> str:
    hook = row.webhook
    if not hook.active:
        outbox.mark_dropped(row, "the webhook is switched off")
        return "dropped"
    answer = webhook_client.post(hook.url, hook.secret, row.payload["id"],
                                 {**row.payload, "created_at": row.created_at.isoformat()})
    webhook_attempted(hook, answer.ok, answer.error)
    notification_sent("webhook", ok=answer.ok)
    if answer.ok:
        outbox.mark_sent(row, answer.status)
        return "sent"
    return "failed" if outbox.mark_failed(row, answer.error, answer.status) else "retry"
