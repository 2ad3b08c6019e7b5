"""The caller's own account: profile and settings."""
from __future__ import annotations

from matches.models import Profile


def profile_of(user) -> Profile:
    """The user's profile, or an unsaved one with the defaults."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


def account_payload(user) -> dict:
    profile = profile_of(user)
    return {
        "username": user.username, "date_joined": user.date_joined,
        "profile": {"display_name": profile.display_name, "bio": profile.bio},
        "settings": {"notification_digest": profile.notification_digest},
    }
