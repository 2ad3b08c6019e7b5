"""Reports of a player, a message or a match, for staff to review."""
from __future__ import annotations

from django.conf import settings
from django.db import models

REASON_MAX = 1000


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RESOLVED = "resolved"      # staff acted on it
        DISMISSED = "dismissed"    # staff found nothing to act on

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                 related_name="reports_made")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="reports_received")
    message = models.ForeignKey("community.ChatMessage", null=True, blank=True, on_delete=models.CASCADE)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.CASCADE)
    reason = models.TextField(max_length=REASON_MAX)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "-id"])]
