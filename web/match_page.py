"""Parts of the match page beyond the match detail: what the viewer may do (`capabilities`), the
board as they see it (from their side, last move and captures marked), each seat's side, the
analysis marks per ply, the rating changes of a rated result, an offer just declined, and any
earlier position for replay. Reads only; hidden information only through `view(seat)` and
`render_svg(seat)` of the state the viewer may see."""
from __future__ import annotations

import games
from matches.models import Event, Match, MatchSeat, RatingChange

from .boards import marked_board
from .sides import side_of, turned

# Games whose result is a score per player (New Eleusis's points per round): there is no draw to agree.
SCORED_GAMES = {"new-eleusis"}


def capabilities(match: Match, seat: int | None, seats: list[MatchSeat], rules: games.Game, user) -> dict[str, bool]:
    """Which actions the page offers this viewer now. Takebacks are offered only where some
    opponent is a person (engines never agree) and draws only where a game can end in one by
    agreement (not a one-seat puzzle, not a scored game)."""
    active = match.status == Match.Status.ACTIVE
    playing = active and seat is not None
    people_against = any(s.user_id and not s.ai_level for s in seats if s.seat != seat)
    return {
        "move": playing and match.to_move == seat,
        "offer_draw": playing and len(seats) > 1 and match.game not in SCORED_GAMES,
        "takeback": playing and not rules.has_hidden_information and match.ply > 0 and people_against,
        "abort": playing and match.ply < match.players,
        "resign": playing,
        "rematch": not active and seat is not None and match.status != Match.Status.ABORTED,
        "analyse": (not active and user.is_authenticated and match.ply > 0
                    and (seat is not None or not rules.has_hidden_information)),
        "read_analysis": seat is not None or not rules.has_hidden_information,
    }


def board(state: games.State, seat: int | None, game: str, flip: bool = False) -> dict:
    """The board picture for `seat` (turned for its side, or the other way with `flip`), with the
    last move and its captures marked, and what the view says of captures."""
    view = state.view(seat)
    last = view.get("last_move") if isinstance(view, dict) else None
    is_turned = turned(game, seat) != flip
    svg = marked_board(state.render_svg(seat), last_move=last if isinstance(last, str) else None,
                       captured=view.get("last_captured") or (), turned=is_turned)
    return {"board_svg": svg, "turned": is_turned, "last_move": last if isinstance(last, str) else None,
            "captures": view.get("captures")}


def seat_sides(game: str, seats: list[MatchSeat], captures) -> dict[int, dict]:
    out = {}
    for s in seats:
        side = side_of(game, s.seat)
        taken = captures[s.seat] if isinstance(captures, list) and s.seat < len(captures) else None
        out[s.seat] = {"side": side, "captured": taken}
    return out


def declined_offer(match: Match, user, seat: int | None) -> dict | None:
    """The viewer's own offer declined since the last move (the page tells them, once they look)."""
    if seat is None or not user.is_authenticated or match.status != Match.Status.ACTIVE:
        return None
    event = (Event.objects.filter(user=user, kind=Event.Kind.OFFER_DECLINED, payload__match=match.pk)
             .order_by("-id").first())
    if event is None or (match.turn_started_at and event.created_at < match.turn_started_at):
        return None
    return {"offer": event.payload.get("offer"), "by": event.payload.get("by")}


def rating_changes(match: Match) -> dict[int, int]:
    """Seat → rounded rating change of a rated, finished match."""
    if not match.rated:
        return {}
    by_user = {c.rating.user_id: round(c.rating_after - c.rating_before)
               for c in RatingChange.objects.filter(match=match).select_related("rating")}
    return {s.seat: by_user[s.user_id] for s in match.seats.all() if s.user_id in by_user}


MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def move_marks(analysis: dict | None) -> dict[int, dict]:
    """Ply → the analysis's verdict on that move (class, its sign, the engine's choice)."""
    if not analysis or analysis["status"] != "done":
        return {}
    return {r["ply"]: {"class": r["classification"], "sign": MARKS.get(r["classification"] or "", ""),
                       "best": r["best"]}
            for r in analysis["results"] if r.get("classification") in MARKS}


def position_at(match: Match, seat: int | None, ply: int, flip: bool = False) -> dict:
    """The board after `ply` moves, for replay (perfect-information games: an earlier position
    of a hidden-information game would need its hidden state of then)."""
    rules = games.get_game(match.game)
    if rules.has_hidden_information:
        raise games.GameError("replay is not offered in games with hidden information")
    notations = list(match.moves.order_by("ply").values_list("notation", flat=True)[:max(0, ply)])
    state = rules.replay(players=match.players, seed=match.seed, options=match.options, moves=notations)
    return {**board(state, seat, match.game, flip), "ply": len(notations)}
