"""Page reads: what the templates show, assembled from `matches.selectors` (the same payloads the
API serves, so the pages are never a second source of truth). The few queries the API has no
selector for yet (a match's analyses, a game's rating table) are small and live here."""
from __future__ import annotations

import hashlib
from datetime import datetime

from django.db.models import Q

import games
from matches.models import Analysis, Match, MatchSeat, Rating
from matches.selectors import catalogue
from matches.selectors import challenges as challenge_selectors
from matches.selectors import matches as match_selectors
from matches.selectors.analysis import analysis_payload

RECENT_FINISHED = 10


def game_title(slug: str) -> str:
    rules = games.GAMES.get(slug)
    return rules.title if rules else slug


def player_label(name: str | None) -> str:
    """How a seat reads on a page: a username, 'engine (easy)', or 'open seat'."""
    if name is None:
        return "open seat"
    return f"engine ({name[3:]})" if name.startswith("ai:") else name


# --- the lobby ---------------------------------------------------------------------------------
def _lobby_row(summary: dict, user) -> dict:
    names = {s["seat"]: s["player"] for s in summary["seats"]}
    mine = next((s for s, name in names.items() if name == user.username), None)
    return {**summary, "title": game_title(summary["game"]), "my_seat": mine,
            "my_turn": summary["to_move"] is not None and summary["to_move"] == mine,
            "opponents": [player_label(n) for s, n in sorted(names.items()) if s != mine],
            "to_move_name": player_label(names.get(summary["to_move"])) if summary["to_move"] is not None else None}


def _turn_order(row: dict) -> tuple:
    """My turn first, then the nearest deadline, then the most recently active."""
    deadline: datetime | None = row["deadline"]
    return (not row["my_turn"], deadline is None, deadline.timestamp() if deadline else 0,
            -row["updated_at"].timestamp())


def my_games(user) -> dict:
    active = [_lobby_row(match_selectors.match_summary(m), user)
              for m in match_selectors.matches_query(player=user.username, status="active")]
    finished = [_lobby_row(match_selectors.match_summary(m), user) for m in
                match_selectors.matches_query(player=user.username).exclude(status="active")[:RECENT_FINISHED]]
    return {"active": sorted(active, key=_turn_order), "finished": finished}


def _challenge_row(challenge, user) -> dict:
    payload = challenge_selectors.challenge_payload(challenge)
    mine = next((s for s in payload["seats"] if s["player"] == user.username), None)
    return {**payload, "title": game_title(payload["game"]),
            "mine": payload["created_by"] == user.username,
            "awaiting_me": mine is not None and not mine["accepted"],
            "seat_labels": [f"{player_label(s['player'])}{'' if s['accepted'] else ' (invited)'}"
                            if s["player"] else "open seat" for s in payload["seats"]]}


def lobby_challenges(user) -> dict:
    own = [c for c in challenge_selectors.challenges_for(user) if c.status == "open"]
    seeks = [c for c in challenge_selectors.challenges_for(user, open_only=True)
             if c.created_by_id != user.pk and not any(s.user_id == user.pk for s in c.seats.all())]
    return {"own": [_challenge_row(c, user) for c in own], "seeks": [_challenge_row(c, user) for c in seeks]}


def games_catalogue() -> list[dict]:
    return catalogue.catalogue()


# --- the match page ---------------------------------------------------------------------------
def _result_text(result: dict | None, names: dict[int, str], status: str) -> str:
    if status == "aborted":
        return "Aborted"
    if not result:
        return ""
    how = result["termination"].replace("_", " ")
    winners = result["winners"]
    if not winners:
        return f"Draw ({how})"
    if len(names) == 1:
        return f"Finished ({how}); score {result['scores'][0]:g}"
    return f"{' and '.join(names[w] for w in winners)} won ({how})"


def visible_analysis(match: Match, user) -> dict | None:
    """The newest analysis of the match the viewer may read (one of a hidden-information game is
    its requester's alone), preferring a finished one."""
    readable = Q(seat__isnull=True)
    if user.is_authenticated:
        readable |= Q(requested_by=user)
    rows = list(Analysis.objects.filter(readable, match=match).order_by("-id")[:5])
    chosen = next((a for a in rows if a.status == Analysis.Status.DONE), rows[0] if rows else None)
    return analysis_payload(chosen) if chosen else None


def match_page(match_id: int, user) -> dict:
    """Everything the match page shows, as this viewer may see it."""
    match = match_selectors.get_match(match_id)
    seats = list(match.seats.all())
    state = match_selectors.match_state(match)
    detail = match_selectors.match_detail(match, user, seats, state)
    seat = detail["viewer_seat"]
    rules = games.get_game(match.game)
    names = {s.seat: player_label(s.player_name) for s in seats}
    active = match.status == "active"
    analysis = visible_analysis(match, user)
    return {
        "match": detail, "rules": rules, "title": rules.title, "seat": seat,
        "names": names,
        "seat_rows": [{"seat": s.seat, "name": names[s.seat], "to_move": s.seat == match.to_move,
                       "username": s.user.username if s.user_id else None, "offer": s.offer} for s in seats],
        "to_move_name": names.get(match.to_move) if match.to_move is not None else None,
        "my_turn": seat is not None and active and match.to_move == seat,
        "board_svg": state.render_svg(seat), "board_text": state.render_text(seat),
        "moves": [{**m, "name": names.get(m["seat"], "")} for m in match_selectors.match_moves(match)],
        "offers": [{"seat": s.seat, "name": names[s.seat], "kind": s.offer} for s in seats if s.offer],
        "my_offer": next((s.offer for s in seats if s.seat == seat), "") if seat is not None else "",
        "result_text": _result_text(detail["result"], names, match.status),
        "can_abort": active and seat is not None and match.ply < match.players,
        "can_takeback": active and seat is not None and not rules.has_hidden_information and match.ply > 0,
        "can_offer": active and seat is not None and len(seats) > 1,
        "can_analyse": (not active and user.is_authenticated and match.ply > 0
                        and (seat is not None or not rules.has_hidden_information)),
        "analysis": analysis,
        "version": page_version(match, seats, analysis),
    }


def page_version(match: Match, seats, analysis: dict | None) -> str:
    """Changes whenever anything the match page shows changes: the position, offers, analyses."""
    key = "|".join([str(match.ply), match.status, match.updated_at.isoformat(),
                    ",".join(s.offer or "-" for s in seats),
                    f"{analysis['id']}:{analysis['status']}" if analysis else "-"])
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def current_version(match_id: int, user) -> str:
    """`page_version` read afresh (the live endpoint's check)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return "gone"
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    return page_version(match, seats, visible_analysis(match, user))


# --- players and ratings --------------------------------------------------------------------
def leaderboard(slug: str, limit: int = 100) -> list[dict]:
    """A game's rating table, best first (the players who have a rating in it)."""
    from matches.glicko import PROVISIONAL_DEVIATION

    rows = Rating.objects.filter(game=slug).select_related("user").order_by("-rating", "user__username")[:limit]
    return [{"rank": i, "player": r.user.username, "rating": round(r.rating), "deviation": round(r.deviation),
             "games": r.games, "provisional": r.deviation > PROVISIONAL_DEVIATION}
            for i, r in enumerate(rows, start=1)]


def player_matches(username: str, limit: int = 20) -> list[dict]:
    rows = []
    for m in match_selectors.matches_query(player=username)[:limit]:
        summary = match_selectors.match_summary(m)
        rows.append({**summary, "title": game_title(m.game),
                     "players": [player_label(s["player"]) for s in summary["seats"]]})
    return rows
