"""Pearl Yard (`pearl-yard`): Police chases Thief on a road network built move by move —
docs/rules/pearl.md §7.

Each ply pushes a white pearl in (§2.5) behind the mover's own piece so that the piece moves one
point; the run ahead moves with it (the other piece too, if it is in the run). Police wins when
the pieces touch, Thief when it is pushed off the board; forced pass and mutual block as §2.6.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from games import svg
from games.core import InvalidMoveError, OptionSpec, Outcome, Termination
from games.registry import register

from . import push
from .base import PearlGame, PearlState
from .board import (DIR_LETTERS, DIRECTIONS, WHITE_DISC, Grid, bits, direction_of, grid,
                    opposite, svg_diagram)
from .moves import PASS, Pass, is_pass

POLICE, THIEF = 0, 1
NO_BAN = -1
# docs/rules/pearl.md §7.2 [R]: the "cross", as offsets from the centre c.
CROSS_THIEF = (0, 0)
CROSS_POLICE = (0, 2)
CROSS_WHITES = ((0, 3), (0, 1), (-1, 0), (1, 0), (0, -1))
POLICE_DISC = svg.Disc("#2a4fb0", label="P", label_fill="#fff")
THIEF_DISC = svg.Disc("#b03a2a", label="T", label_fill="#fff")


@dataclass(frozen=True)
class Go:
    """A Yard ply: the direction the mover's piece moves, `N E S W` (§8)."""

    d: int

    def __str__(self) -> str:
        return DIR_LETTERS[self.d]


def _has_square(g: Grid, occ: int) -> bool:
    """§7.3 No 2×2: four occupied points in a block (the spare column stops wrap-around)."""
    pair = occ & (occ >> 1)
    return bool(pair & (pair >> g.w))


def try_push(g: Grid, whites: int, police: int, thief: int, piece: int, d: int):
    """§7.3: the push-in that moves `piece` one point along d, or None if it is illegal.

    Returns (whites, police, thief, displaced row) after the ply; an escaped thief is -1.
    """
    occ = whites | (1 << police) | (1 << thief)
    back = g.nbr[opposite(d)]
    p = piece
    while back[p] >= 0 and (occ >> back[p]) & 1:  # the tail of the piece's run
        p = back[p]
    if back[p] < 0:
        return None  # p − d is off the board: nothing enters from outside
    row, front = push.run(g, occ, p, d)
    if g.nbr[d][front] < 0 and front != thief:
        return None  # Police or a white pearl would leave the board
    w, pb, tb = push.shift_layers(g, (whites, 1 << police, 1 << thief), row, d)
    w |= 1 << p
    if tb and _has_square(g, w | pb | tb):
        return None
    return w, pb.bit_length() - 1, tb.bit_length() - 1 if tb else -1, row


def _legal_dirs(g: Grid, whites: int, police: int, thief: int, turn: int, ban: int) -> list[int]:
    piece = police if turn == POLICE else thief
    return [d for d in DIRECTIONS  # ban ^ 2 is −b, the banned push-back (§7.3)
            if d != ban ^ 2 and try_push(g, whites, police, thief, piece, d) is not None]


def _adjacent(g: Grid, a: int, b: int) -> bool:
    return any(g.nbr[d][a] == b for d in DIRECTIONS)


@dataclass(frozen=True)
class YardState(PearlState):
    """White pearls (a bitboard), the two pieces' points (thief -1 once escaped), the seat to
    move and the push-back ban on it: the direction its piece was displaced last ply, or -1."""

    size: int
    whites: int
    police: int
    thief: int
    turn: int = POLICE
    ban: int = NO_BAN
    ply: int = 0
    outcome: Outcome | None = None
    last: str | None = field(default=None, compare=False)

    def _moves(self) -> list:
        dirs = _legal_dirs(self.grid, self.whites, self.police, self.thief, self.turn, self.ban)
        return [Go(d) for d in dirs] if dirs else [PASS]

    def _parse(self, text: str):
        t = text.strip()
        if is_pass(t):
            return PASS
        if len(t) != 1:
            raise InvalidMoveError(f"{text!r} is not a Yard move (N, E, S, W or pass)")
        return Go(direction_of(t))

    def apply(self, move) -> "YardState":
        g, turn = self.grid, self.turn
        if isinstance(move, Pass):
            return self._next(self.whites, self.police, self.thief, NO_BAN, str(move))
        piece = self.police if turn == POLICE else self.thief
        whites, police, thief, row = try_push(g, self.whites, self.police, self.thief, piece,
                                              move.d)
        other = self.thief if turn == POLICE else self.police
        ban = move.d if (row >> other) & 1 else NO_BAN  # §7.3 no push-back
        return self._next(whites, police, thief, ban, str(move))

    def _next(self, whites: int, police: int, thief: int, ban: int, text: str) -> "YardState":
        turn = 1 - self.turn
        outcome = _judge(self.grid, whites, police, thief, turn, ban)
        return YardState(self.size, whites, police, thief, turn, ban, self.ply + 1, outcome, text)

    # -- presentation ----------------------------------------------------------------------
    def _symbol(self, p: int) -> str:
        if p == self.police:
            return "P"
        if p == self.thief:
            return "T"
        return "o" if (self.whites >> p) & 1 else "."

    def _name(self, p: int) -> str | None:
        return self.grid.names[p] if p >= 0 else None

    def view(self, seat: int | None) -> dict:
        return {
            "size": self.size, "board": self._board_rows(),
            "police": self._name(self.police), "thief": self._name(self.thief),
            "whites": self.grid.point_list(self.whites), "to_move": self.current_player,
            "ply": self.ply, "last_move": self.last,
            "banned": DIR_LETTERS[opposite(self.ban)] if self.ban != NO_BAN else None,
            "outcome": self._outcome_dict(),
        }

    def to_dict(self) -> dict:
        return {
            "size": self.size, "whites": self.grid.point_list(self.whites),
            "police": self._name(self.police), "thief": self._name(self.thief),
            "turn": self.turn, "ban": DIR_LETTERS[self.ban] if self.ban != NO_BAN else None,
            "ply": self.ply, "last": self.last,
            "outcome": self._outcome_dict(),
        }

    def render_svg(self, seat: int | None = None) -> str:
        discs = {p: WHITE_DISC for p in bits(self.whites)}
        discs[self.police] = POLICE_DISC
        if self.thief >= 0:
            discs[self.thief] = THIEF_DISC
        return svg_diagram(self.grid, discs, f"Pearl Yard, ply {self.ply}")


def _judge(g: Grid, whites: int, police: int, thief: int, turn: int,
           ban: int) -> Outcome | None:
    """§7.4: escape, caught, then §2.6 mutual block: the side to move (under its ban) and the
    opponent (free of any ban, since a pass displaces nothing) both stuck."""
    if thief < 0:
        return Outcome.win(THIEF, 2, Termination.ESCAPE)
    if _adjacent(g, police, thief):
        return Outcome.win(POLICE, 2, Termination.CAUGHT)
    if not _legal_dirs(g, whites, police, thief, turn, ban) and \
            not _legal_dirs(g, whites, police, thief, 1 - turn, NO_BAN):
        return Outcome.draw(2, Termination.MUTUAL_BLOCK)
    return None


@register
class PearlYard(PearlGame):
    """docs/rules/pearl.md §7."""

    slug = "pearl-yard"
    title = "Pearl Yard"
    options = {
        "size": OptionSpec(9, "board N×N; the cross is centred", choices=(9, 11, 13)),
        # [R] first player: Police, the layout being checked for it (§1)
        "first": OptionSpec("police", "who plays ply 1", choices=("police", "thief")),
    }
    variants = {"standard": {}}
    summary = ("Glass Pearl Game for two: Police chases Thief. Each move pushes a white pearl in "
               "behind your own piece so that it steps one point, carrying the pearls ahead; no "
               "2×2 block of pearls may form. Police wins by touching the Thief, the Thief by "
               "being pushed off the edge of the board.")

    def _new_state(self, players: int, seed: int, options: dict) -> YardState:
        g = grid(options["size"])
        c = (g.n - 1) // 2
        at = lambda off: g.index(c + off[0], c + off[1])  # noqa: E731
        whites = 0
        for off in CROSS_WHITES:
            whites |= 1 << at(off)
        turn = POLICE if options["first"] == "police" else THIEF
        return YardState(g.n, whites, at(CROSS_POLICE), at(CROSS_THIEF), turn)

    def position(self, police: str, thief: str, whites: Iterable[str] = (), to_move: int = POLICE,
                 banned: str | None = None, options: Mapping | None = None) -> YardState:
        """A hand-set position (docs/rules/pearl.md §9): the pieces' and white pearls' points, the
        seat to move and, optionally, the direction letter it may not play (§7.3 push-back)."""
        g = grid(self.normalize_options(options)["size"])
        w = g.parse_mask(whites)
        ban = opposite(direction_of(banned)) if banned else NO_BAN
        p, t = g.parse(police), g.parse(thief)
        return YardState(g.n, w, p, t, to_move, ban, 0, _judge(g, w, p, t, to_move, ban))

    def _state_from_dict(self, d: Mapping) -> YardState:
        g = grid(int(d["size"]))
        thief = g.parse(d["thief"]) if d["thief"] else -1
        ban = direction_of(d["ban"]) if d["ban"] else NO_BAN
        return YardState(g.n, g.parse_mask(d["whites"]), g.parse(d["police"]), thief,
                         int(d["turn"]), ban, int(d["ply"]), Outcome.from_dict(d["outcome"]),
                         d.get("last"))
