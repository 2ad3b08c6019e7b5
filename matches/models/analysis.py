"""Engine analyses of match records, and of single positions (the analysis board)."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from .seats import AI_LEVEL_MAX


class Analysis(models.Model):
    """An engine analysis job over a match's record, computed by a worker."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="analyses")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.CASCADE, related_name="analyses",
                                     help_text="empty for analyses the server queued itself")
    level = models.CharField(max_length=AI_LEVEL_MAX, default="medium")
    upto_ply = models.PositiveIntegerField()
    # Hidden-information games: only this seat's turns, and only its player may read the result.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    results = models.JSONField(default=list)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "analyses"


class PositionAnalysis(models.Model):
    """The engine's best lines in one position (the analysis board), computed by a worker and
    kept as a cache: a later request for the same position (`state_key`), level and line count
    with no more thinking time reads this row. `position_key` is the position without its
    bookkeeping (move count, history, last move), which the live-game rule compares
    (docs/analysis.md, "The analysis board")."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    state = models.JSONField(help_text="the position's to_dict() snapshot, what the worker searches")
    state_key = models.CharField(max_length=64, help_text="sha256 of the game and the full state")
    position_key = models.CharField(max_length=64, help_text="sha256 of the game and the position "
                                                            "without bookkeeping (live-game rule)")
    ply = models.PositiveIntegerField()
    to_move = models.PositiveSmallIntegerField()
    level = models.CharField(max_length=AI_LEVEL_MAX)
    lines = models.PositiveSmallIntegerField()
    seconds = models.FloatField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="position_analyses")
    askers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+",
                                    help_text="everyone told when it is done")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["state_key", "level", "lines"]),
                   models.Index(fields=["requested_by", "status"])]
