"""Blocks: the blocker hears nothing more from the blocked player (docs/moderation.md)."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Block(models.Model):
    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]
