"""Player reads: the player list, a player's page, rating histories and the leaderboards.

A leaderboard lists the ratings of one key (`matches.rating_keys`) that are established
(deviation at most the system's provisional threshold) and active (a rated result within
`LEADERBOARD_INACTIVE_DAYS`), best first; a player's rank is their place on it."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Iterator

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

import games
from matches.errors import ServiceError, first_or_error
from matches.models import Match, MatchSeat, Profile, Rating, RatingChange
from matches.rating_keys import PROVISIONAL_DEVIATION, RatingKey, is_provisional, key_named, system_for

from .matches import match_export, match_summary, seats_payload

User = get_user_model()
RECENT_MATCHES = 10
EXPORT_CHUNK = 100


def rating_key(game: str, variant: str | None) -> RatingKey:
    """The key a client names; an unknown game is a 404, an unknown variant a 400."""
    if game not in games.GAMES:
        raise ServiceError("game_not_found", f"no game {game!r}")
    try:
        return key_named(game, variant)
    except games.InvalidOptionsError as exc:
        raise ServiceError("invalid_filter", str(exc), detail={"parameter": "variant"}) from None


def get_player(username: str):
    """The active player of that name in any case (names are unique regardless of case). The exact
    spelling is tried first, through the username's unique index; other spellings cost a scan."""
    active = User.objects.filter(is_active=True)
    exact = active.filter(username=username).first()
    return exact or first_or_error(active.filter(username__iexact=username).order_by("pk"),
                                   "player_not_found", f"no player {username!r}")


def leaderboard_query(key: RatingKey) -> QuerySet[Rating]:
    since = timezone.now() - timedelta(days=settings.LEADERBOARD_INACTIVE_DAYS)
    widest = PROVISIONAL_DEVIATION[system_for(key.game)]
    return (Rating.objects.select_related("user", "user__profile")
            .filter(game=key.game, variant=key.variant, deviation__lte=widest, last_played_at__gte=since,
                    user__is_active=True)
            .order_by("-rating", "user_id"))


def leaderboard_rank(row: Rating) -> int | None:
    """The row's place on its leaderboard (ties in rating go to the older account), or None."""
    board = leaderboard_query(RatingKey(row.game, row.variant))
    if not board.filter(pk=row.pk).exists():
        return None
    ahead = board.filter(Q(rating__gt=row.rating) | Q(rating=row.rating, user_id__lt=row.user_id))
    return ahead.count() + 1


def rating_payload(row: Rating, rank: int | None = None) -> dict:
    return {"game": row.game, "variant": row.variant or None, "system": row.system,
            "rating": round(row.rating, 1), "deviation": round(row.deviation, 1),
            "provisional": is_provisional(row.system, row.deviation), "rank": rank, "games": row.games,
            "wins": row.wins, "draws": row.draws, "losses": row.losses, "last_played_at": row.last_played_at}


def leaderboard_entry(row: Rating, rank: int) -> dict:
    return {"rank": rank, "player": row.user.username, "display_name": _display_name(row.user),
            **{k: v for k, v in rating_payload(row).items() if k not in ("rank", "game", "variant")}}


def _profile(user) -> Profile | None:
    try:
        return user.profile
    except Profile.DoesNotExist:
        return None


def _display_name(user) -> str:
    profile = _profile(user)
    return profile.display_name if profile else ""


def players_query(*, prefix: str | None = None, key: RatingKey | None = None) -> QuerySet:
    """People, by name; with a key, those rated under it, best first (Rating rows)."""
    if key is not None:
        qs = Rating.objects.select_related("user", "user__profile").filter(
            game=key.game, variant=key.variant, user__is_active=True).order_by("-rating", "user_id")
        return qs.filter(user__username__istartswith=prefix) if prefix else qs
    qs = User.objects.filter(is_active=True).select_related("profile").order_by("username")
    return qs.filter(username__istartswith=prefix) if prefix else qs


def player_list_entry(item) -> dict:
    """An entry of `players_query`: a Rating row (with a key) or a user."""
    if isinstance(item, Rating):
        return {"username": item.user.username, "display_name": _display_name(item.user),
                "rating": rating_payload(item)}
    return {"username": item.username, "display_name": _display_name(item), "rating": None}


def player_profile(username: str) -> dict:
    user = get_player(username)
    counts = dict(MatchSeat.objects.filter(user=user).values_list("match__status")
                  .annotate(n=Count("id")).values_list("match__status", "n"))
    recent = (Match.objects.filter(seats__user=user)
              .prefetch_related(Prefetch("seats", queryset=MatchSeat.objects.select_related("user")))
              .order_by("-id")[:RECENT_MATCHES])
    return {
        "username": user.username, "display_name": _display_name(user), "joined": user.date_joined,
        "bio": profile.bio if (profile := _profile(user)) else "",
        "ratings": [rating_payload(r, leaderboard_rank(r))
                    for r in Rating.objects.filter(user=user).order_by("game", "variant")],
        "matches": {s: counts.get(s, 0) for s in Match.Status.values},
        "recent_matches": [match_summary(m) for m in recent],
    }


def rating_history(username: str, key: RatingKey) -> QuerySet[RatingChange]:
    user = get_player(username)
    return RatingChange.objects.filter(rating__user=user, rating__game=key.game,
                                       rating__variant=key.variant).order_by("id")


def rating_point(change: RatingChange) -> dict:
    return {"match": change.match_id, "date": change.created_at,
            "rating_before": round(change.rating_before, 1), "rating_after": round(change.rating_after, 1),
            "deviation_before": round(change.deviation_before, 1),
            "deviation_after": round(change.deviation_after, 1)}


def export_query(username: str) -> QuerySet[Match]:
    """A player's finished matches, oldest first (every finished match is public; hidden parts
    are left out of each record by `match_export`)."""
    user = get_player(username)
    return (Match.objects.filter(seats__user=user, status=Match.Status.FINISHED)
            .prefetch_related(Prefetch("seats", queryset=MatchSeat.objects.select_related("user")))
            .distinct().order_by("id"))


def export_chunks(matches: QuerySet[Match], form: str) -> Iterator[str]:
    """The records one by one: text records separated by a blank line, or one JSON object a line."""
    for i, match in enumerate(matches.iterator(chunk_size=EXPORT_CHUNK)):
        record = match_export(match)
        if form == "ndjson":
            yield json.dumps({
                "id": match.pk, "game": match.game, "variant": match.variant or None,
                "seats": seats_payload(match.seats.all()), "result": match.result,
                "finished_at": match.finished_at.isoformat() if match.finished_at else None,
                "record": record}, separators=(",", ":")) + "\n"
        else:
            yield ("\n" if i else "") + record
