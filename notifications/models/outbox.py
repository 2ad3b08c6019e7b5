"""The notification outbox: every mail and webhook delivery is a row before it is sent.

Rows come from the request's own transaction (verification and reset mails) or from the beat's
scan of committed events, reminders and digests (docs/notifications.md §4). `key` makes each
notification once only: a second scan, a retried task or two beats at once find the row there."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    class Channel(models.TextChoices):
        EMAIL = "email"
        WEBHOOK = "webhook"

    class Status(models.TextChoices):
        PENDING = "pending"          # waits for due_at (and for a retry after a failure)
        QUEUED = "queued"            # handed to the workers; lease_until bounds how long
        SENDING = "sending"          # a worker claimed it; lease_until bounds how long
        SENT = "sent"
        FAILED = "failed"            # given up after retrying
        DROPPED = "dropped"          # nothing left to say (moved meanwhile, turned off, unverified...)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    # A notification kind (preferences.KINDS) or an account mail: verify_email, password_reset,
    # digest, webhook_disabled.
    kind = models.CharField(max_length=32)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    webhook = models.ForeignKey("Webhook", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="deliveries")
    key = models.CharField(max_length=200, unique=True)
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    due_at = models.DateTimeField()
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "due_at"]), models.Index(fields=["user", "kind", "status"])]
        constraints = [models.CheckConstraint(
            condition=models.Q(channel="email", webhook__isnull=True) | models.Q(channel="webhook", webhook__isnull=False),
            name="notification_webhook_iff_channel")]


class ScanCursor(models.Model):
    """How far the scan of the event table has read (event ids grow in commit order: design §5.4)."""

    name = models.CharField(max_length=40, unique=True)
    position = models.BigIntegerField(default=0)
