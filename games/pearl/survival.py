"""Pearl Survival (`pearl-survival`): the maze as a game for 2–4 — docs/rules/pearl.md §6.

After a set-up phase in which each seat claims a perimeter point of a white square (§6.1), seats
take turns with one straight slide-push (§2.4) of their own pearl, always into an occupied point
(§6.3). A pearl pushed off the board is eliminated; a seat whose turn comes with no legal slide
dies and its pearl turns white (§6.4). The last live seat wins.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping

from games import svg
from games.core import OptionSpec, Outcome, Termination
from games.registry import register

from . import push
from .base import PearlGame, PearlState
from .board import DIRECTIONS, WHITE_DISC, Grid, bits, grid, opposite, svg_diagram
from .maze import check_square, square_origin, white_square
from .moves import Place, Slide, parse_place, parse_slide

LIVE = -1  # `out` entry of a seat still in the game
SEAT_COLOURS = ("#202020", "#b03a2a", "#2a4fb0", "#2a8a3a")


@lru_cache(maxsize=None)
def perimeter(g: Grid, n: int) -> int:
    """§6.1: the 4n − 4 points on the edge of the n×n square."""
    x0, y0 = square_origin(g.n, n)
    inner = g.mask_of((x, y) for x in range(x0 + 1, x0 + n - 1) for y in range(y0 + 1, y0 + n - 1))
    return white_square(g, n) & ~inner


@dataclass(frozen=True)
class SurvivalState(PearlState):
    """White pearls (dead ones included, §11), each seat's point (-1: none on the board), each
    seat's place once out (`LIVE` while in), each seat's push-back set B as a 4-bit mask of the
    directions it was displaced in (§6.3), the seat to act, and the repetition history: the keys
    of the positions since the last irreversible change (§6.4, §11)."""

    size: int
    n: int
    enter_white: bool
    max_plies: int
    whites: int
    pos: tuple[int, ...]
    out: tuple[int, ...]
    bans: tuple[int, ...]
    turn: int = 0
    ply: int = 0
    history: tuple[str, ...] = ()
    outcome: Outcome | None = None
    last: str | None = field(default=None, compare=False)
    dead: int = 0  # bit s: seat s died (§6.4) rather than being pushed off

    @property
    def players(self) -> int:
        return len(self.pos)

    @property
    def in_setup(self) -> bool:
        return self.ply < self.players

    # -- moves -----------------------------------------------------------------------------
    def _moves(self) -> list:
        g = self.grid
        if self.in_setup:
            free = perimeter(g, self.n) & self.whites
            return [Place(p % g.w, p // g.w) for p in bits(free)]
        q = self.pos[self.turn]
        return [Slide(q % g.w, q // g.w, d, k) for d, top in _slide_lengths(self, self.turn)
                for k in range(1, top + 1)]

    def _parse(self, text: str):
        if "-" in text:
            return parse_slide(text, self.size)
        return parse_place(text, self.size)

    def apply(self, move) -> "SurvivalState":
        if isinstance(move, Place):
            return self._place(move)
        return self._slide(move)

    def _place(self, move: Place) -> "SurvivalState":
        """§6.1: the seat's pearl replaces the white one on the chosen perimeter point."""
        p = self.grid.index(move.x, move.y)
        pos = self.pos[:self.turn] + (p,) + self.pos[self.turn + 1:]
        state = self._evolve(whites=self.whites & ~(1 << p), pos=pos, ply=self.ply + 1,
                             last=str(move))
        if state.in_setup:
            return state._evolve(turn=self.turn + 1)
        return _start_turn(state._evolve(turn=self.players - 1), fresh_history=True)

    def _slide(self, move: Slide) -> "SurvivalState":
        g, turn = self.grid, self.turn
        live = [s for s in range(self.players) if self.pos[s] >= 0]
        layers = (self.whites,) + tuple(1 << self.pos[s] for s in live)
        layers, moved = push.slide(g, layers, self.pos[turn], move.d, move.k)
        pos, out, bans = list(self.pos), list(self.out), list(self.bans)
        gone = sum(1 for o in out if o != LIVE)
        for seat, layer in zip(live, layers[1:]):
            if not layer:  # §6.3: pushed off the board → eliminated at once
                pos[seat], out[seat], bans[seat] = -1, gone, 0
            else:
                pos[seat] = layer.bit_length() - 1
                if seat != turn and (moved >> pos[seat]) & 1:
                    bans[seat] |= 1 << move.d
        bans[turn] = 0  # B empties after the seat's own turn
        # A pearl pushed off never comes back: older positions cannot recur.
        irreversible = layers[0].bit_count() != self.whites.bit_count() or out != list(self.out)
        state = self._evolve(whites=layers[0], pos=tuple(pos), out=tuple(out), bans=tuple(bans),
                             ply=self.ply + 1, last=str(move))
        return _start_turn(state, fresh_history=irreversible)

    # -- presentation ----------------------------------------------------------------------
    def _symbol(self, p: int) -> str:
        if p in self.pos:
            return str(self.pos.index(p))
        return "o" if (self.whites >> p) & 1 else "."

    def _seat_views(self) -> list[dict]:
        names = self.grid.names
        return [{"seat": s, "point": names[p] if p >= 0 else None,
                 "status": _status(o, self.dead >> s & 1),
                 "banned": [_DIR_NAMES[opposite(d)] for d in DIRECTIONS if b >> d & 1]}
                for s, (p, o, b) in enumerate(zip(self.pos, self.out, self.bans))]

    def view(self, seat: int | None) -> dict:
        return {
            "size": self.size, "board": self._board_rows(),
            "whites": self.grid.point_list(self.whites), "seats": self._seat_views(),
            "phase": "setup" if self.in_setup else "play", "to_move": self.current_player,
            "ply": self.ply, "last_move": self.last,
            "outcome": self._outcome_dict(),
        }

    def to_dict(self) -> dict:
        names = self.grid.names
        return {
            "size": self.size, "n": self.n, "enter": "white" if self.enter_white else "any",
            "max_plies": self.max_plies, "whites": self.grid.point_list(self.whites),
            "pos": [names[p] if p >= 0 else None for p in self.pos], "out": list(self.out),
            "bans": list(self.bans), "turn": self.turn, "ply": self.ply,
            "history": list(self.history), "dead": self.dead, "last": self.last,
            "outcome": self._outcome_dict(),
        }

    def render_svg(self, seat: int | None = None) -> str:
        discs = {p: WHITE_DISC for p in bits(self.whites)}
        for s, p in enumerate(self.pos):
            if p >= 0:
                discs[p] = svg.Disc(SEAT_COLOURS[s], label=str(s), label_fill="#fff")
        return svg_diagram(self.grid, discs, f"Pearl Survival, ply {self.ply}")


_DIR_NAMES = "NESW"


def _status(out: int, dead: int) -> str:
    if out == LIVE:
        return "live"
    return "dead" if dead else "eliminated"


def _slide_lengths(state: SurvivalState, seat: int) -> list[tuple[int, int]]:
    """(d, K) for every direction the seat's pearl can slide in (§6.2–6.3)."""
    g, q = state.grid, state.pos[seat]
    occ = state.whites
    for p in state.pos:
        if p >= 0:
            occ |= 1 << p
    enter = state.whites if state.enter_white else occ
    banned = state.bans[seat]
    out = []
    for d in DIRECTIONS:
        if banned >> opposite(d) & 1:
            continue  # §6.3 push-back ban: no slide in −b
        top = push.slide_length(g, occ, occ, q, d, enter=enter)
        if top:
            out.append((d, top))
    return out


def _start_turn(state: SurvivalState, fresh_history: bool) -> SurvivalState:
    """Pass the turn on (§6.4): the next live seat with no legal slide dies, its pearl white;
    then the last survivor wins, a third repetition or the ply cap cuts the game off (§11; the
    safeguards are [R], §1)."""
    pos, out, bans = list(state.pos), list(state.out), list(state.bans)
    whites, seat, dead = state.whites, state.turn, state.dead
    while True:
        live = [s for s in range(state.players) if out[s] == LIVE]
        if len(live) == 1:
            state = state._evolve(dead=dead)
            return _finish(state, whites, pos, out, bans, live[0], Termination.LAST_SURVIVOR)
        seat = (seat + 1) % state.players
        while out[seat] != LIVE:
            seat = (seat + 1) % state.players
        probe = state._evolve(whites=whites, pos=tuple(pos), bans=tuple(bans), turn=seat)
        if _slide_lengths(probe, seat):
            break
        whites |= 1 << pos[seat]  # §6.4: it dies; its pearl stays, white from then on
        out[seat], pos[seat], bans[seat] = sum(1 for o in out if o != LIVE), -1, 0
        dead |= 1 << seat
        fresh_history = True
    key = _key(whites, pos, seat, bans)
    history = ((key,) if fresh_history else state.history + (key,))
    nxt = state._evolve(whites=whites, pos=tuple(pos), out=tuple(out), bans=tuple(bans),
                        turn=seat, history=history, dead=dead)
    if history.count(key) >= 3:
        return _finish(nxt, whites, pos, out, bans, None, Termination.REPETITION)
    if nxt.ply >= nxt.max_plies:
        return _finish(nxt, whites, pos, out, bans, None, Termination.MAX_PLIES)
    return nxt


def _key(whites: int, pos: list[int], seat: int, bans: list[int]) -> str:
    """§11: occupied points with colours (dead = white), the seat to act, live seats' B."""
    return f"{whites:x}/{','.join(map(str, pos))}/{seat}/{','.join(map(str, bans))}"


def _finish(state, whites, pos, out, bans, winner, termination) -> SurvivalState:
    """§6.4, §11 scores: out seats keep their place; survivors share the best remaining one."""
    gone = sum(1 for o in out if o != LIVE)
    scores = tuple(float(o if o != LIVE else (state.players - 1 if winner is not None else gone))
                   for o in out)
    outcome = Outcome((winner,) if winner is not None else (), scores, termination)
    return state._evolve(whites=whites, pos=tuple(pos), out=tuple(out), bans=tuple(bans),
                         outcome=outcome)


@register
class PearlSurvival(PearlGame):
    """docs/rules/pearl.md §6."""

    slug = "pearl-survival"
    title = "Pearl Survival"
    min_players = 2
    max_players = 4
    options = {
        "size": OptionSpec(19, "board N×N (n+2 ≤ N)", min=9, max=19),
        # [R] survival square 6×6: its 20 perimeter points seat 2–4 pearls (§1)
        "n": OptionSpec(6, "side of the white square", min=4, max=8),
        "enter": OptionSpec("any", "what the point a pearl steps into may hold",
                            choices=("any", "white")),
        "max_plies": OptionSpec(300, "cut-off", min=100, max=2000),
    }
    variants = {"standard": {}}
    summary = ("Glass Pearl Game for 2–4: each player claims a pearl on the edge of a square of "
               "white pearls, then slides it straight through the square, pushing the pearls "
               "ahead while the moving row stays in touch with its neighbours. Pushed off the "
               "board, you are out; unable to move on your turn, you die. The last pearl able "
               "to move wins.")

    def _config(self, options: dict) -> tuple:
        check_square(options["size"], options["n"])
        return options["size"], options["n"], options["enter"] == "white", options["max_plies"]

    def _new_state(self, players: int, seed: int, options: dict) -> SurvivalState:
        size, n, enter_white, cap = self._config(options)
        return SurvivalState(size, n, enter_white, cap, white_square(grid(size), n),
                             (-1,) * players, (LIVE,) * players, (0,) * players)

    def position(self, seats: Iterable[str], whites: Iterable[str] | None = None,
                 to_move: int = 0, options: Mapping | None = None) -> SurvivalState:
        """A hand-set position after the set-up (docs/rules/pearl.md §9): each seat's point, the
        white pearls (default: the square without the seats' points), the seat to act; the
        position counts as the first occurrence for repetition."""
        size, n, enter_white, cap = self._config(self.normalize_options(options))
        g = grid(size)
        pos = tuple(g.parse(p) for p in seats)
        w = white_square(g, n) if whites is None else g.parse_mask(whites)
        for p in pos:
            w &= ~(1 << p)
        state = SurvivalState(size, n, enter_white, cap, w, pos, (LIVE,) * len(pos),
                              (0,) * len(pos), (to_move - 1) % len(pos), len(pos))
        return _start_turn(state, fresh_history=True)

    def _state_from_dict(self, d: Mapping) -> SurvivalState:
        g = grid(int(d["size"]))
        return SurvivalState(
            g.n, int(d["n"]), d["enter"] == "white", int(d["max_plies"]),
            g.parse_mask(d["whites"]), tuple(g.parse(p) if p else -1 for p in d["pos"]),
            tuple(map(int, d["out"])), tuple(map(int, d["bans"])), int(d["turn"]),
            int(d["ply"]), tuple(map(str, d["history"])), Outcome.from_dict(d["outcome"]),
            d.get("last"), int(d["dead"]))
