"""Ratings per user and game."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """Glicko-2 rating of one user in one game (matches/ratings.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_user_game_unique")]
