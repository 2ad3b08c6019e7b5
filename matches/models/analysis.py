"""Engine analyses of match records."""
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
