"""When a player was last on the site, the API or an event stream: your-turn mails wait while they are.

DRF sets the authenticated user (token or session) on Django's request, so this middleware sees
API callers too. A cache key lets each process write at most once a minute per player.

Under ASGI the write runs on the event loop's small shared thread pool: run in the request's own
thread it would open a database connection there and hold it as long as the response lasts, one
per open event stream (hours each, thousands of them)."""
from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

from notifications.models import Presence
from pearlsite.middleware import SyncAndAsyncMiddleware, in_pool

RESOLUTION_SECONDS = 60


def player_seen(user_id: int) -> None:
    if cache.add(f"notifications:seen:{user_id}", 1, RESOLUTION_SECONDS):
        Presence.objects.update_or_create(user_id=user_id, defaults={"seen_at": timezone.now()})


class PresenceMiddleware(SyncAndAsyncMiddleware):
    def call(self, request):
        response = self.get_response(request)
        request_seen(request)
        return response

    async def acall(self, request):
        response = await self.get_response(request)
        await in_pool(request_seen, request)
        return response


def request_seen(request) -> None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player_seen(user.pk)
