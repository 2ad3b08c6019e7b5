"""What each player wants to be told, by which channel, and in which time zone; when they were last seen."""
from __future__ import annotations

from django.conf import settings
from django.db import models

# What a player can be told of (docs/notifications.md §2).
KINDS = ("your_turn", "challenge_received", "offer_made", "deadline_reminder", "match_finished",
         "tournament_round", "ladder_challenge")
# email: a mail of its own (your-turn mails are batched); digest: a line in the daily or weekly
# digest; webhook: a POST to the player's webhooks that take the kind. An empty list: off.
CHANNELS = ("email", "digest", "webhook")
DEFAULT_CHANNELS: dict[str, list[str]] = {
    "your_turn": ["email", "webhook"],
    "challenge_received": ["email", "webhook"],
    "offer_made": ["digest", "webhook"],
    "deadline_reminder": ["email", "webhook"],
    "match_finished": ["digest", "webhook"],
    "tournament_round": ["email", "webhook"],
    "ladder_challenge": ["email", "webhook"],
}


class Preferences(models.Model):
    """One per player, made on first write (a player without one has the defaults). How often the
    digest comes (none, daily, weekly) is the profile's `notification_digest` (matches)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preferences")
    # Only the kinds a player changed; the rest follow DEFAULT_CHANNELS.
    channels = models.JSONField(default=dict)
    time_zone = models.CharField(max_length=64, default="UTC", help_text="an IANA name, e.g. Europe/Paris")
    # One of settings.LANGUAGES, or blank: the pages follow the browser (its cookie, else Accept-Language).
    language = models.CharField(max_length=8, blank=True, default="",
                                help_text="the pages' language (en, ja); blank follows the browser")
    digest_hour = models.PositiveSmallIntegerField(default=8, help_text="local hour the digest is sent at")
    digest_weekday = models.PositiveSmallIntegerField(default=0, help_text="weekly digest: 0 Monday .. 6 Sunday")
    last_digest_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(digest_hour__lte=23), name="preferences_digest_hour"),
            models.CheckConstraint(condition=models.Q(digest_weekday__lte=6), name="preferences_digest_weekday"),
        ]

    def channels_for(self, kind: str) -> list[str]:
        return list(self.channels.get(kind, DEFAULT_CHANNELS[kind]))


class Presence(models.Model):
    """When a player last used the site, the API or an event stream (written at most once a minute)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presence")
    seen_at = models.DateTimeField()
