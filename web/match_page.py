"""Parts of the match page beyond the match detail: which of the viewer's capabilities become buttons, the
board as they see it (from their side, last move and captures marked), each seat's side, the
analysis marks per ply. Computed from what `web.selectors` read; hidden information only through
`view(seat)` and `render_svg(seat)` of the state the viewer may see."""
from __future__ import annotations

import games

from .boards import marked_board
from .sides import side_of, turned

# The page's buttons, by the names its templates use, from the capabilities selector's verdicts
# (matches/selectors/capabilities.py: the same rules the services apply).
PAGE_ACTIONS = {"move": "move", "offer_draw": "offer_draw", "takeback": "offer_takeback", "abort": "abort",
                "resign": "resign", "rematch": "rematch", "analyse": "analyse", "read_analysis": "read_analysis"}


def capabilities(allowed: dict[str, bool]) -> dict[str, bool]:
    """Which actions the page offers this viewer now: the capabilities selector's verdicts."""
    return {button: allowed[name] for button, name in PAGE_ACTIONS.items()}


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
