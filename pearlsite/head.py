"""HEAD answers carry the headers of the GET answer and no body. Django's development server drops
the body itself; gunicorn sends what it is given, so without this a HEAD answer carried the whole
body (corrupting the next answer on a kept-alive connection) and `HEAD events/stream/` streamed."""
from __future__ import annotations

from .middleware import SyncAndAsyncMiddleware


async def _nothing():
    return
    yield


class HeadWithoutBodyMiddleware(SyncAndAsyncMiddleware):
    def call(self, request):
        return self._without_body(request, self.get_response(request))

    async def acall(self, request):
        return self._without_body(request, await self.get_response(request))

    @staticmethod
    def _without_body(request, response):
        if request.method != "HEAD":
            return response
        if response.streaming:
            # The stream is closed unread with the response.
            response.streaming_content = _nothing() if response.is_async else iter(())
        else:
            response.headers.setdefault("Content-Length", str(len(response.content)))
            response.content = b""
        return response
