"""A player's webhooks: HTTPS URLs that receive signed JSON POSTs of the kinds they chose."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Webhook(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    kinds = models.JSONField(default=list, help_text="the notification kinds this URL receives")
    # The HMAC key: shown to the owner once, when the webhook is made (it signs, so it is kept).
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    # Failed attempts in a row; past WEBHOOK_DISABLE_AFTER the webhook is switched off.
    failures = models.PositiveIntegerField(default=0)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
