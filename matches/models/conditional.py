"""Conditional moves: a player's prepared replies, private to them."""
from __future__ import annotations

from django.db import models


class ConditionalMoves(models.Model):
    """A seat's tree of prepared replies in a perfect-information match, rooted at the position
    after `ply` moves (where the opponent is to move): `tree` maps an opponent move to
    `{"reply": <move>, "then": <tree>}`."""

    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="conditional_moves")
    seat = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()
    tree = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="conditional_moves_seat_unique")]
