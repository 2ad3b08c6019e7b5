"""Every request, observed once: its id (X-Request-ID in and out), its time in the latency
histogram by URL pattern, and one log line (JSON in production) with the id, the user, the route,
the status and the duration."""
from __future__ import annotations

import logging
import time

from . import metrics, request_ids
from .middleware import SyncAndAsyncMiddleware, in_pool

log = logging.getLogger("pearlsite.requests")
UNMATCHED = "<unmatched>"


def route_of(request) -> str:
    """The URL pattern that served the request ("api/v1/matches/<int:pk>/moves/"), never the path:
    a label per pattern, not per match id."""
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None and match.route else UNMATCHED


def _user_id(request) -> int | None:
    user = getattr(request, "user", None)      # the API's token user too: DRF sets it on the request
    return user.pk if user is not None and user.is_authenticated else None


class RequestObservationMiddleware(SyncAndAsyncMiddleware):
    def call(self, request):
        request_id, token, started = self._start(request)
        try:
            response = self.get_response(request)
            self._finish(request, request_id, response, started)
            return response
        finally:
            request_ids.unbind(token)

    async def acall(self, request):
        request_id, token, started = self._start(request)
        try:
            response = await self.get_response(request)
            # Reading the user may reach the database (a session): not from the event loop.
            await in_pool(self._finish, request, request_id, response, started)
            return response
        finally:
            request_ids.unbind(token)

    @staticmethod
    def _start(request):
        request_id = request_ids.accepted(request.headers.get(request_ids.HEADER))
        request.request_id = request_id
        return request_id, request_ids.bind(request_id), time.perf_counter()

    def _finish(self, request, request_id: str, response, started: float) -> None:
        response[request_ids.HEADER] = request_id
        self._record(request, request_id, response.status_code, time.perf_counter() - started)

    @staticmethod
    def _record(request, request_id: str, status: int, seconds: float) -> None:
        route = route_of(request)
        metrics.request_finished(route, request.method, status, seconds)
        log.info("%s %s %s", request.method, route, status, extra={
            "request_id": request_id, "user_id": _user_id(request), "route": route, "method": request.method, "status": status,
            "duration_ms": round(seconds * 1000, 2)})
