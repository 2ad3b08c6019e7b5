"""When a player was last on the site, the API or an event stream: your-turn mails wait while they are.

DRF sets the authenticated user (token or session) on Django's request, so this middleware sees
API callers too. A cache key lets each process write at most once a minute per player.

Under ASGI the write runs on the event loop's small shared thread pool: run in the request's own
thread it would open a database connection there and hold it as long as the response lasts, one
per open event stream (hours each, thousands of them)."""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from notifications.models import Presence

RESOLUTION_SECONDS = 60


def player_seen(user_id: int) -> None:
    if cache.add(f"notifications:seen:{user_id}", 1, RESOLUTION_SECONDS):
        Presence.objects.update_or_create(user_id=user_id, defaults={"seen_at": timezone.now()})


def request_seen(request) -> None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player_seen(user.pk)


def request_seen_in_pool(request) -> None:
    """`request_seen` on a pool thread, which keeps its connection: dropped after an error so
    the next call connects afresh."""
    try:
        request_seen(request)
    except Exception:
        connection.close()
        raise


class PresenceMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        response = self.get_response(request)
        request_seen(request)
        return response

    async def _acall(self, request):
        response = await self.get_response(request)
        await sync_to_async(request_seen_in_pool, thread_sensitive=False)(request)
        return response
