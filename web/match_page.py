"""Parts of the match page beyond the match detail: what the viewer may do (`capabilities`), the
board as they see it (from their side, last move and captures marked), each seat's side, the
analysis marks per ply. Computed from what `web.selectors` read; hidden information only through
`view(seat)` and `render_svg(seat)` of the state the viewer may see."""
from __future__ import annotations

import games

from .boards import marked_board
from .sides import side_of, turned

# Games whose result is a score per player (New Eleusis's points per round): there is no draw to agree.
SCORED_GAMES = {"new-eleusis"}


def capabilities(match, seat: int | None, seats: list, rules: games.Game, user) -> dict[str, bool]:
    """Which actions the page offers this viewer now. Takebacks are offered only where some
    opponent is a person (engines never agree) and draws only where a game can end in one by
    agreement (not a one-seat puzzle, not a scored game)."""
    active = match.status == "active"
    playing = active and seat is not None
    people_against = any(s.user_id and not s.ai_level for s in seats if s.seat != seat)
    return {
        "move": playing and match.to_move == seat,
        "offer_draw": playing and len(seats) > 1 and match.game not in SCORED_GAMES,
        "takeback": playing and not rules.has_hidden_information and match.ply > 0 and people_against,
        "abort": playing and match.ply < match.players,
        "resign": playing,
        "rematch": not active and seat is not None and match.status != "aborted",
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
                       captured=view.get("last_captured") or (), turned=is_turned,
                       moved_to=_moved_piece(game, view) if last in BARE_DIRECTIONS else None)
    return {"board_svg": svg, "turned": is_turned, "last_move": last if isinstance(last, str) else None,
            "captures": view.get("captures")}


BARE_DIRECTIONS = {"N", "E", "S", "W", "U", "R", "D", "L"}     # Pearl Yard's and Pearl Maze's moves


def _moved_piece(game: str, view: dict) -> str | None:
    """Where the piece that made a bare-direction move stands (Pearl Maze's black pearl; in Pearl
    Yard, Police moves on odd plies and Thief on even ones)."""
    if game == "pearl-maze":
        return view.get("black")
    if game == "pearl-yard" and view.get("ply"):
        return view.get(("police", "thief")[(view["ply"] - 1) % 2])
    return None


def seat_sides(game: str, seats: list, captures) -> dict[int, dict]:
    out = {}
    for s in seats:
        side = side_of(game, s.seat)
        taken = captures[s.seat] if isinstance(captures, list) and s.seat < len(captures) else None
        out[s.seat] = {"side": side, "captured": taken}
    return out


MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def move_marks(analysis: dict | None) -> dict[int, dict]:
    """Ply → the analysis's verdict on that move (class, its sign, the engine's choice)."""
    if not analysis or analysis["status"] != "done":
        return {}
    return {r["ply"]: {"class": r["classification"], "sign": MARKS.get(r["classification"] or "", ""),
                       "best": r["best"]}
            for r in analysis["results"] if r.get("classification") in MARKS}
