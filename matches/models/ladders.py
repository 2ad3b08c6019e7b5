"""Ranked ladders, their entries and the history of their standings."""
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
    answer_days = models.PositiveSmallIntegerField(
        default=7, help_text="days a challenged player has to accept before forfeiting")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="ladders_created")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]


class LadderEntry(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_entries")
    rank = models.PositiveIntegerField()    # 1 = top
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0, help_text="challenges lost without playing")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_entry_user_unique"),
            models.UniqueConstraint(fields=["ladder", "rank"], name="ladder_entry_rank_unique",
                                    deferrable=models.Deferrable.DEFERRED),
        ]


class LadderEvent(models.Model):
    """One change of the standings: a join, a challenge won or defended, or a forfeit."""

    class Kind(models.TextChoices):
        JOINED = "joined"
        CLIMBED = "climbed"        # the challenger won and took the defender's rank
        DEFENDED = "defended"      # the defender won or drew: no rank changed
        FORFEITED = "forfeited"    # a side never answered or never moved: it loses without a game

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="+")
    forfeited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="+")
    challenger_rank = models.PositiveIntegerField(help_text="the challenger's rank after the event")
    defender_rank = models.PositiveIntegerField(null=True, blank=True)
    challenge = models.ForeignKey("Challenge", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    match = models.ForeignKey("Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["ladder", "id"]
