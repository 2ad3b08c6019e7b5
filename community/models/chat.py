"""Match chat: two rooms per match, the seats' and the spectators'."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatMessage(models.Model):
    class Room(models.TextChoices):
        PLAYERS = "players"          # the seats; spectators read it too
        SPECTATORS = "spectators"    # everyone else; hidden from the seats while the match runs

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=10, choices=Room.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.TextField()
    ply = models.PositiveIntegerField(help_text="the match's ply when written: the message follows that move")
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True, help_text="staff hid it (the text is no longer shown)")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["match", "room", "id"])]

    def __str__(self) -> str:
        return f"message {self.pk} in match {self.match_id}"
