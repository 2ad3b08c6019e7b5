"""Each user's event stream."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Event(models.Model):
    """An entry in a user's event stream (moves, challenges, results)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]
