"""Matches and their records: the position snapshot, the seats and one row per ply."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .seats import Seat


class Match(models.Model):
    """A game in progress or finished. `state` is the latest `to_dict()` snapshot (full truth,
    never sent to clients); the Move rows are the record, and replaying them rebuilds `state`."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    ply = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    state = models.JSONField()
    result = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    # {"kind": "per_move", "days": d} or {"kind": "fischer", "initial_days", "increment_days",
    # "max_days"} (matches.selectors.clocks); null: no clock.
    time_control = models.JSONField(null=True, blank=True)
    # When the running clock of the seat to move started; null when no clock runs (an engine's
    # turn, the player on vacation, no time control, the match over).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # turn_started_at + the mover's clock: when the seat to move loses on time.
    deadline = models.DateTimeField(null=True, blank=True)
    time_warned = models.BooleanField(default=False, help_text="the time warning of this turn was sent")
    # The latest move as lists show it, {ply, seat, move (public form), created_at}: kept here so
    # an inbox never reads the record or the position.
    last_move = models.JSONField(null=True, blank=True)
    ladder = models.ForeignKey("Ladder", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="matches")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["status", "game"]), models.Index(fields=["deadline"])]
        constraints = [
            models.CheckConstraint(condition=Q(status="active") | Q(to_move__isnull=True),
                                   name="match_nobody_moves_when_over"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.status}, ply {self.ply})"


class MatchSeat(Seat):
    """A seat of a match: always a user (kept while their matches exist) or an engine level."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="match_seats")
    offer = models.CharField(max_length=10, blank=True, default="")   # "draw" / "takeback"
    offer_ply = models.PositiveIntegerField(null=True, blank=True, help_text="the ply the offer was made at")
    # Time left on this seat's clock (for the seat to move: as of match.turn_started_at).
    clock = models.DurationField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        # A player's matches newest first, and the inbox: the user's seats in match order, read
        # from the index alone (docs/scaling.md has the plans).
        indexes = [models.Index(fields=["user", "-match"], name="match_seat_user_match")]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_unique"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(ai_level="")) | (Q(user__isnull=True) & ~Q(ai_level="")),
                name="match_seat_user_xor_ai"),
        ]


class Move(models.Model):
    """One ply of the record: the notation the rules produced (design §2: notation is storage)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()          # 1 for the first move
    seat = models.PositiveSmallIntegerField()
    notation = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="move_ply_unique")]
