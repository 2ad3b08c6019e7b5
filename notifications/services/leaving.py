"""When an account is deleted (community.services.leaving, through matches.policies.account_erasers):
the address, preferences, presence, webhooks and every notification made for the account go."""
from __future__ import annotations

from notifications.models import (
    EmailAddress,
    Notification,
    Preferences,
    Presence,
    Webhook,
)


def account_erase(user) -> None:
    for model in (Notification, Webhook, EmailAddress, Preferences, Presence):
        model.objects.filter(user=user).delete()
