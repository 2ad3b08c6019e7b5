"""The games a mail lists, as plain values (public fields only: never a position or a hand)."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import translation
from django.utils.translation import gettext

from matches.models import Match, MatchSeat, RatingChange
from matches.selectors.catalogue import game_title, is_japanese
from matches.selectors.matches import matches_query
from notifications import links

LIST_LIMIT = 50


def local_time(moment: datetime | None, zone: str) -> str:
    """`Tue 1 Dec 2026, 14:05 CET` in the player's zone."""
    if moment is None:
        return ""
    local = moment.astimezone(ZoneInfo(zone))
    if is_japanese(translation.get_language()):
        return f"{local.year}年{local.month}月{local.day}日 {local:%H:%M} {local.tzname()}"
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def _game_line(match: Match, user, zone: str) -> dict:
    seats = list(match.seats.all())
    opponents = [s.player_name or gettext("open seat") for s in seats if s.user_id != user.pk]
    last = match.last_move or {}
    return {"id": match.pk, "title": game_title(match.game, translation.get_language()), "opponents": ", ".join(opponents),
            "deadline": local_time(match.deadline, zone), "deadline_at": match.deadline,
            "last_move": last.get("move", ""), "ply": match.ply, "url": links.match_url(match.pk)}


def games_to_move(user, zone: str) -> list[dict]:
    """Every active game where it is `user`'s move, soonest deadline first."""
    return [_game_line(m, user, zone) for m in matches_query(viewer=user, my_turn=True)[:LIST_LIMIT]]


def games_waiting(user, zone: str) -> list[dict]:
    """Active games of `user` where another seat is to move."""
    mine = {m["id"] for m in games_to_move(user, zone)}
    return [_game_line(m, user, zone) for m in matches_query(viewer=user, active=True)[:LIST_LIMIT]
            if m.pk not in mine]


def results_since(user, since: datetime | None, zone: str) -> list[dict]:
    """Matches of `user` that ended since `since`, with the rating change each made."""
    ended = (Match.objects.defer("state").filter(seats__user=user, finished_at__isnull=False)
             .prefetch_related("seats__user").order_by("-finished_at"))
    if since is not None:
        ended = ended.filter(finished_at__gt=since)
    changes = {c.match_id: c for c in RatingChange.objects.filter(rating__user=user,
                                                                  match__in=[m.pk for m in ended[:LIST_LIMIT]])}
    out = []
    for match in ended[:LIST_LIMIT]:
        line = _game_line(match, user, zone)
        seat = next((s.seat for s in match.seats.all() if s.user_id == user.pk), None)
        line["outcome"] = outcome_for(match, seat)
        change = changes.get(match.pk)
        line["rating"] = (f"{change.rating_before:.0f} → {change.rating_after:.0f}" if change else "")
        out.append(line)
    return out


def outcome_for(match: Match, seat: int | None) -> str:
    result = match.result or {}
    winners = result.get("winners") or []
    if match.status == Match.Status.ABORTED:
        return gettext("aborted")
    if not winners:
        return gettext("draw")
    return gettext("won") if seat in winners else gettext("lost")


def mover_seat(match_id: int, ply: int) -> MatchSeat | None:
    """The seat to move in the match if it is still active at `ply`."""
    match = Match.objects.defer("state").filter(pk=match_id, status=Match.Status.ACTIVE, ply=ply).first()
    if match is None or match.to_move is None:
        return None
    return MatchSeat.objects.filter(match=match, seat=match.to_move).first()


def match_line(match_id: int, user, zone: str) -> dict | None:
    match = Match.objects.defer("state").filter(pk=match_id).prefetch_related("seats__user").first()
    return _game_line(match, user, zone) if match else None
