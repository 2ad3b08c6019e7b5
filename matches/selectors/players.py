"""Player reads."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count

from matches.errors import first_or_error
from matches.glicko import PROVISIONAL_DEVIATION
from matches.models import Match, MatchSeat, Rating

User = get_user_model()


def player_profile(username: str) -> dict:
    user = first_or_error(User.objects.filter(username=username), "player_not_found",
                          f"no player {username!r}")
    counts = dict(MatchSeat.objects.filter(user=user).values_list("match__status")
                  .annotate(n=Count("id")).values_list("match__status", "n"))
    return {
        "username": user.username, "joined": user.date_joined,
        "ratings": [{"game": r.game, "rating": round(r.rating, 1), "deviation": round(r.deviation, 1),
                     "provisional": r.deviation > PROVISIONAL_DEVIATION, "games": r.games}
                    for r in Rating.objects.filter(user=user).order_by("game")],
        "matches": {s: counts.get(s, 0) for s in Match.Status.values},
    }
