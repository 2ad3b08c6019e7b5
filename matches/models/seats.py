"""What every seat holds, for challenges and matches alike."""
from __future__ import annotations

from django.db import models

AI_LEVEL_MAX = 32


class Seat(models.Model):
    """What every seat holds: its number and either a user or an engine level (or, while a
    challenge is open, neither). Subclasses add the `user` key with their own deletion rule."""

    seat = models.PositiveSmallIntegerField()
    ai_level = models.CharField(max_length=AI_LEVEL_MAX, blank=True, default="")

    class Meta:
        abstract = True

    @property
    def player_name(self) -> str | None:
        """A username, `ai:<level>`, or None for an open seat."""
        if self.user_id:
            return self.user.username
        return f"ai:{self.ai_level}" if self.ai_level else None
