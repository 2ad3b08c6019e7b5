"""Request bodies are refused before they are read when they are larger than
`settings.MAX_BODY_BYTES` (environment `PEARLSITE_MAX_BODY_BYTES`, default 64 KiB): a 413
`payload_too_large` in the usual error shape.

WSGI (gunicorn, runserver, the test client): Django reads a body only up to its Content-Length and
only when a view asks for it, so `BodyLimitMiddleware` checking the header first is enough; a chunked
body (no Content-Length) is read by `limit_wsgi_body`, wrapping the application, up to the limit. ASGI: Django reads the whole body before any
middleware runs, so `limit_asgi_body` wraps the application and stops reading at the limit.
"""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import JsonResponse

CODE = "payload_too_large"


def _message(limit: int) -> str:
    return f"the request body is larger than {limit} bytes"


def _error(limit: int) -> dict:
    return {"code": CODE, "message": _message(limit), "detail": {"limit": limit}}


def _declared_length(value: str | bytes | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0              # as Django reads it: an unreadable length is an empty body


class BodyLimitMiddleware:
    # Both kinds: under ASGI a synchronous middleware would run every request below it (a long
    # poll's wait included) inside a thread.
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        limit = settings.MAX_BODY_BYTES
        if _declared_length(request.META.get("CONTENT_LENGTH")) > limit:
            response = JsonResponse(_error(limit), status=413)
            return _returned(response) if iscoroutinefunction(self) else response
        return self.get_response(request)


async def _returned(response):
    return response


def limit_asgi_body(app):
    """Wrap an ASGI application: an HTTP body over the limit gets a 413 and is not read further."""
    import json

    async def refuse(send, limit: int) -> None:
        body = json.dumps(_error(limit)).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def limited(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.MAX_BODY_BYTES
        headers = dict(scope.get("headers") or [])
        if _declared_length(headers.get(b"content-length")) > limit:
            return await refuse(send, limit)
        # Without a trustworthy length (chunked), buffer at most `limit` bytes, then replay them.
        messages, size = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > limit:
                return await refuse(send, limit)
            if not message.get("more_body", False):
                break

        async def replay():
            return messages.pop(0) if messages else await receive()

        return await app(scope, replay, send)

    return limited


def _chunked(environ: dict) -> bool:
    return not environ.get("CONTENT_LENGTH") and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def limit_wsgi_body(app):
    """Wrap a WSGI application: a chunked body (no Content-Length; gunicorn hands it over de-chunked)
    is read up to the limit and given to Django with its length, as any other body; past the limit,
    a 413. Django alone reads only up to CONTENT_LENGTH, so it would see such a body as empty."""
    import io
    import json

    def limited(environ, start_response):
        if not _chunked(environ):
            return app(environ, start_response)
        limit = settings.MAX_BODY_BYTES
        body = environ["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            answer = json.dumps(_error(limit)).encode()
            start_response("413 Request Entity Too Large", [("Content-Type", "application/json"),
                                                            ("Content-Length", str(len(answer)))])
            return [answer]
        environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        return app(environ, start_response)

    return limited
