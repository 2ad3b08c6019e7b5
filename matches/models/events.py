"""Each user's event stream."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Event(models.Model):
    """An entry in a user's event stream. Ids grow in the order events become visible, so a
    client that remembers the last id it saw resumes without gaps or repeats (design §5.4)."""

    class Kind(models.TextChoices):
        CHALLENGE_RECEIVED = "challenge_received"
        CHALLENGE_ACCEPTED = "challenge_accepted"
        CHALLENGE_DECLINED = "challenge_declined"
        CHALLENGE_CANCELLED = "challenge_cancelled"
        CHALLENGE_EXPIRED = "challenge_expired"
        CHALLENGE_SEAT_LEFT = "challenge_seat_left"      # someone who took an open seat left it
        MATCH_STARTED = "match_started"
        YOUR_TURN = "your_turn"
        MOVE = "move"
        OFFER_MADE = "offer_made"
        OFFER_WITHDRAWN = "offer_withdrawn"
        OFFER_ACCEPTED = "offer_accepted"
        OFFER_DECLINED = "offer_declined"
        OFFER_EXPIRED = "offer_expired"
        MATCH_FINISHED = "match_finished"
        TIME_WARNING = "time_warning"
        ANALYSIS_DONE = "analysis_done"
        POSITION_DONE = "position_done"        # a position's lines asked for are ready (or failed)
        LADDER_FORFEIT = "ladder_forfeit"
        TOURNAMENT_ROUND = "tournament_round"
        TOURNAMENT_FINISHED = "tournament_finished"
        CHAT_MESSAGE = "chat_message"          # a seat wrote in the players' room (community/)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["user", "-id"])]
