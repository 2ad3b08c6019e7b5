"""Vacations: a yearly allowance of days during which a player's clocks stand still."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models


class Vacation(models.Model):
    """A player's vacation account for one calendar year (UTC): time used, and since when they
    are away (null: at the board)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation")
    year = models.PositiveSmallIntegerField()
    used = models.DurationField(default=timedelta)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["started_at"])]
