"""Ratings per user and rating key (game + rated variant), and one history row per rated result."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A user's rating under one key (`matches.rating_keys`). `rating` and `deviation` are on the
    Glicko scale for every system (Weng–Lin values are mapped onto it, docs/ratings.md), so lists
    sort and filter alike; `volatility` is Glicko-2's σ (unused by Weng–Lin)."""

    class System(models.TextChoices):
        GLICKO2 = "glicko2"
        WENG_LIN = "weng-lin"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="", help_text="a rated variant, or empty")
    system = models.CharField(max_length=10, choices=System.choices, default=System.GLICKO2)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "variant", "-rating"]
        constraints = [models.UniqueConstraint(fields=["user", "game", "variant"], name="rating_user_key_unique")]
        indexes = [models.Index(fields=["game", "variant", "-rating"])]


class RatingChange(models.Model):
    """One point of a rating's history: what one rated result did to it."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="rating_changes")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["rating", "id"]
        constraints = [models.UniqueConstraint(fields=["rating", "match"], name="rating_change_once_per_match")]
