"""The engine-work outbox: one row per engine reply, analysis or position's lines, written in the transaction that
makes the work necessary, so no request can commit without its engine work being on record."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .seats import AI_LEVEL_MAX


class EngineJob(models.Model):
    """One engine reply or analysis and where it stands: queued (in this table only) → sent (to the
    broker) → running (a worker holds a lease on it) → done or failed. The sweep sends queued rows
    and takes back sent or running rows whose lease has run out."""

    class Kind(models.TextChoices):
        REPLY = "reply"
        ANALYSIS = "analysis"
        POSITION = "position"

    class Lane(models.TextChoices):
        """The broker queue: replies never wait behind analyses, people's analyses never behind
        the server's own."""
        REPLY = "ai-move"
        ANALYSIS_USER = "analysis-user"
        ANALYSIS_SYSTEM = "analysis-system"

    class Status(models.TextChoices):
        QUEUED = "queued"
        SENT = "sent"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    LIVE = (Status.QUEUED, Status.SENT, Status.RUNNING)
    IN_FLIGHT = (Status.SENT, Status.RUNNING)

    kind = models.CharField(max_length=10, choices=Kind.choices)
    lane = models.CharField(max_length=20, choices=Lane.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    match = models.ForeignKey("Match", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="engine_jobs", help_text="empty for a position's lines")
    analysis = models.OneToOneField("Analysis", null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="job")
    position = models.OneToOneField("PositionAnalysis", null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="job")
    ply = models.PositiveIntegerField(help_text="the ply the engine looks at (analyses: up to)")
    level = models.CharField(max_length=AI_LEVEL_MAX)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="engine_jobs",
                             help_text="whose request caused it (fair shares); empty for the server's own")
    budget_seconds = models.FloatField(default=0.0, help_text="thinking time; the lease follows from it")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="times a worker started it")
    lease_until = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["lane", "status", "user"]),
                   models.Index(fields=["status", "lease_until"])]
        constraints = [
            # A match waits for one engine move at a time: one live reply job.
            models.UniqueConstraint(fields=["match"], condition=Q(kind="reply", status__in=["queued", "sent", "running"]),
                                    name="engine_job_one_live_reply"),
            models.CheckConstraint(condition=Q(kind="reply", match__isnull=False)
                                   | Q(kind="analysis", analysis__isnull=False, match__isnull=False)
                                   | Q(kind="position", position__isnull=False),
                                   name="engine_job_has_its_row"),
        ]

    def __str__(self) -> str:
        return f"engine job {self.pk} ({self.kind}, match {self.match_id}, ply {self.ply}, {self.status})"
