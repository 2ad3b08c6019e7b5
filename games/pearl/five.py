"""Pearl Five (`pearl-five`): five in a row by pushing pearls in — rules/pearl.md §4.

Black (seat 0) opens on the centre [R]; every later ply is a push-in (§2.5) of a pearl of the
mover's colour, nothing leaving the board. After every ply both colours are checked for lines
(§4.3); with `handicap=on` Black's line must be exactly five, horizontal or vertical.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from games.core import (Game, InvalidMoveError, InvalidStateError, OptionSpec, Outcome, State,
                        Termination)
from games.registry import register

from . import push
from .board import (BLACK_DISC, DIRECTIONS, WHITE_DISC, Grid, bits, direction_of, grid,
                    parse_point, svg_diagram, text_diagram)
from .moves import Place, PushIn

BLACK, WHITE = 0, 1
SEAT_NAMES = ("black", "white")


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
class FiveState(State):
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

    players = 2

    @property
    def grid(self) -> Grid:
        return grid(self.size)

    @property
    def current_player(self) -> int | None:
        return None if self.outcome is not None else self.turn

    # -- moves -----------------------------------------------------------------------------
    def legal_moves(self) -> list:
        if self.outcome is not None:
            return []
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
        if not t:
            raise InvalidMoveError("an empty move")
        x, y = parse_point(t, self.size)
        return Place(x, y)

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
        nxt = FiveState(self.size, self.handicap, self.single, black, white, 1 - self.turn,
                        self.ply + 1, None, str(move))
        outcome = nxt._judge()
        return nxt if outcome is None else _replace_outcome(nxt, outcome)

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
    def _symbol(self, p: int) -> str:
        if (self.black >> p) & 1:
            return "B"
        return "W" if (self.white >> p) & 1 else "."

    def view(self, seat: int | None) -> dict:
        g = self.grid
        return {
            "size": self.size, "board": self.render_text().splitlines()[:-1],
            "black": g.point_list(self.black), "white": g.point_list(self.white),
            "counts": {"black": self.black.bit_count(), "white": self.white.bit_count()},
            "to_move": self.current_player, "ply": self.ply, "last_move": self.last,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    def to_dict(self) -> dict:
        g = self.grid
        return {
            "size": self.size, "handicap": "on" if self.handicap else "off",
            "push": "single" if self.single else "run",
            "black": g.point_list(self.black), "white": g.point_list(self.white),
            "turn": self.turn, "ply": self.ply, "last": self.last,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    def render_text(self, seat: int | None = None) -> str:
        return text_diagram(self.grid, self._symbol)

    def render_svg(self, seat: int | None = None) -> str:
        discs = {p: BLACK_DISC for p in bits(self.black)}
        discs.update({p: WHITE_DISC for p in bits(self.white)})
        return svg_diagram(self.grid, discs, f"Pearl Five, ply {self.ply}")


def _replace_outcome(state: FiveState, outcome: Outcome) -> FiveState:
    return FiveState(state.size, state.handicap, state.single, state.black, state.white,
                     state.turn, state.ply, outcome, state.last)


@register
class PearlFive(Game):
    """rules/pearl.md §4."""

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
    rules_page = "rules/pearl.md"

    def _new_state(self, players: int, seed: int, options: dict) -> FiveState:
        return FiveState(options["size"], options["handicap"] == "on",
                         options["push"] == "single", 0, 0)

    def position(self, black: Iterable[str] = (), white: Iterable[str] = (), to_move: int = BLACK,
                 options: Mapping | None = None) -> FiveState:
        """A hand-set position (rules/pearl.md §9): pearls by colour as point names, the seat to
        move; ply = the number of pearls. The position is judged as if a ply had just ended."""
        opts = self.normalize_options(options)
        g = grid(opts["size"])
        b = g.mask_of(parse_point(n, g.n) for n in black)
        w = g.mask_of(parse_point(n, g.n) for n in white)
        if b & w:
            raise InvalidStateError("a point holds both colours")
        state = FiveState(g.n, opts["handicap"] == "on", opts["push"] == "single", b, w, to_move,
                          bin(b | w).count("1"))
        outcome = state._judge() if b | w else None
        return state if outcome is None else _replace_outcome(state, outcome)

    def state_from_dict(self, d: Mapping) -> FiveState:
        try:
            g = grid(int(d["size"]))
            masks = [g.mask_of(parse_point(n, g.n) for n in d[c]) for c in SEAT_NAMES]
            return FiveState(g.n, d["handicap"] == "on", d["push"] == "single", masks[0],
                             masks[1], int(d["turn"]), int(d["ply"]),
                             Outcome.from_dict(d["outcome"]), d.get("last"))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"bad pearl-five state: {exc}") from exc
