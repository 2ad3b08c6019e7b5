"""A reader that takes no bytes for `STREAM_SEND_TIMEOUT_SECONDS` is disconnected (ASGI).

The ASGI server holds at most its transport's buffer for a connection and makes each send wait
while the client is not reading (flow control), and a stream reads at most one batch of events
ahead; so a slow reader never makes the server buffer without bound, it only stalls its own
stream. Past the timeout the send gives up: Django ends the request as a client disconnect (the
stream's lease and wake-up registration are freed) and the server closes the socket.
"""
from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.core.exceptions import RequestAborted

log = logging.getLogger(__name__)


def drop_slow_readers(app):
    async def bounded(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        seconds = settings.STREAM_SEND_TIMEOUT_SECONDS

        async def timed_send(message):
            try:
                await asyncio.wait_for(send(message), seconds)
            except TimeoutError:
                log.warning("dropped a client that read nothing for %s s: %s", seconds, scope.get("path"))
                raise RequestAborted("the client stopped reading") from None

        return await app(scope, receive, timed_send)

    return bounded
