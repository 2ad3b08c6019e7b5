"""A base for middleware that serves both paths: the threaded WSGI server (sync) and the ASGI
streaming service (async). On the async path a sync-only middleware would make Django run the
whole rest of the chain in a thread, so every waiting stream or long poll would hold one."""
from __future__ import annotations

from abc import ABC, abstractmethod

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.db import connection


class SyncAndAsyncMiddleware(ABC):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.acall(request)
        return self.call(request)

    @abstractmethod
    def call(self, request):
        """The request on the threaded path: `self.get_response(request)` and what surrounds it."""

    @abstractmethod
    async def acall(self, request):
        """The same on the async path: `await self.get_response(request)`."""


def _closing_on_error(func, *args):
    try:
        return func(*args)
    except Exception:
        connection.close()           # the pool thread keeps its connection: start afresh next time
        raise


async def in_pool(func, *args):
    """Run a short synchronous step of an async request on the event loop's shared thread pool.
    Not in the request's own thread (Django's default): a database connection opened there would
    be held as long as the response lasts, one per open event stream, for hours."""
    return await sync_to_async(_closing_on_error, thread_sensitive=False)(func, *args)
