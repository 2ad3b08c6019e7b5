"""Challenge reads."""
from __future__ import annotations

from django.db.models import (Case, CharField, FloatField, OuterRef, Prefetch, Q, QuerySet, Subquery, Value,
                              When)
from django.db.models.functions import Coalesce
from django.utils import timezone

import games
from matches.errors import ServiceError, first_or_error
from matches.models import Challenge, ChallengeSeat, Rating
from matches.rating_keys import RATED_VARIANTS

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
        "created_by_rating": getattr(challenge, "creator_rating", None),
        "match": challenge.match_id, "ladder": challenge.ladder_id, "rematch_of": challenge.rematch_of_id,
        "expires_at": challenge.expires_at, "created_at": challenge.created_at,
    }


def _with_seats() -> QuerySet[Challenge]:
    return Challenge.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=ChallengeSeat.objects.select_related("user")))


def get_challenge(challenge_id: int) -> Challenge:
    return first_or_error(_with_seats().filter(pk=challenge_id),
                          "challenge_not_found", f"no challenge {challenge_id}")


def _rating_variant() -> Case:
    """The rating key's variant of each challenge (matches.rating_keys): its variant when that one
    is rated on its own, else the game's own rating ("")."""
    return Case(*[When(game=game, variant=variant, then=Value(variant))
                  for game, variants in RATED_VARIANTS.items() for variant in variants],
                default=Value(""), output_field=CharField())


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


def challenges_for(user, *, open_only: bool = False, direction: str | None = None, game: str | None = None,
                   rating_min: float | None = None, rating_max: float | None = None) -> QuerySet[Challenge]:
    """Open seats anyone may take (seeks), or the caller's own challenges: `direction` "in" (to
    them), "out" (from them), or both. Ratings filter on the challenger's rating in the game
    (1500 for a player without one)."""
    qs = _with_seats().annotate(rating_variant=_rating_variant()).annotate(creator_rating=Coalesce(
        Subquery(Rating.objects.filter(user=OuterRef("created_by"), game=OuterRef("game"),
                                       variant=OuterRef("rating_variant")).values("rating")[:1]),
        Value(1500.0), output_field=FloatField()))
    if open_only:
        qs = qs.filter(status=Challenge.Status.OPEN, seats__user__isnull=True, seats__ai_level="") \
            .exclude(expires_at__lte=timezone.now())
    if direction == "in":
        qs = qs.filter(seats__user=user).exclude(created_by=user)
    elif direction == "out":
        qs = qs.filter(created_by=user)
    elif not open_only:
        qs = qs.filter(Q(created_by=user) | Q(seats__user=user)) if user is not None and user.is_authenticated \
            else qs.none()
    if game:
        qs = qs.filter(game=game)
    if rating_min is not None:
        qs = qs.filter(creator_rating__gte=rating_min)
    if rating_max is not None:
        qs = qs.filter(creator_rating__lte=rating_max)
    return qs.distinct().order_by("-id")
