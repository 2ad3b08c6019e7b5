"""What every page view shares: refusals shown as messages (or JSON to the page's script), and
not-found pages in HTML (the API keeps its JSON errors)."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import DataError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.settings import api_settings

import games
from matches.errors import CODES, ServiceError, localized_message, not_found_view
from matches.services import counters

REFUSALS = (ServiceError, games.GameError, DataError)


def refusal(exc: Exception) -> tuple[str, str, int]:
    """(code, message, HTTP status) of a refused request."""
    if isinstance(exc, ServiceError):
        return exc.code, localized_message(exc.code, exc.message), exc.status
    if isinstance(exc, games.GameError):
        code = exc.code if exc.code in CODES else games.GameError.code
        return code, localized_message(code, str(exc)), CODES[code][0]
    return "invalid_input", localized_message("invalid_input", CODES["invalid_input"][1]), 400


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def page_not_found(request: HttpRequest, message: str | None = None) -> HttpResponse:
    return render(request, "web/not_found.html", {"message": message or _("There is nothing here.")}, status=404)


def not_found_handler(request: HttpRequest, exception=None) -> HttpResponse:
    """The project's 404: JSON under /api/, a page elsewhere."""
    if request.path.startswith("/api/"):
        return not_found_view(request, exception)
    return page_not_found(request)


def action(redirect_to):
    """A signed-in player's POST that calls a service: on success back to
    `redirect_to(request, **kwargs)` (or `{"ok": true}` for the page's script); a refusal becomes a
    message (or a JSON error). Anonymous visitors go to log in; other methods get 405."""
    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, **kwargs) -> HttpResponse:
            try:
                note = view(request, **kwargs)
            except REFUSALS as exc:
                code, message, status = refusal(exc)
                if wants_json(request):
                    return JsonResponse({"ok": False, "code": code, "message": message}, status=status)
                messages.error(request, message)
            else:
                if wants_json(request):
                    return JsonResponse({"ok": True, "message": note or "",
                                         "redirect": redirect_to(request, **kwargs)})
                if note:
                    messages.success(request, note)
            return redirect(redirect_to(request, **kwargs))
        return login_required(require_POST(wrapper))
    return decorate


def spend(request: HttpRequest, scope: str) -> None:
    """Count one use of the API's `scope` budget (e.g. `report`) by the signed-in player: the
    pages and the API share one counter per account. Over budget: ServiceError `throttled`."""
    limit = counters.parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(scope))
    if limit is None:
        return
    allowed, wait = counters.spend(counters.throttle_name(scope, f"user:{request.user.pk}"), limit)
    if not allowed:
        raise ServiceError("throttled", f"too many requests; try again in {int(wait) + 1} s",
                           detail={"retry_after": int(wait) + 1})


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "web/forbidden.html", {"message": message}, status=403)


def staff_only(view):
    """Staff pages: anonymous visitors go to log in; signed-in players who are not staff get 403."""
    @wraps(view)
    def wrapper(request: HttpRequest, **kwargs) -> HttpResponse:
        if not request.user.is_staff:
            return forbidden(request, _("This page is for staff only."))
        return view(request, **kwargs)
    return login_required(wrapper)
