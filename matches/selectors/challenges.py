"""Challenge reads."""
from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

import games
from matches.errors import ServiceError
from matches.models import Challenge, ChallengeSeat

from .clocks import days_per_move


def challenge_payload(challenge: Challenge) -> dict:
    rules = games.get_game(challenge.game)
    return {
        "id": challenge.pk, "game": challenge.game, "variant": rules.public_variant(challenge.options),
        "options": rules.public_options(challenge.options), "rated": challenge.rated,
        "time_control": challenge.time_control, "days_per_move": days_per_move(challenge.time_control),
        "status": challenge.status,
        "created_by": challenge.created_by.username,
        "seats": [{"seat": s.seat, "player": s.player_name, "accepted": s.accepted}
                  for s in challenge.seats.all()],
        "match": challenge.match_id, "ladder": challenge.ladder_id,
        "created_at": challenge.created_at,
    }


def _with_seats() -> QuerySet[Challenge]:
    return Challenge.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=ChallengeSeat.objects.select_related("user")))


def get_challenge(challenge_id: int) -> Challenge:
    challenge = _with_seats().filter(pk=challenge_id).first()
    if challenge is None:
        raise ServiceError("challenge_not_found", f"no challenge {challenge_id}")
    return challenge


def visible_challenge(challenge_id: int, user) -> Challenge:
    """The challenge, for its creator and the players seated in it, or anyone while it seeks
    someone for an open seat; for everyone else it does not exist."""
    challenge = get_challenge(challenge_id)
    seated = user is not None and user.is_authenticated and (
        challenge.created_by_id == user.pk or any(s.user_id == user.pk for s in challenge.seats.all()))
    seeking = challenge.status == Challenge.Status.OPEN and any(
        s.user_id is None and not s.ai_level for s in challenge.seats.all())
    if not (seated or seeking):
        raise ServiceError("challenge_not_found", f"no challenge {challenge_id}")
    return challenge


def challenges_for(user, *, open_only: bool = False) -> QuerySet[Challenge]:
    """Open seats anyone may take, or the caller's own challenges (sent and received)."""
    qs = _with_seats()
    if open_only:
        qs = qs.filter(status=Challenge.Status.OPEN, seats__user__isnull=True, seats__ai_level="")
    elif user is not None and user.is_authenticated:
        qs = qs.filter(Q(created_by=user) | Q(seats__user=user))
    else:
        qs = qs.none()
    return qs.distinct().order_by("-id")
