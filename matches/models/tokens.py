"""API tokens: stored as a SHA-256 digest of a random key (the key itself is shown once, when it
is made), with a short prefix to tell tokens apart, when they were last used, and an optional
absolute expiry. Tokens unused for `settings.TOKEN_IDLE_DAYS` stop working."""
from __future__ import annotations

from django.conf import settings
from django.db import models

TOKEN_PREFIX_LENGTH = 8


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    prefix = models.CharField(max_length=TOKEN_PREFIX_LENGTH, help_text="the key's first characters")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="never valid after this, if set")

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]

    def __str__(self) -> str:
        return f"token {self.prefix}… of {self.user_id}"
