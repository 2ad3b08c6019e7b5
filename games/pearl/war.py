"""Pearl War (`pearl-war`): the seed's "Pearl Game" — docs/rules/pearl.md §3.

Two armies of 36 pearls start in opposite corners [R] and advance only toward the enemy home
(White E and N, Black W and S). A ply is one slide-push (§2.4) of an own pearl whose moving row
stays in friendly contact; pearls ahead, of either colour, may be pushed off. Whoever first
stands on the enemy home wins. The opponent may not push straight back the pearls a slide just
displaced (§3.4); forced pass, mutual block, repetition and a ply cap as §2.6 and §3.5.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from games.core import OptionSpec, Outcome, Termination
from games.registry import register

from . import push
from .base import BLACK, SEAT_NAMES, WHITE, ColourState, PearlGame, colour_masks
from .board import DIR_LETTERS, E, Grid, N, S, W, bits, grid, opposite, svg_diagram
from .moves import PASS, Pass, Slide, is_pass, parse_slide
# §3.1 no retreat: each side moves only toward the enemy home.
SIDE_DIRECTIONS = ((W, S), (E, N))
NO_BAN = -1


def home(g: Grid, seat: int) -> int:
    """§3.1 [R] homes in opposite corners: White's is a1, Black's the opposite corner."""
    return g.index(g.n - 1, g.n - 1) if seat == BLACK else 0


def start_armies(g: Grid, army: str) -> tuple[int, int]:
    """§3.2 [R]: (black, white) bitboards of the two 36-pearl armies."""
    top = g.n - 1
    if army == "square":
        white = g.mask_of((x, y) for x in range(6) for y in range(6))
        black = g.mask_of((top - x, top - y) for x in range(6) for y in range(6))
    else:
        stair = [(x, y) for x in range(8) for y in range(8) if x + y <= 7]
        white = g.mask_of(stair)
        black = g.mask_of((top - x, top - y) for x, y in stair)
    return black, white


def slide_lengths(g: Grid, own: int, occ: int, seat: int, ban_dir: int, ban: int):
    """(pearl, d, K) for each own pearl and direction with K ≥ 1 legal steps (§3.3–3.4): contact
    is friendly–friendly, the pusher stays on the board, anything ahead may be pushed off, and a
    step in −d (d the opponent's last slide) may not move a row holding a point of D."""
    back = opposite(ban_dir) if ban_dir != NO_BAN else NO_BAN
    for q in bits(own):
        for d in SIDE_DIRECTIONS[seat]:
            top = push.slide_length(g, occ, own, q, d, ban=ban if d == back else 0)
            if top:
                yield q, d, top


def has_move(g: Grid, black: int, white: int, seat: int, ban_dir: int, ban: int) -> bool:
    own = black if seat == BLACK else white
    return next(slide_lengths(g, own, black | white, seat, ban_dir, ban), None) is not None


@dataclass(frozen=True)
class WarState(ColourState):
    """Both armies as bitboards, the side to move, the push-back ban on it (the opponent's last
    slide direction and the point set D, §3.4), and the repetition history: keys of the
    positions since the last pearl left the board (§3.5, §11)."""

    size: int
    max_plies: int
    black: int
    white: int
    turn: int = BLACK
    ban_dir: int = NO_BAN
    ban: int = 0
    ply: int = 0
    history: tuple[str, ...] = ()
    outcome: Outcome | None = None
    last: str | None = field(default=None, compare=False)

    # -- moves -----------------------------------------------------------------------------
    def _moves(self) -> list:
        g, w = self.grid, self.grid.w
        own = self.black if self.turn == BLACK else self.white
        moves = [Slide(q % w, q // w, d, k)
                 for q, d, top in slide_lengths(g, own, self.black | self.white, self.turn,
                                                self.ban_dir, self.ban)
                 for k in range(1, top + 1)]
        return moves or [PASS]

    def is_legal(self, move) -> bool:
        if isinstance(move, Pass):
            return self.legal_moves() == [PASS]
        g = self.grid
        if not isinstance(move, Slide) or move.d not in SIDE_DIRECTIONS[self.turn] or not (
                0 <= move.x < g.n and 0 <= move.y < g.n):
            return False
        q = g.index(move.x, move.y)
        own = self.black if self.turn == BLACK else self.white
        if not (own >> q) & 1:
            return False
        back = opposite(self.ban_dir) if self.ban_dir != NO_BAN else NO_BAN
        top = push.slide_length(g, self.black | self.white, own, q, move.d,
                                ban=self.ban if move.d == back else 0)
        return move.k <= top

    def illegal_reason(self, move) -> str | None:
        if isinstance(move, Slide) and move.d not in SIDE_DIRECTIONS[self.turn]:
            return f"{SEAT_NAMES[self.turn]} moves only " + " or ".join(
                DIR_LETTERS[d] for d in SIDE_DIRECTIONS[self.turn])
        return None

    def _parse(self, text: str):
        if is_pass(text):
            return PASS
        return parse_slide(text, self.size)

    def apply(self, move) -> "WarState":
        if isinstance(move, Pass):  # a pass displaces nothing: D empties (§3.4)
            return self._next(self.black, self.white, NO_BAN, 0, str(move))
        g = self.grid
        q = g.index(move.x, move.y)
        (black, white), moved = push.slide(g, (self.black, self.white), q, move.d, move.k)
        displaced = moved & (white if self.turn == BLACK else black)
        ban_dir = move.d if displaced else NO_BAN
        return self._next(black, white, ban_dir, displaced, str(move))

    def _next(self, black: int, white: int, ban_dir: int, ban: int, text: str) -> "WarState":
        g, mover, turn = self.grid, self.turn, 1 - self.turn
        key = f"{black:x}/{white:x}/{turn}/{ban_dir}/{ban:x}"
        lost = (black | white).bit_count() != (self.black | self.white).bit_count()
        history = (key,) if lost else self.history + (key,)
        state = WarState(self.size, self.max_plies, black, white, turn, ban_dir, ban,
                         self.ply + 1, history, None, text)
        own = black if mover == BLACK else white
        if (own >> home(g, 1 - mover)) & 1:
            return state._evolve(outcome=Outcome.win(mover, 2, Termination.HOME))
        return state._judged()

    def _judge(self) -> Outcome | None:
        """§11 order after the win: mutual block (§2.6), repetition, the ply cap (§3.5); the
        draw safeguards are [R] (§1): the text has none, a server needs them."""
        g = self.grid
        if not has_move(g, self.black, self.white, self.turn, self.ban_dir, self.ban) and \
                not has_move(g, self.black, self.white, 1 - self.turn, NO_BAN, 0):
            return Outcome.draw(2, Termination.MUTUAL_BLOCK)
        if self.history and self.history.count(self.history[-1]) >= 3:
            return Outcome.draw(2, Termination.REPETITION)
        if self.ply >= self.max_plies:
            return Outcome.draw(2, Termination.MAX_PLIES)
        return None

    # -- presentation ----------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        ban = {"direction": DIR_LETTERS[opposite(self.ban_dir)],
               "points": self.grid.point_list(self.ban)} if self.ban else None
        return self._view(no_push_back=ban)

    def to_dict(self) -> dict:
        g = self.grid
        return {
            "size": self.size, "max_plies": self.max_plies,
            "black": g.point_list(self.black), "white": g.point_list(self.white),
            "turn": self.turn, "ban_dir": DIR_LETTERS[self.ban_dir] if self.ban else None,
            "ban": g.point_list(self.ban), "ply": self.ply, "history": list(self.history),
            "last": self.last, "outcome": self._outcome_dict(),
        }

    def render_svg(self, seat: int | None = None) -> str:
        return svg_diagram(self.grid, self._discs(), f"Pearl War, ply {self.ply}")


def _opening(g: Grid, max_plies: int, black: int, white: int, turn: int) -> WarState:
    """A position before any ply: the start counts as the first occurrence (§11)."""
    key = f"{black:x}/{white:x}/{turn}/{NO_BAN}/0"
    return WarState(g.n, max_plies, black, white, turn, history=(key,))._judged()


@register
class PearlWar(PearlGame):
    """docs/rules/pearl.md §3."""

    slug = "pearl-war"
    title = "Pearl War"
    options = {
        "size": OptionSpec(19, "board N×N", choices=(13, 15, 19)),
        "army": OptionSpec("staircase", "shape of each 36-pearl army",
                           choices=("staircase", "square")),
        # [R] first player: not stated in the text; Black, by Go habit (§1)
        "first": OptionSpec("black", "side that plays ply 1", choices=("black", "white")),
        "max_plies": OptionSpec(600, "draw after this many plies", min=100, max=2000),
    }
    variants = {"standard": {}, "square": {"army": "square"}}
    summary = ("Glass Pearl Game war game: two armies of 36 pearls start in opposite corners "
               "and only ever advance. A move slides one pearl straight ahead, pushing whatever "
               "lies in front — enemies and friends, off the board too — as long as the moving "
               "row stays in touch with a friendly pearl beside it. First to stand on the enemy "
               "home corner wins.")

    def _new_state(self, players: int, seed: int, options: dict) -> WarState:
        g = grid(options["size"])
        black, white = start_armies(g, options["army"])
        turn = BLACK if options["first"] == "black" else WHITE
        return _opening(g, options["max_plies"], black, white, turn)

    def position(self, black: Iterable[str] = (), white: Iterable[str] = (), to_move: int = BLACK,
                 options: Mapping | None = None) -> WarState:
        """A hand-set position (docs/rules/pearl.md §9): pearls by colour as point names and the
        side to move (0 Black, 1 White), no push-back ban; stuck sides pass or block (§2.6)."""
        opts = self.normalize_options(options)
        g = grid(opts["size"])
        b, w = colour_masks(g, black, white)
        return _opening(g, opts["max_plies"], b, w, to_move)

    def _state_from_dict(self, d: Mapping) -> WarState:
        g = grid(int(d["size"]))
        black, white = (g.parse_mask(d[c]) for c in SEAT_NAMES)
        ban = g.parse_mask(d["ban"])
        ban_dir = DIR_LETTERS.index(d["ban_dir"]) if d["ban_dir"] else NO_BAN
        return WarState(g.n, int(d["max_plies"]), black, white, int(d["turn"]), ban_dir, ban,
                        int(d["ply"]), tuple(map(str, d["history"])),
                        Outcome.from_dict(d["outcome"]), d.get("last"))

