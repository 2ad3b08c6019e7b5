"""Stable API errors: every failure is `{"code", "message", "detail"}` with a fixed HTTP status.

Services raise `ServiceError` subclasses; the rules library raises `games.GameError` subclasses;
DRF raises its own. `exception_handler` maps all three, so bad input never becomes a 500.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import DataError
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf
from rest_framework.response import Response

import games


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, detail: Any = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.detail = detail if detail is not None else {}


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Unprocessable(ServiceError):
    status, code = 422, "unprocessable"


# games.GameError subclasses → (status, code). Order matters: most specific first.
_GAME_ERRORS: list[tuple[type[games.GameError], int, str]] = [
    (games.NotYourTurnError, 403, "not_your_turn"),
    (games.GameOverError, 409, "match_finished"),
    (games.IllegalMoveError, 400, "illegal_move"),
    (games.InvalidMoveError, 400, "invalid_move"),
    (games.InvalidOptionsError, 400, "invalid_options"),
    (games.UnknownGameError, 400, "unknown_game"),
    (games.InvalidStateError, 409, "invalid_state"),
    (games.GameError, 400, "game_error"),
]

_DRF_CODES = {
    drf.NotAuthenticated: "not_authenticated",
    drf.AuthenticationFailed: "authentication_failed",
    drf.PermissionDenied: "forbidden",
    drf.NotFound: "not_found",
    drf.MethodNotAllowed: "method_not_allowed",
    drf.NotAcceptable: "not_acceptable",
    drf.UnsupportedMediaType: "unsupported_media_type",
    drf.Throttled: "throttled",
    drf.ParseError: "parse_error",
    drf.ValidationError: "validation_error",
}


def error_body(code: str, message: str, detail: Any = None) -> dict:
    return {"code": code, "message": message, "detail": detail if detail is not None else {}}


def _game_error_response(exc: games.GameError) -> Response:
    for cls, status, code in _GAME_ERRORS:
        if isinstance(exc, cls):
            return Response(error_body(code, str(exc)), status=status)
    raise AssertionError("GameError is the last entry")  # pragma: no cover


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(error_body(exc.code, exc.message, exc.detail), status=exc.status)
    if isinstance(exc, games.GameError):
        return _game_error_response(exc)
    if isinstance(exc, DataError):      # e.g. a NUL character in a query parameter (PostgreSQL)
        return Response(error_body("invalid_input", "the request holds a value that cannot be "
                                   "stored or searched for (such as a NUL character)"), status=400)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    if isinstance(exc, drf.APIException):
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
        if isinstance(exc, drf.ValidationError):
            message, detail = "the request body is not valid", exc.detail
        else:
            message, detail = str(exc.detail), {}
        response = Response(error_body(code, message, detail), status=exc.status_code)
        if getattr(exc, "auth_header", None):
            response["WWW-Authenticate"] = exc.auth_header
        if getattr(exc, "wait", None):
            response["Retry-After"] = str(int(exc.wait))
        return response
    return None


def not_found_view(request, exception=None) -> JsonResponse:
    """Django's 404 for URLs no view matches: the same JSON shape as every other error."""
    return JsonResponse(error_body("not_found", f"no such resource: {request.path}"), status=404)


def server_error_view(request) -> JsonResponse:
    return JsonResponse(error_body("server_error", "an unexpected error; it has been logged"), status=500)
