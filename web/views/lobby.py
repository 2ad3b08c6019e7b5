"""The lobby: my games (my turn first), challenges and open seats, the challenge form, and the
tournaments and ladders to join."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.services import challenges, ladders, tournaments
from web import selectors
from web.forms import ChallengeForm, option_inputs

from .base import REFUSALS, action, refusal

DEFAULT_GAME = "hasami-shogi"          # the classic most newcomers know


def _lobby(request: HttpRequest, form: ChallengeForm, status: int = 200) -> HttpResponse:
    entries = selectors.games_catalogue()
    chosen = form["game"].value() or request.GET.get("game") or DEFAULT_GAME
    context = {
        "games": selectors.my_games(request.user), "challenges": selectors.lobby_challenges(request.user),
        "events": selectors.lobby_events(request.user),
        "events_after": selectors.latest_event_id(request.user),
        "form": form, "chosen_game": chosen,
        "catalogue": [{**e, "inputs": option_inputs(e), "variants_id": f"variants-{e['slug']}"} for e in entries],
    }
    return render(request, "web/lobby.html", context, status=status)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request, ChallengeForm(initial={"game": request.GET.get("game")}))


@login_required
@require_POST
def challenge_create(request: HttpRequest) -> HttpResponse:
    form = ChallengeForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            challenge = challenges.challenge_create(
                creator=request.user, game=data["game"], variant=data["variant"] or None,
                options=data["options"], opponents=data["opponents"], rated=data["rated"],
                time_control=data["time_control"])
        except REFUSALS as exc:
            form.add_error(None, refusal(exc)[1])
        else:
            if challenge.match_id:
                return redirect("web:match", pk=challenge.match_id)
            messages.success(request, _("Challenge sent: the match starts when every seat has accepted."))
            return redirect("web:lobby")
    return _lobby(request, form, status=400)


def _to_lobby(request, **kwargs) -> str:
    return reverse("web:lobby")


@action(_to_lobby)
def challenge_accept(request: HttpRequest, pk: int) -> str:
    challenge = challenges.challenge_accept(challenge_id=pk, user=request.user)
    return _("Accepted: the match has started.") if challenge.match_id else _("Accepted.")


@action(_to_lobby)
def challenge_decline(request: HttpRequest, pk: int) -> str:
    challenges.challenge_decline(challenge_id=pk, user=request.user)
    return _("Challenge declined.")


@action(_to_lobby)
def challenge_cancel(request: HttpRequest, pk: int) -> str:
    challenges.challenge_cancel(challenge_id=pk, user=request.user)
    return _("Challenge withdrawn.")


@action(_to_lobby)
def tournament_join(request: HttpRequest, pk: int) -> str:
    tournaments.tournament_join(tournament_id=pk, user=request.user)
    return _("Entered: your games start with the tournament.")


@action(_to_lobby)
def tournament_leave(request: HttpRequest, pk: int) -> str:
    tournaments.tournament_leave(tournament_id=pk, user=request.user)
    return _("You have left the tournament.")


@action(_to_lobby)
def ladder_join(request: HttpRequest, pk: int) -> str:
    entry = ladders.ladder_join(ladder_id=pk, user=request.user)
    return _("You are on the ladder at #%(rank)s.") % {"rank": entry.rank}
