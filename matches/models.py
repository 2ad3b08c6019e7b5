"""Match records (design §1): thin models with database constraints; logic lives in services."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

AI_LEVEL_MAX = 32


class Challenge(models.Model):
    """An invitation to play: seats for named users, open seats (anyone), or engine seats."""

    class Status(models.TextChoices):
        OPEN = "open"           # waiting for seats to be accepted
        STARTED = "started"     # every seat accepted: `match` is set
        DECLINED = "declined"
        CANCELLED = "cancelled"

    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_created")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    match = models.OneToOneField("Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="challenge")
    ladder = models.ForeignKey("Ladder", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="challenges")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "game"])]

    def __str__(self) -> str:
        return f"challenge {self.pk} ({self.game}, {self.status})"


class Seat(models.Model):
    """What every seat holds: its number and either a user or an engine level (or, while a
    challenge is open, neither). Subclasses add the `user` key with their own deletion rule."""

    seat = models.PositiveSmallIntegerField()
    ai_level = models.CharField(max_length=AI_LEVEL_MAX, blank=True, default="")

    class Meta:
        abstract = True

    @property
    def player_name(self) -> str | None:
        """A username, `ai:<level>`, or None for an open seat."""
        if self.user_id:
            return self.user.username
        return f"ai:{self.ai_level}" if self.ai_level else None


class ChallengeSeat(Seat):
    """One seat of a challenge: a user (possibly not yet accepted), an engine level, or open."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="challenge_seats")
    accepted = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "seat"], name="challenge_seat_unique"),
            models.CheckConstraint(condition=~(Q(user__isnull=False) & ~Q(ai_level="")),
                                   name="challenge_seat_user_xor_ai"),
        ]


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
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
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

    class Meta:
        ordering = ["seat"]
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


class Ladder(models.Model):
    """A ranked ladder for one game and option set: players climb by beating those above them."""

    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    options = models.JSONField(default=dict)
    challenge_reach = models.PositiveSmallIntegerField(default=3)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, default=3)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]


class LadderEntry(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_entries")
    rank = models.PositiveIntegerField()    # 1 = top
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_entry_user_unique"),
            models.UniqueConstraint(fields=["ladder", "rank"], name="ladder_entry_rank_unique",
                                    deferrable=models.Deferrable.DEFERRED),
        ]


class Analysis(models.Model):
    """An engine analysis job over a match's record, computed by a worker."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
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


class Event(models.Model):
    """An entry in a user's event stream (moves, challenges, results)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]
