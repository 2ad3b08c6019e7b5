"""Suspensions, the staff audit log, and usernames of deleted accounts held back."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Suspension(models.Model):
    """While a row has no `lifted_at`, the user is suspended (and `is_active` is cleared).
    `ends_at` None is for good; a beat task lifts the others when they end."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suspensions")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["user"], condition=models.Q(lifted_at__isnull=True),
                                               name="one_open_suspension")]


class AuditEntry(models.Model):
    """One staff action. Written only by community.services.audit; no service edits or deletes one,
    and the admin shows them read-only."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                              related_name="audit_entries")
    actor_name = models.CharField(max_length=150, help_text="the actor's username when they acted")
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=200, help_text="what was acted on, e.g. user:12 or message:7")
    reason = models.TextField(blank=True, default="")
    detail = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]


# The placeholder name of a deleted account is DELETED_PREFIX + its id.
DELETED_PREFIX = "deleted-"


class UsernameHold(models.Model):
    """A deleted account's username: nobody may register it before `until`."""

    username = models.CharField(max_length=150, unique=True)
    until = models.DateTimeField()
