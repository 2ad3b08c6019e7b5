"""Challenges: invitations to play, with a seat each for a user, an engine or anyone."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .seats import Seat


class Challenge(models.Model):
    """An invitation to play: seats for named users, open seats (anyone), or engine seats."""

    class Status(models.TextChoices):
        OPEN = "open"           # waiting for seats to be accepted
        STARTED = "started"     # every seat accepted: `match` is set
        DECLINED = "declined"
        CANCELLED = "cancelled"
        EXPIRED = "expired"     # nobody took it in time (PEARLSITE_CHALLENGE_DAYS)

    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    time_control = models.JSONField(null=True, blank=True, help_text="as Match.time_control")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_created")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    match = models.OneToOneField("Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="challenge")
    ladder = models.ForeignKey("Ladder", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="challenges")
    rematch_of = models.ForeignKey("Match", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")
    expires_at = models.DateTimeField(null=True, blank=True, help_text="an open challenge expires then")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "game"]), models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"challenge {self.pk} ({self.game}, {self.status})"


class ChallengeSeat(Seat):
    """One seat of a challenge: a user (possibly not yet accepted), an engine level, or open."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="challenge_seats")
    accepted = models.BooleanField(default=False)
    # Created open: whoever takes it may leave it again (open again), but cannot end the challenge.
    open_seat = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "seat"], name="challenge_seat_unique"),
            models.CheckConstraint(condition=~(Q(user__isnull=False) & ~Q(ai_level="")),
                                   name="challenge_seat_user_xor_ai"),
        ]
