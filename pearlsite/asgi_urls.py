"""Requests that arrive through ASGI (uvicorn) are resolved with `settings.ASGI_URLCONF`, which puts
the async waiting endpoints in front of the ordinary URLconf (pearlsite/urls_asgi.py); requests
through WSGI keep `ROOT_URLCONF` and its threaded versions of the same paths. Every middleware
must be usable from async code (see `StaticFilesMiddleware`)."""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.utils.decorators import sync_and_async_middleware
from whitenoise.middleware import WhiteNoiseMiddleware


def _route(request) -> None:
    if isinstance(request, ASGIRequest):
        request.urlconf = settings.ASGI_URLCONF


@sync_and_async_middleware
def AsgiUrlconfMiddleware(get_response):  # noqa: N802 — named like the middleware classes beside it
    if iscoroutinefunction(get_response):
        async def middleware(request):
            _route(request)
            return await get_response(request)
    else:
        def middleware(request):
            _route(request)
            return get_response(request)
    return middleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, usable from async code too: as a synchronous-only middleware it would run every
    request below it (a long poll's wait included) inside a thread under ASGI."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None):
        super().__init__(get_response)
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self._serve_async(request)
        return super().__call__(request)

    async def _serve_async(self, request):
        if self.autorefresh or self.files.get(request.path_info) is not None:
            static_file = await sync_to_async(self._static_file, thread_sensitive=False)(request.path_info)
            if static_file is not None:
                return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)

    def _static_file(self, path: str):
        return self.find_file(path) if self.autorefresh else self.files.get(path)
