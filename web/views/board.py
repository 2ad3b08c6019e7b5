"""The analysis board page: play any line from a finished match's ply or a game's start, and ask
the engine for the position's best lines (docs/analysis.md, "The analysis board"). Writes go
through `matches.services.positions`; reads through `web.selectors` and the positions selectors,
so the page answers exactly what the API does."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from ai_workers.engines.jobs import MAX_LINES
from matches.selectors import positions as board
from matches.services import positions
from matches.services.analysis import ANALYSIS_LEVELS
from web import selectors

from .base import REFUSALS, page_not_found, refusal, wants_json

MAX_PARAM_DIGITS = 12


def _whole(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) <= MAX_PARAM_DIGITS else None


def _line(params) -> dict:
    """The line a request names: `match` (+ `ply`) or `game`, then every `m` (a move each)."""
    line = {"moves": [m for m in params.getlist("m") if m.strip()]}
    if params.get("match"):
        line["match_id"] = _whole(params.get("match")) or 0
        if params.get("ply", "") != "":
            line["ply"] = _whole(params.get("ply"))
            if line["ply"] is None:
                line["ply"] = -1
    else:
        line["game"] = params.get("game") or "hasami-shogi"
    return line


def _query(line: dict) -> str:
    pairs = [("match", line["match_id"])] if "match_id" in line else [("game", line["game"])]
    if line.get("ply") is not None:
        pairs.append(("ply", line["ply"]))
    return urlencode(pairs + [("m", m) for m in line["moves"]])


@never_cache
@require_GET
def board_page(request: HttpRequest) -> HttpResponse:
    line = _line(request.GET)
    flip = request.GET.get("flip") == "1"
    try:
        page = selectors.analysis_board(request.user, flip=flip, **line)
    except REFUSALS as exc:
        return page_not_found(request, refusal(exc)[1])
    answer = None
    shown = _whole(request.GET.get("position"))
    if shown is not None:
        try:
            answer = board.position_payload(board.position_for(shown, request.user))
        except REFUSALS as exc:
            messages.error(request, refusal(exc)[1])
    page.update(answer=answer, level_options=[(level, page["budgets"][level]) for level in ANALYSIS_LEVELS], line_counts=range(1, MAX_LINES + 1), flip=flip,
                query=_query(line), games=selectors.board_games())
    return render(request, "web/board.html", page)


@never_cache
@require_GET
def board_position(request: HttpRequest) -> JsonResponse:
    """The board after the line, as JSON, for the page's script."""
    try:
        page = selectors.analysis_board(request.user, flip=request.GET.get("flip") == "1", **_line(request.GET))
    except REFUSALS as exc:
        code, message, status = refusal(exc)
        return JsonResponse({"code": code, "message": message}, status=status)
    return JsonResponse(page)


@login_required
@require_POST
def board_ask(request: HttpRequest) -> HttpResponse:
    """Ask for the lines of the position after the posted line (the same service as the API)."""
    line = _line(request.POST)
    seconds = request.POST.get("seconds", "").strip()
    try:
        row, _ = positions.position_request(
            user=request.user, level=request.POST.get("level", "medium"),
            lines=_whole(request.POST.get("lines")) or 3,
            seconds=float(seconds) if seconds else None, **line)
    except ValueError:
        return _refused(request, line, "invalid_budget", gettext("The thinking time is a number of seconds."), 400)
    except REFUSALS as exc:
        return _refused(request, line, *refusal(exc))
    if wants_json(request):
        return JsonResponse({"ok": True, "position": board.position_payload(row)})
    return redirect(f"{reverse('web:board')}?{_query(line)}&position={row.pk}")


def _refused(request: HttpRequest, line: dict, code: str, message: str, status: int) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"ok": False, "code": code, "message": message}, status=status)
    messages.error(request, message)
    return redirect(f"{reverse('web:board')}?{_query(line)}")


@never_cache
@require_GET
def board_answer(request: HttpRequest, pk: int) -> JsonResponse:
    """A position's lines as JSON (polled by the page until done or failed)."""
    try:
        return JsonResponse(board.position_payload(board.position_for(pk, request.user)))
    except REFUSALS as exc:
        code, message, status = refusal(exc)
        return JsonResponse({"code": code, "message": message}, status=status)
