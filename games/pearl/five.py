"""Pearl Five (`pearl-five`): five in a row by pushing pearls in — docs/rules/pearl.md §4.

Black (seat 0) opens on the centre [R]; every later ply is a push-in (§2.5) of a pearl of the
mover's colour, nothing leaving the board. After every ply both colours are checked for lines
(§4.3); with `handicap=on` Black's line must be exactly five, horizontal or vertical.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from games.core import OptionSpec, Outcome, Termination
from games.registry import register

from . import push
from .base import BLACK, SEAT_NAMES, WHITE, ColourState, PearlGame, colour_masks
from .board import DIRECTIONS, Grid, bits, direction_of, grid, parse_point, svg_diagram
from .moves import Place, PushIn, parse_place


def _has_five(m: int, s: int) -> int:
    """Bits starting a run of ≥ 5 set bits with stride s (the spare column stops wrap-around)."""
    two = m & (m >> s)
    four = two & (two >> 2 * s)
    return four & (m >> 4 * s)


def _exactly_five(m: int, s: int) -> bool:
    starts = _has_five(m, s) & ~(m << s)
    return bool(starts & ~(m >> 5 * s))


def _line_strides(g: Grid) -> tuple[int, ...]:
    return (1, g.w, g.w + 1, g.w - 1)


def has_line(g: Grid, m: int, exact_orthogonal: bool) -> bool:
    """§4.3: a maximal run of ≥ 5 along a row, column or diagonal; with `exact_orthogonal`
    (Black under the handicap) only an exact five along a row or column counts."""
    if exact_orthogonal:
        return _exactly_five(m, 1) or _exactly_five(m, g.w)
    return any(_has_five(m, s) for s in _line_strides(g))


@dataclass(frozen=True)
class FiveState(ColourState):
    """Bitboards of both colours, the seat to move, plies played (= pearls on the board)."""

    size: int
    handicap: bool
    single: bool
    black: int
    white: int
    turn: int = BLACK
    ply: int = 0
    outcome: Outcome | None = None
    last: str | None = field(default=None, compare=False)

    # -- moves -----------------------------------------------------------------------------
    def _moves(self) -> list:
        g = self.grid
        if self.ply == 0 and not (self.black | self.white):
            c = (g.n - 1) // 2
            return [Place(c, c)]  # §4.2: ply 1 is the centre, the only legal first move
        occ, moves = self.black | self.white, []
        for d in DIRECTIONS:
            for p in bits(push.push_in_points(g, occ, d, self.single)):
                moves.append(PushIn(p % g.w, p // g.w, d))
        return moves

    def _parse(self, text: str):
        t = text.strip()
        if t[-1:].isalpha() and len(t) > 2 and t[-2].isdigit():
            x, y = parse_point(t[:-1], self.size)
            return PushIn(x, y, direction_of(t[-1]))
        return parse_place(t, self.size)

    def apply(self, move) -> "FiveState":
        g = self.grid
        layers = (self.black, self.white)
        p = g.index(move.x, move.y)
        if isinstance(move, PushIn):
            row, _front = push.run(g, self.black | self.white, p, move.d)
            layers = push.shift_layers(g, layers, row, move.d)
        black, white = layers
        if self.turn == BLACK:
            black |= 1 << p
        else:
            white |= 1 << p
        return FiveState(self.size, self.handicap, self.single, black, white, 1 - self.turn,
                         self.ply + 1, None, str(move))._judged()

    def _judge(self) -> Outcome | None:
        """§4.3, for both colours after every ply; then a stuck side to move draws."""
        g = self.grid
        black_line = has_line(g, self.black, self.handicap)
        white_line = has_line(g, self.white, False)
        if black_line and white_line:
            return Outcome.draw(2, Termination.BOTH_LINES)
        if black_line or white_line:
            return Outcome.win(BLACK if black_line else WHITE, 2, Termination.LINE)
        occ = self.black | self.white
        if not any(push.push_in_points(g, occ, d, self.single) for d in DIRECTIONS):
            return Outcome.draw(2, Termination.NO_MOVES)
        return None

    # -- presentation ----------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        return self._view()

    def to_dict(self) -> dict:
        g = self.grid
        return {
            "size": self.size, "handicap": "on" if self.handicap else "off",
            "push": "single" if self.single else "run",
            "black": g.point_list(self.black), "white": g.point_list(self.white),
            "turn": self.turn, "ply": self.ply, "last": self.last,
            "outcome": self._outcome_dict(),
        }

    def render_svg(self, seat: int | None = None) -> str:
        return svg_diagram(self.grid, self._discs(), f"Pearl Five, ply {self.ply}")


@register
class PearlFive(PearlGame):
    """docs/rules/pearl.md §4."""

    slug = "pearl-five"
    title = "Pearl Five"
    options = {
        "size": OptionSpec(19, "board N×N", choices=(15, 19)),
        "handicap": OptionSpec("on", "on: Black wins only with exactly five, horizontal or "
                               "vertical", choices=("on", "off")),
        # [R] push=run is the default reading of §4.2; push=single the alternative
        "push": OptionSpec("run", "a push-in shifts the whole run, or only a pearl with empty "
                           "space ahead", choices=("run", "single")),
    }
    variants = {"standard": {}}
    summary = ("Glass Pearl Game: five in a row, but every pearl after the first is pushed in "
               "from an empty point, shifting the touching run of pearls of both colours. A "
               "line counts for whoever owns it, even if the opponent's push made it; Black, "
               "who starts, wins only with exactly five in a row or column.")

    def _new_state(self, players: int, seed: int, options: dict) -> FiveState:
        return FiveState(options["size"], options["handicap"] == "on",
                         options["push"] == "single", 0, 0)

    def position(self, black: Iterable[str] = (), white: Iterable[str] = (), to_move: int = BLACK,
                 options: Mapping | None = None) -> FiveState:
        """A hand-set position (docs/rules/pearl.md §9): pearls by colour as point names, the seat to
        move; ply = the number of pearls. The position is judged as if a ply had just ended."""
        opts = self.normalize_options(options)
        g = grid(opts["size"])
        b, w = colour_masks(g, black, white)
        state = FiveState(g.n, opts["handicap"] == "on", opts["push"] == "single", b, w, to_move,
                          bin(b | w).count("1"))
        return state._judged() if b | w else state

    def _state_from_dict(self, d: Mapping) -> FiveState:
        g = grid(int(d["size"]))
        black, white = (g.parse_mask(d[c]) for c in SEAT_NAMES)
        return FiveState(g.n, d["handicap"] == "on", d["push"] == "single", black, white,
                         int(d["turn"]), int(d["ply"]), Outcome.from_dict(d["outcome"]),
                         d.get("last"))
