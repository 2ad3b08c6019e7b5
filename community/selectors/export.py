"""Everything Pearlsite holds about one user, as one JSON document (leaving: docs/moderation.md).
Matches carry their public record only (moves as played, result): never seeds or hidden state."""
from __future__ import annotations

from django.utils import timezone

from matches.models import (
    ApiToken,
    LadderEntry,
    Match,
    Profile,
    Rating,
    TournamentEntry,
    Vacation,
)
from matches.policies import export_account

from ..models import Block, ChatMessage, Report


def _iso(value):
    return value.isoformat() if value is not None else None


def _matches(user) -> list[dict]:
    rows = (Match.objects.filter(seats__user=user).distinct().order_by("id")
            .prefetch_related("seats__user", "moves"))
    return [{"id": m.pk, "game": m.game, "variant": m.variant, "options": m.options, "status": m.status,
             "rated": m.rated, "result": m.result, "created_at": _iso(m.created_at),
             "finished_at": _iso(m.finished_at),
             "seats": [{"seat": s.seat, "player": s.user.username if s.user else None, "engine": s.ai_level}
                       for s in m.seats.all()],
             "moves": [{"ply": mv.ply, "seat": mv.seat, "move": mv.notation, "at": _iso(mv.created_at)}
                       for mv in sorted(m.moves.all(), key=lambda mv: mv.ply)]}
            for m in rows]


def _ratings(user) -> list[dict]:
    return [{"game": r.game, "variant": r.variant, "system": r.system, "rating": r.rating,
             "deviation": r.deviation,
             "history": [{"match": c.match_id, "before": c.rating_before, "after": c.rating_after, "at": _iso(c.created_at)}
                         for c in r.changes.order_by("id")]}
            for r in Rating.objects.filter(user=user).prefetch_related("changes").order_by("game", "variant")]


def _profile(user) -> dict:
    profile = Profile.objects.filter(user=user).first()
    vacation = Vacation.objects.filter(user=user).first()
    return {"display_name": profile.display_name if profile else "", "bio": profile.bio if profile else "",
            "settings": {"notification_digest": profile.notification_digest if profile else "none",
                         "vacation_year": vacation.year if vacation else None,
                         "vacation_used_seconds": int(vacation.used.total_seconds()) if vacation else 0}}


def account_export(user) -> dict:
    return {
        "exported_at": _iso(timezone.now()),
        "account": {"username": user.username, "email": user.email, "date_joined": _iso(user.date_joined),
                    "last_login": _iso(user.last_login)},
        "profile": _profile(user),
        "matches": _matches(user),
        "chat": [{"match": c.match_id, "room": c.room, "ply": c.ply, "text": c.text, "at": _iso(c.created_at),
                  "hidden_by_staff": c.hidden_at is not None}
                 for c in ChatMessage.objects.filter(author=user).order_by("id")],
        "ratings": _ratings(user),
        "ladders": [{"ladder": e.ladder.name, "rank": e.rank, "wins": e.wins, "losses": e.losses,
                     "forfeits": e.forfeits, "joined_at": _iso(e.joined_at)}
                    for e in LadderEntry.objects.filter(user=user).select_related("ladder")],
        "tournaments": [{"tournament": e.tournament.name, "status": e.tournament.status, "seed": e.seed,
                         "joined_at": _iso(e.joined_at)}
                        for e in TournamentEntry.objects.filter(user=user).select_related("tournament")],
        "tokens": [{"prefix": t.prefix, "created_at": _iso(t.created_at), "last_used_at": _iso(t.last_used_at),
                    "expires_at": _iso(t.expires_at)} for t in ApiToken.objects.filter(user=user)],
        "blocks": [b.blocked.username for b in Block.objects.filter(blocker=user).select_related("blocked")],
        "reports": [{"reason": r.reason, "status": r.status, "at": _iso(r.created_at)}
                    for r in Report.objects.filter(reporter=user)],
        **export_account(user),       # what other apps hold (notifications: address, webhooks...)
    }
