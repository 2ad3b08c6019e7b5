"""The request id: one per HTTP request (the client's X-Request-ID when it is sane, else a new one),
carried into the Celery tasks the request sent, and written on every log line meanwhile."""
from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

HEADER = "X-Request-ID"
# A proxy's or client's id is kept when it is short printable ASCII (a UUID, a trace id...);
# anything else could smuggle junk into the logs, so it is replaced.
_SANE = re.compile(r"^[A-Za-z0-9._:@/+=-]{8,128}$")
_current: ContextVar[str | None] = ContextVar("pearlsite_request_id", default=None)


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted(raw: str | None) -> str:
    """The incoming id if it is sane, else a new one."""
    return raw if raw and _SANE.match(raw) else new_request_id()


def current() -> str | None:
    return _current.get()


def bind(request_id: str | None):
    """Make `request_id` the current one; returns the token `unbind` takes."""
    return _current.set(request_id)


def unbind(token) -> None:
    _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (as `request_id`, None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _current.get()
        return True
