"""The staff pages: the report queue with each report's context, acting on a report, suspending
and unsuspending a player, hiding and showing a message, and the audit log (read only). Staff
only; every action is one call of a community service, which writes its audit log row."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from community.selectors import moderation as selectors
from community.services import moderation, reports
from web import selectors as web_selectors

from .base import REFUSALS, action, page_not_found, staff_only

PAGE_SIZE = 25


def _page_of(request: HttpRequest, rows):
    return Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))


@never_cache
@require_GET
@staff_only
def report_queue(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "open")
    if status not in selectors.REPORT_STATUSES:
        status = "open"
    page = _page_of(request, selectors.report_queue(status))
    rows = [selectors.report_payload(r) for r in page.object_list]
    for row in rows:
        row["position"] = _position(row, request.user)
    return render(request, "web/staff/reports.html", {"status": status, "page": page, "reports": rows})


def _position(report: dict, user) -> dict | None:
    """The board when the reported message was written (or now, for a match), where the game
    can replay one (perfect information)."""
    if report["match"] is None:
        return None
    ply = report["message"]["ply"] if report["message"] else report["match"]["ply"]
    try:
        return web_selectors.match_position(report["match"]["id"], user, ply)
    except REFUSALS:
        return None


@never_cache
@require_GET
@staff_only
def player_find(request: HttpRequest) -> HttpResponse:
    username = request.GET.get("username", "").strip()
    if not username:
        return redirect("web:staff-reports")
    return redirect("web:staff-player", username=username)


@never_cache
@require_GET
@staff_only
def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        data = selectors.player_moderation(username)
    except REFUSALS:
        return page_not_found(request, _("There is no player %(username)r.") % {"username": username})
    data["reports"] = [selectors.report_payload(r) for r in data["reports"]]
    return render(request, "web/staff/player.html", {"player": data})


@never_cache
@require_GET
@staff_only
def audit_log(request: HttpRequest) -> HttpResponse:
    page = _page_of(request, selectors.audit_log())
    return render(request, "web/staff/audit.html", {
        "page": page, "entries": [selectors.audit_payload(e) for e in page.object_list]})


def _back(request: HttpRequest, **kwargs) -> str:
    """Where the form came from (its `next`, a path of this site), else the queue."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return reverse("web:staff-reports")


def _to_player(request: HttpRequest, username: str) -> str:
    return reverse("web:staff-player", kwargs={"username": username})


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "")


@staff_only
@action(_back)
def report_resolve(request: HttpRequest, pk: int) -> str:
    reports.report_resolve(staff=request.user, report_id=pk, note=_reason(request))
    return _("Report %(id)s resolved.") % {"id": pk}


@staff_only
@action(_back)
def report_dismiss(request: HttpRequest, pk: int) -> str:
    reports.report_dismiss(staff=request.user, report_id=pk, note=_reason(request))
    return _("Report %(id)s dismissed.") % {"id": pk}


def _days(request: HttpRequest) -> int | None:
    """The form's length: `for_good`, else a whole number of days (checked by the service)."""
    if request.POST.get("length") == "for_good":
        return None
    days = request.POST.get("days", "").strip()
    return int(days) if days.isdigit() and len(days) <= 6 else -1


@staff_only
@action(_to_player)
def suspend(request: HttpRequest, username: str) -> str:
    days = _days(request)
    moderation.suspend(staff=request.user, username=username, reason=_reason(request), days=days)
    if days is None:
        return _("%(username)s is suspended for good.") % {"username": username}
    return ngettext("%(username)s is suspended for %(days)s day.", "%(username)s is suspended for %(days)s days.",
                    days) % {"username": username, "days": days}


@staff_only
@action(_to_player)
def unsuspend(request: HttpRequest, username: str) -> str:
    moderation.unsuspend(staff=request.user, username=username, reason=_reason(request))
    return _("%(username)s's suspension is lifted.") % {"username": username}


@staff_only
@action(_back)
def message_hide(request: HttpRequest, pk: int) -> str:
    moderation.message_hide(staff=request.user, message_id=pk, reason=_reason(request))
    return _("Message %(id)s is hidden.") % {"id": pk}


@staff_only
@action(_back)
def message_unhide(request: HttpRequest, pk: int) -> str:
    moderation.message_unhide(staff=request.user, message_id=pk, reason=_reason(request))
    return _("Message %(id)s is shown again.") % {"id": pk}
