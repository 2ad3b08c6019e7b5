"""Tournaments: round-robin and Swiss events played a round at a time, every game of a round at once."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round-robin"
        SWISS = "swiss"

    class Status(models.TextChoices):
        OPEN = "open"              # taking entries until it starts
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"    # too few entrants at the start time

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, default=3)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    rounds = models.PositiveSmallIntegerField(help_text="Swiss: as asked; round-robin: set at the start")
    max_entrants = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "starts_at"])]


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    seed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = strongest, set at the start")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_unique")]


class TournamentGame(models.Model):
    """One pairing of a round: seat 0 against seat 1, or a bye (no seat 1, no match)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField()
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                              help_text="seat 0")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+", help_text="seat 1; empty for a bye")
    match = models.OneToOneField("Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="tournament_game")
    first_score = models.FloatField(null=True, blank=True, help_text="1, 0.5 or 0 once decided")

    class Meta:
        ordering = ["tournament", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(second__isnull=False) | Q(match__isnull=True), name="bye_has_no_match"),
        ]
