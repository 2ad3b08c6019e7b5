"""HEAD answers carry the headers of the GET answer and no body. Django's development server drops
the body itself; gunicorn sends what it is given, so without this a HEAD answer carried the whole
body (corrupting the next answer on a kept-alive connection) and `HEAD events/stream/` streamed."""
from __future__ import annotations


class HeadWithoutBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method != "HEAD":
            return response
        if response.streaming:
            response.streaming_content = iter(())    # the stream is closed unread with the response
        else:
            response.headers.setdefault("Content-Length", str(len(response.content)))
            response.content = b""
        return response
