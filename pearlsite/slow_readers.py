"""A reader that takes no bytes for `STREAM_SEND_TIMEOUT_SECONDS` is disconnected (ASGI).

The ASGI server holds at most its transport's buffer for a connection and makes each send wait
while the client is not reading (flow control), and a stream reads at most one batch of events
ahead; so a slow reader never makes the server buffer without bound, it only stalls its own
stream. Past the timeout the send gives up: the connection's stream leases are given back at once,
Django ends the request as a client disconnect (its wake-up registration is freed when the
abandoned response is collected) and the server closes the socket.
"""
from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.core.exceptions import RequestAborted

from matches.live import leases

log = logging.getLogger(__name__)


def drop_slow_readers(app):
    async def bounded(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        seconds = settings.STREAM_SEND_TIMEOUT_SECONDS
        with leases.connection_scope() as release_leases:

            async def timed_send(message):
                try:
                    await asyncio.wait_for(send(message), seconds)
                except TimeoutError:
                    log.warning("dropped a client that read nothing for %s s: %s", seconds, scope.get("path"))
                    release_leases()        # the stream's slot is free for its reconnect at once
                    raise RequestAborted("the client stopped reading") from None

            return await app(scope, receive, timed_send)

    return bounded
