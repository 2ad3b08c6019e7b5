"""Your privacy page: the players you blocked, your data to download, and deleting the account.
Writes go through community.services; reads through community.selectors."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from community.selectors.blocks import blocks_of
from community.services import blocks, leaving, reports

from .base import REFUSALS, action, refusal


@never_cache
@require_GET
@login_required
def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "web/privacy.html", {"blocks": blocks_of(request.user)[:200]})


def _back(request: HttpRequest, **kwargs) -> str:
    return reverse("web:privacy")


@action(_back)
def block(request: HttpRequest) -> str:
    username = request.POST.get("username", "").strip()
    blocks.block_create(blocker=request.user, username=username)
    return _("You blocked %(username)s.") % {"username": username}


@action(_back)
def unblock(request: HttpRequest, username: str) -> str:
    blocks.block_delete(blocker=request.user, username=username)
    return _("You unblocked %(username)s.") % {"username": username}


@login_required
@require_POST
def delete_account(request: HttpRequest) -> HttpResponse:
    try:
        leaving.account_delete(user=request.user, password=request.POST.get("password", ""))
    except REFUSALS as exc:
        messages.error(request, refusal(exc)[1])
        return redirect("web:privacy")
    logout(request)
    messages.success(request, _("Your account is deleted."))
    return redirect("web:lobby")


def _player_page(request: HttpRequest, username: str) -> str:
    return reverse("web:player", args=[username])


@action(_player_page)
def report_player(request: HttpRequest, username: str) -> str:
    reports.report_create(reporter=request.user, player=username, reason=request.POST.get("reason", ""))
    return _("Thank you: staff will look at your report.")
