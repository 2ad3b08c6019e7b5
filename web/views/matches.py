"""The match page, its live updates, and the forms on it (move, resign, draw, abort, takeback,
analysis). Every write goes through `matches.services`; every read through `web.selectors`."""
from __future__ import annotations

import time

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches.services import analysis, challenges, offers, play, results
from web import eleusis, selectors
from web.chart import evaluation_chart

from .base import REFUSALS, action, page_not_found, refusal

REGIONS = ("status", "board", "moves", "play", "analysis")
POLL_INTERVAL = 0.5


def _flip(request: HttpRequest) -> bool:
    return request.GET.get("flip") == "1"


def _page(pk: int, user, flip: bool = False) -> dict | None:
    try:
        page = selectors.match_page(pk, user, flip)
    except REFUSALS:
        return None
    page["analysis_levels"] = analysis.ANALYSIS_LEVELS
    if page["analysis"] and page["analysis"]["status"] == "done":
        page["chart"] = evaluation_chart(page["analysis"]["results"], page["names"])
    return page


@never_cache
@require_GET
def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    page = _page(pk, request.user, _flip(request))
    if page is None:
        return page_not_found(request, _("There is no match %(id)s.") % {"id": pk})
    return render(request, "web/match.html", page)


@never_cache
@require_GET
def match_position(request: HttpRequest, pk: int) -> JsonResponse:
    """`?ply=N`: the board after N moves, for replay (as the viewer sees it; `flip=1` turned)."""
    ply = request.GET.get("ply", "")
    if not ply.isdigit() or len(ply) > 6:
        return JsonResponse({"code": "invalid_input", "message": "ply must be a whole number"}, status=400)
    try:
        position = selectors.match_position(pk, request.user, int(ply), _flip(request))
    except REFUSALS as exc:
        code, message, status = refusal(exc)
        return JsonResponse({"code": code, "message": message}, status=status)
    return JsonResponse(position)


def _regions(request: HttpRequest, page: dict) -> dict[str, str]:
    return {name: render_to_string(f"web/match/_{name}.html", page, request) for name in REGIONS}


@never_cache
@require_GET
def match_live(request: HttpRequest, pk: int) -> JsonResponse:
    """The page's parts afresh once anything on it changed since `?version=`; with `wait=1` the
    answer waits (up to WEB_LIVE_WAIT_SECONDS) for a change: a long poll."""
    known = request.GET.get("version", "")
    patience = settings.WEB_LIVE_WAIT_SECONDS if request.GET.get("wait") == "1" else 0
    give_up = time.monotonic() + patience
    while (version := selectors.current_version(pk, request.user)) == known and time.monotonic() < give_up:
        if transaction.get_autocommit():
            connection.close()          # hold no database connection while waiting
        time.sleep(POLL_INTERVAL)
    if version == "gone":
        return JsonResponse({"code": "match_not_found", "message": f"no match {pk}"}, status=404)
    if version == known:
        return JsonResponse({"changed": False, "version": known})
    page = _page(pk, request.user, _flip(request))
    match = page["match"]
    return JsonResponse({"changed": True, "version": page["version"], "ply": match["ply"],
                         "status": match["status"], "legal_moves": match["legal_moves"],
                         "my_turn": page["my_turn"], "title": page["title"],
                         "regions": _regions(request, page)})


def _to_match(request, pk: int) -> str:
    return reverse("web:match", kwargs={"pk": pk})


@action(_to_match)
def match_move(request: HttpRequest, pk: int) -> str:
    # A clicked move (a button or the board), else the typed text, else the list's choice, else
    # picked cards (New Eleusis: in the order picked, else the hand's).
    move = next((text for text in (request.POST.get(k, "").strip() for k in ("pick", "move", "choice")) if text), "")
    cards = request.POST.get("cards_order", "").split() or request.POST.getlist("card")
    if not move and cards:
        move = eleusis.compose_play(cards, request.POST.get("declare", ""))
    ply = request.POST.get("ply", "")
    played = play.move_submit(match_id=pk, user=request.user, move=move,
                              ply=int(ply) if ply.isdigit() else None)
    return _("Played %(move)s.") % {"move": played.record.notation}


@action(_to_match)
def match_resign(request: HttpRequest, pk: int) -> str:
    results.match_resign(match_id=pk, user=request.user)
    return _("You resigned.")


@action(_to_match)
def match_abort(request: HttpRequest, pk: int) -> str:
    results.match_abort(match_id=pk, user=request.user)
    return _("The match is aborted.")


@action(_to_match)
def match_draw(request: HttpRequest, pk: int) -> str:
    verb = request.POST.get("action", "offer")
    offers.match_draw(match_id=pk, user=request.user, action=verb)
    if verb == "offer" and (declined := selectors.offer_declined_now(pk, request.user)):
        return declined
    return {"offer": _("Draw offered."), "accept": _("Draw agreed."), "decline": _("Draw declined."),
            "withdraw": _("Draw offer withdrawn.")}.get(verb, "")


@action(_to_match)
def match_takeback(request: HttpRequest, pk: int) -> str:
    verb = request.POST.get("action", "offer")
    offers.match_takeback(match_id=pk, user=request.user, action=verb)
    if verb == "offer" and (declined := selectors.offer_declined_now(pk, request.user)):
        return declined
    return {"offer": _("Takeback asked."), "accept": _("Takeback agreed."), "decline": _("Takeback declined."),
            "withdraw": _("Takeback request withdrawn.")}.get(verb, "")


@action(_to_match)
def match_analysis(request: HttpRequest, pk: int) -> str:
    analysis.analysis_request(match_id=pk, user=request.user, level=request.POST.get("level", "medium"))
    return _("Analysis requested: the chart appears here when it is done.")


def _to_rematch(request: HttpRequest, pk: int) -> str:
    """The new match once it started (every opponent an engine, or their rematch accepted), else back."""
    started = selectors.rematch_started(pk, request.user)
    return reverse("web:match", kwargs={"pk": started}) if started else _to_match(request, pk)


@action(_to_rematch)
def match_rematch(request: HttpRequest, pk: int) -> str:
    challenge = challenges.challenge_rematch(match_id=pk, user=request.user)
    if challenge.match_id:
        return _("Rematch started.")
    return _("Rematch asked: the other players find it in their lobby.")
