"""Your privacy page: the players you blocked, your data to download, and deleting the account;
reporting a player, a match or a chat message to staff. Writes go through community.services;
reads through community.selectors."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from community.selectors.blocks import blocks_of
from community.selectors.chat import message_in_match
from community.services import blocks, leaving, reports
from matches.errors import ServiceError

from .base import REFUSALS, action, refusal, spend


@never_cache
@require_GET
@login_required
def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "web/privacy.html", {"blocks": blocks_of(request.user)[:200]})


def _back(request: HttpRequest, **kwargs) -> str:
    """The form's `next` (a path of this site, e.g. the player page it was on), else this page."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
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
        spend(request, "login")             # a password guess, like a log-in (the API's budget)
        leaving.account_delete(user=request.user, password=request.POST.get("password", ""))
    except REFUSALS as exc:
        messages.error(request, refusal(exc)[1])
        return redirect("web:privacy")
    logout(request)
    messages.success(request, _("Your account is deleted."))
    return redirect("web:lobby")


THANKS = gettext_lazy("Thank you: staff will look at your report.")


def _player_page(request: HttpRequest, username: str) -> str:
    return reverse("web:player", args=[username])


def _match_page(request: HttpRequest, pk: int) -> str:
    return reverse("web:match", kwargs={"pk": pk})


@action(_player_page)
def report_player(request: HttpRequest, username: str) -> str:
    spend(request, "report")
    reports.report_create(reporter=request.user, player=username, reason=request.POST.get("reason", ""))
    return THANKS


@action(_match_page)
def report_match(request: HttpRequest, pk: int) -> str:
    spend(request, "report")
    reports.report_create(reporter=request.user, match=pk, reason=request.POST.get("reason", ""))
    return THANKS


@action(_match_page)
def report_message(request: HttpRequest, pk: int) -> str:
    """A message of match `pk`'s chat (the form's `message`); one the reporter may not read, or
    of another match, is not found."""
    message = request.POST.get("message", "")
    if not message.isdigit() or len(message) > 18 or not message_in_match(int(message), pk):
        raise ServiceError("message_not_found", "no such message in this match's chat")
    spend(request, "report")
    reports.report_create(reporter=request.user, message=int(message), reason=request.POST.get("reason", ""))
    return THANKS
