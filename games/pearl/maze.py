"""Pearl Maze (`pearl-maze`): a one-person puzzle — docs/rules/pearl.md §5.

The black pearl pushes its way through a square of white pearls, one unit step of a slide-push
(§2.4) per ply, always into an occupied point, contact counting every colour. The score is the
number of steps; in goal mode the puzzle is solved when black reaches the goal point.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping

from games.core import InvalidMoveError, InvalidOptionsError, OptionSpec, Outcome, Termination
from games.registry import register

from . import push
from .base import PearlGame, PearlState
from .board import BLACK_DISC, DIRECTIONS, WHITE_DISC, Grid, E, N, S, W, bits, grid, svg_diagram

MAX_STEPS = 5000  # §5.4 safeguard
STEP_LETTERS = {N: "U", E: "R", S: "D", W: "L"}
_LETTER_STEP = {"U": N, "R": E, "D": S, "L": W, "N": N, "E": E, "S": S, "W": W}
_POINT_RE = re.compile(r"[a-z][1-9][0-9]?")


@dataclass(frozen=True)
class Step:
    """One unit step of the black pearl, written `R L U D` (= E W N S, §8)."""

    d: int

    def __str__(self) -> str:
        return STEP_LETTERS[self.d]


def record_steps(record: str) -> list[str]:
    """A record written as one word (`RDLD…`, §8) → its single-step notations."""
    return [c for c in record.strip() if not c.isspace()]


def square_origin(size: int, n: int) -> tuple[int, int]:
    """§5.1 [R]: lower-left corner (⌊(N−n)/2⌋, ⌈(N−n)/2⌉) of the n×n square."""
    return (size - n) // 2, (size - n + 1) // 2


def check_square(size: int, n: int) -> None:
    """The n×n square needs a free ring around it on the board: n + 2 ≤ N (§5.1, §6.1)."""
    if n + 2 > size:
        raise InvalidOptionsError(f"n={n} needs a board of at least {n + 2}x{n + 2}")


@lru_cache(maxsize=None)
def white_square(g: Grid, n: int) -> int:
    x0, y0 = square_origin(g.n, n)
    return g.mask_of((x, y) for x in range(x0, x0 + n) for y in range(y0, y0 + n))


def _parse_goal(value) -> str:
    if not isinstance(value, str):
        raise ValueError("the goal is `none` or a point name such as j12")
    text = value.strip().lower()
    if text != "none" and not _POINT_RE.fullmatch(text):
        raise ValueError("the goal is `none` or a point name such as j12")
    return text


@dataclass(frozen=True)
class MazeState(PearlState):
    """White pearls (bitboard), the black pearl's point, steps taken (= ply), goal (-1: none)."""

    size: int
    push_off: bool
    goal: int
    whites: int
    black: int
    ply: int = 0
    outcome: Outcome | None = None
    last: str | None = field(default=None, compare=False)

    players = 1

    @property
    def current_player(self) -> int | None:
        return None if self.outcome is not None else 0

    def _can_step(self, d: int) -> bool:
        """§5.3: k = 1, ok = every pearl, the point ahead occupied, push-off per option."""
        occ = self.whites | (1 << self.black)
        return push.slide_length(self.grid, occ, occ, self.black, d, enter=occ, max_k=1,
                                 push_off=self.push_off) == 1

    def _moves(self) -> list:
        return [Step(d) for d in DIRECTIONS if self._can_step(d)]

    def _parse(self, text: str):
        t = text.strip().upper()
        if len(t) != 1 or t not in _LETTER_STEP:
            raise InvalidMoveError(f"{text!r} is not a maze step (R, L, U or D)")
        return Step(_LETTER_STEP[t])

    def apply(self, move) -> "MazeState":
        g = self.grid
        (whites, black), _moved = push.slide(g, (self.whites, 1 << self.black), self.black,
                                              move.d, 1)
        return MazeState(self.size, self.push_off, self.goal, whites, black.bit_length() - 1,
                         self.ply + 1, None, str(move))._judged()

    def _judge(self) -> Outcome | None:
        """§5.4 (order §11: the goal first): goal, no legal step, the step safeguard."""
        scores = (float(self.ply),)
        if self.goal >= 0:
            if self.black == self.goal:
                return Outcome((0,), scores, Termination.GOAL)
            winners: tuple[int, ...] = ()
        else:
            winners = (0,)
        if not any(self._can_step(d) for d in DIRECTIONS):
            return Outcome(winners, scores, Termination.NO_MOVES)
        if self.ply >= MAX_STEPS:
            return Outcome(winners, scores, Termination.MAX_STEPS)
        return None

    # -- presentation ----------------------------------------------------------------------
    def _symbol(self, p: int) -> str:
        if p == self.black:
            return "B"
        return "o" if (self.whites >> p) & 1 else "."

    def view(self, seat: int | None) -> dict:
        g = self.grid
        return {
            "size": self.size, "board": self._board_rows(),
            "black": g.names[self.black], "whites": g.point_list(self.whites),
            "goal": g.names[self.goal] if self.goal >= 0 else None, "steps": self.ply,
            "to_move": self.current_player, "ply": self.ply, "last_move": self.last,
            "outcome": self._outcome_dict(),
        }

    def to_dict(self) -> dict:
        g = self.grid
        return {
            "size": self.size, "push_off": "yes" if self.push_off else "no",
            "goal": g.names[self.goal] if self.goal >= 0 else None,
            "whites": g.point_list(self.whites), "black": g.names[self.black],
            "ply": self.ply, "last": self.last,
            "outcome": self._outcome_dict(),
        }

    def render_svg(self, seat: int | None = None) -> str:
        discs = {p: WHITE_DISC for p in bits(self.whites)}
        discs[self.black] = BLACK_DISC
        return svg_diagram(self.grid, discs, f"Pearl Maze, {self.ply} steps")


@register
class PearlMaze(PearlGame):
    """docs/rules/pearl.md §5."""

    slug = "pearl-maze"
    title = "Pearl Maze"
    min_players = 1
    max_players = 1
    options = {
        "size": OptionSpec(19, "board N×N (n+2 ≤ N)", min=9, max=19),
        # [R] maze square 4×4, black replacing a corner: the smallest fitting the text's 47 (§1)
        "n": OptionSpec(4, "side of the white square", min=3, max=8),
        "black": OptionSpec("corner", "black replaces the top-left corner, or stands left of it",
                            choices=("corner", "outside")),
        "goal": OptionSpec("none", "maximum-steps mode, or reach-the-goal mode: a point name "
                           "(not black's start)", parse=_parse_goal,
                           schema={"type": "string", "pattern": "^\\s*([Nn][Oo][Nn][Ee]|[A-Za-z][1-9][0-9]?)\\s*$"}),
        "push_off": OptionSpec("no", "may a step push a pearl off the board",
                               choices=("no", "yes")),
    }
    variants = {"standard": {}, "outside": {"black": "outside"}}
    summary = ("Glass Pearl Game puzzle for one: a black pearl pushes its way through a square "
               "of white pearls, one step at a time, always into another pearl and always "
               "keeping the moving row in touch with a pearl beside it. Take as many steps as "
               "you can before black is stuck, or reach a chosen goal point.")

    def _new_state(self, players: int, seed: int, options: dict) -> MazeState:
        size, n = options["size"], options["n"]
        check_square(size, n)
        g = grid(size)
        x0, y0 = square_origin(size, n)
        whites = white_square(g, n)
        black = g.index(x0, y0 + n - 1)           # §5.1 black=corner: the top-left corner
        if options["black"] == "outside":
            black = g.index(x0 - 1, y0 + n - 1)   # …or a black pearl left of it
        else:
            whites &= ~(1 << black)
        goal = -1
        if options["goal"] != "none":
            try:
                goal = g.parse(options["goal"])
            except InvalidMoveError as exc:
                raise InvalidOptionsError(f"option goal: {exc}") from exc
            if goal == black:
                raise InvalidOptionsError(f"option goal={options['goal']} is black's start")
        return MazeState(size, options["push_off"] == "yes", goal, whites, black)

    def position(self, black: str, whites: Iterable[str], goal: str | None = None,
                 options: Mapping | None = None) -> MazeState:
        """A hand-set puzzle (docs/rules/pearl.md §9): the black pearl's and the white pearls' points."""
        opts = self.normalize_options(options)
        g = grid(opts["size"])
        w = g.parse_mask(whites)
        return MazeState(g.n, opts["push_off"] == "yes", g.parse(goal) if goal else -1, w,
                         g.parse(black))._judged()

    def _state_from_dict(self, d: Mapping) -> MazeState:
        g = grid(int(d["size"]))
        return MazeState(g.n, d["push_off"] == "yes", g.parse(d["goal"]) if d["goal"] else -1,
                         g.parse_mask(d["whites"]), g.parse(d["black"]), int(d["ply"]),
                         Outcome.from_dict(d["outcome"]), d.get("last"))

