"""Ranked ladders and their entries."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Ladder(models.Model):
    """A ranked ladder for one game and option set: players climb by beating those above them."""

    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    challenge_reach = models.PositiveSmallIntegerField(default=3)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, default=3)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]


class LadderEntry(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_entries")
    rank = models.PositiveIntegerField()    # 1 = top
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_entry_user_unique"),
            models.UniqueConstraint(fields=["ladder", "rank"], name="ladder_entry_rank_unique",
                                    deferrable=models.Deferrable.DEFERRED),
        ]
