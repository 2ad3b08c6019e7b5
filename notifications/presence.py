"""When a player was last on the site, the API or an event stream: your-turn mails wait while they are.

DRF sets the authenticated user (token or session) on Django's request, so this middleware sees
API callers too. A cache key lets each process write at most once a minute per player."""
from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from notifications.models import Presence

RESOLUTION_SECONDS = 60


def player_seen(user_id: int) -> None:
    if cache.add(f"notifications:seen:{user_id}", 1, RESOLUTION_SECONDS):
        Presence.objects.update_or_create(user_id=user_id, defaults={"seen_at": timezone.now()})


class PresenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            player_seen(user.pk)
        return response
