"""A user's own profile and settings."""
from __future__ import annotations

from django.db import transaction

from matches.models import Profile

PROFILE_FIELDS = ("display_name", "bio")
SETTINGS_FIELDS = ("notification_digest",)


@transaction.atomic
def profile_update(*, user, profile: dict | None = None, settings: dict | None = None) -> Profile:
    """Change the given fields (others keep their values); the row is made on first write."""
    row, _ = Profile.objects.select_for_update().get_or_create(user=user)
    changes = {**{k: v for k, v in (profile or {}).items() if k in PROFILE_FIELDS},
               **{k: v for k, v in (settings or {}).items() if k in SETTINGS_FIELDS}}
    for name, value in changes.items():
        setattr(row, name, value)
    if changes:
        row.save(update_fields=[*changes, "updated_at"])
    return row
