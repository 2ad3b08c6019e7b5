"""What a user says about themselves and how they want to be told of things."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """One per user, made on first write (a user without one has the defaults)."""

    class Digest(models.TextChoices):
        NONE = "none"
        DAILY = "daily"
        WEEKLY = "weekly"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=50, blank=True, default="")
    bio = models.TextField(max_length=1000, blank=True, default="")
    notification_digest = models.CharField(max_length=10, choices=Digest.choices, default=Digest.NONE)
    updated_at = models.DateTimeField(auto_now=True)
