"""Ring Rugby (untitled original): two sides fight over two rings and race a carrier into the goal.

Rules: docs/rules/ring-rugby.md. Section marks in comments ("§3.4") refer to that page; "[R]" marks a
detail the original leaves open and Pearlsite settles (listed in §1 there; the options offer the
alternatives).

Geometry (§8): the field is padded with the off-board ring, a (W+2) x (2H+2) index space where
index = row * (W+2) + col; col 0 is the `L` column, col W+1 the `R` column, rows 0 and 2H+1 the
ranks beyond the end lines (goal cells included). The four corners are never used. Occupancy is
kept in int bitboards over that space: `black`, `white` (on-board and off-board pieces) and
`rings` (carriers, always on-board).

Hand-set positions for tests and problems: `position({...}, off=..., to_move=..., ...)`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any, Iterable, Mapping

from . import svg
from .core import (
    Game, InvalidMoveError, InvalidOptionsError, InvalidStateError, OptionSpec,
    Outcome, State, Termination, TwoSeatTurns,
)
from .registry import register

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("black", "white")
FILE_LETTERS = "abcdefghij"

# Move kinds and the separators of their notation (§6).
RING, STEP, ATTACK, PASS, BIG, GOAL = range(6)
_SEPARATOR = {STEP: "-", ATTACK: "x", PASS: ">", BIG: "="}

# Ply regions for the one-board repetition rule (§4.4): the boards a ply touches.
BLACK_BOARD, WHITE_BOARD, MIXED = "1", "2", "3"
_REGION_CHAR = ("", BLACK_BOARD, WHITE_BOARD, MIXED)       # indexed by region bits (1 | 2)

KNIGHT_BLOCK_MODES = ("either", "orth_leg", "both")
CLOSURE_WINNERS = ("attacker", "closer")


# ---------------------------------------------------------------------------------------------
# Rules (the options) and the precomputed geometry
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """The validated options of §5, as a hashable value."""

    width: int = 6
    half_depth: int = 6
    start_rank: int = 2
    advanced: bool = True
    knight_block: str = "either"
    pass_forward: bool = False
    pass_range: int = 2
    big_move_carriers: bool = True
    forbid_two_ring_fortress: bool = True
    goal_closure_winner: str = "attacker"
    repetition_count: int = 4
    max_plies: int = 400

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True, eq=True)
class Move:
    """One action; `str()` is the §6 notation. Cells are indices of the padded field."""

    kind: int
    frm: int
    to: int
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


_TEXT = attrgetter("text")


class Geometry:
    """Everything about the field that depends only on the rules, computed once per rule set
    (§8 engine notes)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        w, h = rules.width, rules.half_depth
        self.w, self.h, self.depth = w, h, 2 * h
        self.stride = s = w + 2
        self.size = s * (2 * h + 2)
        self.names: list[str] = [""] * self.size
        self.index: dict[str, int] = {}
        self.on_mask = self.ring_mask = 0
        for row in range(2 * h + 2):
            for col in range(w + 2):
                name = self._cell_name(col, row)
                if not name:
                    continue
                i = row * s + col
                self.names[i] = name
                self.index[name] = i
                if self._on(col, row):
                    self.on_mask |= 1 << i
                else:
                    self.ring_mask |= 1 << i
        self.on_cells = [i for i in range(self.size) if self.on_mask >> i & 1]
        # render_text's empty field: "." for cells, "" for the unused corners; goals added below.
        self.empty_symbols = ["." if name else "" for name in self.names]
        self.ring_cells = [i for i in range(self.size) if self.ring_mask >> i & 1]
        # Ply regions (§4.4): the black board is ranks 1..H.
        self.region = [0] * self.size
        for i in self.on_cells:
            self.region[i] = 1 if i // s <= h else 2
        self.moves: dict[tuple[int, int, int], Move] = {}
        self._goals_and_entries()
        self._step_tables()
        self._pass_tables()
        self._attack_and_file_tables()
        self._revival_tables()
        self._immunity_tables()

    # -- coordinates ---------------------------------------------------------------------------
    def _on(self, col: int, row: int) -> bool:
        return 1 <= col <= self.w and 1 <= row <= self.depth

    def _cell_name(self, col: int, row: int) -> str:
        # §2 [R: size, off-board ring]: files a.., ranks 1..2H; ranks 0 and 2H+1 on files a..,
        # L1.. and R1.. beside the field.
        w, depth = self.w, self.depth
        if 1 <= col <= w and 0 <= row <= depth + 1:
            return f"{FILE_LETTERS[col - 1]}{row}"
        if col in (0, w + 1) and 1 <= row <= depth:
            return f"{'L' if col == 0 else 'R'}{row}"
        return ""     # a corner of the padded space: not a cell (§2 "no corner cells")

    def idx(self, col: int, row: int) -> int:
        return row * self.stride + col

    def col_row(self, i: int) -> tuple[int, int]:
        return i % self.stride, i // self.stride

    def is_on(self, i: int) -> bool:
        return bool(self.on_mask >> i & 1)

    def move(self, kind: int, frm: int, to: int) -> Move:
        key = (kind, frm, to)
        mv = self.moves.get(key)
        if mv is None:
            if kind == RING:
                text = f"ring {self.names[frm]}"
            elif kind == GOAL:
                text = f"{self.names[frm]}-G"
            else:
                text = f"{self.names[frm]}{_SEPARATOR[kind]}{self.names[to]}"
            mv = self.moves[key] = Move(kind, frm, to, text)
        return mv

    # -- tables --------------------------------------------------------------------------------
    def _goals_and_entries(self) -> None:
        # §2 [R]: goals on files W/2 and W/2+1 beyond each end line; entry files W/2-1 .. W/2+2.
        w, depth = self.w, self.depth
        goal_files = (w // 2, w // 2 + 1)
        entry_files = range(max(1, w // 2 - 1), min(w, w // 2 + 2) + 1)
        self.goal_cells = (frozenset(self.idx(c, 0) for c in goal_files),          # black goal
                           frozenset(self.idx(c, depth + 1) for c in goal_files))  # white goal
        # entry[S]: the cells from which side S scores (Black into the white goal).
        self.entry = (tuple(self.idx(c, depth) for c in entry_files),
                      tuple(self.idx(c, 1) for c in entry_files))
        self.entry_mask = tuple(sum(1 << i for i in cells) for cells in self.entry)
        self.goal_move = {i: self.move(GOAL, i, i) for cells in self.entry for i in cells}
        for i in self.goal_cells[0] | self.goal_cells[1]:
            self.empty_symbols[i] = "[G]"

    def _step_tables(self) -> None:
        """§3.1: per cell, the king-step mask (carriers), the 24-cell square (non-carriers), the
        cells each occupied neighbour shadows, and (knight_block=both) the two-leg knight masks."""
        mode = self.rules.knight_block
        self.king_mask = [0] * self.size
        self.square_mask = [0] * self.size
        self.shadow: list[dict[int, int]] = [{} for _ in range(self.size)]
        self.two_legs: list[list[tuple[int, int]]] = [[] for _ in range(self.size)]
        self.step_move: list[dict[int, Move]] = [{} for _ in range(self.size)]
        for i in self.on_cells:
            x, y = self.col_row(i)
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    if (dx, dy) == (0, 0) or not self._on(x + dx, y + dy):
                        continue
                    t = self.idx(x + dx, y + dy)
                    self.step_move[i][t] = self.move(STEP, i, t)
                    self.square_mask[i] |= 1 << t
                    if max(abs(dx), abs(dy)) == 1:
                        self.king_mask[i] |= 1 << t
                        continue
                    mask, need_all = self._blockers(x, y, dx, dy, mode)
                    if need_all:
                        self.two_legs[i].append((mask, 1 << t))
                        continue
                    for n in _bits(mask):
                        self.shadow[i][n] = self.shadow[i].get(n, 0) | 1 << t

    def _blockers(self, x: int, y: int, dx: int, dy: int, mode: str) -> tuple[int, bool]:
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if abs(dx) != 1 and abs(dy) != 1:          # straight or diagonal 2-step: the middle cell
            return 1 << self.idx(x + sx, y + sy), False
        # Knight cells [R: Fig. 4]: an orthogonal leg along the long axis and a diagonal leg.
        orth = self.idx(x, y + sy) if abs(dy) == 2 else self.idx(x + sx, y)
        diag = self.idx(x + sx, y + sy)
        if mode == "orth_leg":
            return 1 << orth, False
        return (1 << orth) | (1 << diag), mode == "both"

    def _pass_tables(self) -> None:
        """§3.3 [R: Fig. 5]: left, right, back, back-left, back-right (+3 forward rays)."""
        self.passes: tuple[dict[int, list[tuple[int, Move]]], ...] = ({}, {})
        for colour, forward in ((BLACK, 1), (WHITE, -1)):
            rays = [(-1, 0), (1, 0), (0, -forward), (-1, -forward), (1, -forward)]
            if self.rules.pass_forward:
                rays += [(0, forward), (-1, forward), (1, forward)]
            for i in self.on_cells:
                x, y = self.col_row(i)
                out = []
                for dx, dy in rays:
                    for k in range(1, self.rules.pass_range + 1):
                        if self._on(x + k * dx, y + k * dy):
                            t = self.idx(x + k * dx, y + k * dy)
                            out.append((1 << t, self.move(PASS, i, t)))
                self.passes[colour][i] = out

    def _attack_and_file_tables(self) -> None:
        """§3.4 attack lanes (A+d, A+2d) and §3.5 file rays for big moves."""
        s = self.stride
        self.attacks: dict[int, list[tuple]] = {}
        self.file_rays: dict[int, list[list[int]]] = {}
        for i in self.on_cells:
            x, y = self.col_row(i)
            lanes = []
            for d, (dx, dy) in ((1, (1, 0)), (-1, (-1, 0)), (s, (0, 1)), (-s, (0, -1))):
                if not self._on(x + dx, y + dy):
                    continue
                near = i + d
                far = i + 2 * d if self._on(x + 2 * dx, y + 2 * dy) else -1
                lanes.append((d, near, 1 << near, self.move(ATTACK, i, near),
                              far, (1 << far) if far >= 0 else 0,
                              self.move(ATTACK, i, far) if far >= 0 else None))
            self.attacks[i] = lanes
            up = [self.idx(x, r) for r in range(y + 1, self.depth + 1)]
            down = [self.idx(x, r) for r in range(y - 1, 0, -1)]
            self.file_rays[i] = [up, down]

    def _revival_tables(self) -> None:
        """§3.7 [R: Figs. 14-16]: re-entry cell x and the yellow cells of each off-board cell."""
        self.reentry: dict[int, int] = {}
        self.yellow: dict[int, int] = {}
        for o in self.ring_cells:
            x, y = self.col_row(o)
            ex, ey = min(max(x, 1), self.w), min(max(y, 1), self.depth)
            self.reentry[o] = self.idx(ex, ey)
            mask = 0
            for k in range(-2, 3):
                for cx, cy in ((ex + k, ey), (ex, ey + k)):
                    if self._on(cx, cy):
                        mask |= 1 << self.idx(cx, cy)
            self.yellow[o] = mask
        for o, x in self.reentry.items():
            self.region[o] = self.region[x]

    def _immunity_tables(self) -> None:
        """§4.3 [R]: per cell and attack direction d, the bits of c-d (0 if off the field)
        and of c+d."""
        s = self.stride
        self.immunity: dict[int, tuple[tuple[int, int], ...]] = {}
        for i in self.on_cells:
            pairs = []
            for d in (1, -1, s, -s):
                behind = (1 << (i - d)) if self.is_on(i - d) else 0
                pairs.append((behind, 1 << (i + d)))
            self.immunity[i] = tuple(pairs)


@lru_cache(maxsize=64)
def geometry(rules: Rules) -> Geometry:
    return Geometry(rules)


def _bits(bb: int) -> Iterable[int]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------
_MOVE_RE = re.compile(r"ring ([a-j])([1-9][0-9]?)"
                      r"|([a-j])([1-9][0-9]?)(?:([-x>=])([a-j])([1-9][0-9]?)|(-G))")


@dataclass(frozen=True)
class RingRugbyState(TwoSeatTurns, State):
    """A position: bitboards over the padded field, off-board pieces oldest knock-out first,
    the retaliation pair (§3.4.3), and the repetition history (§4.4) as position keys plus the
    board region of every ply since the history began."""

    rules: Rules
    black: int
    white: int
    rings: int
    off: tuple[int, ...]
    to_move: int
    retal: tuple[int, ...]
    ply: int
    history: tuple = field(hash=False)
    regions: str = field(hash=False)
    last_move: str = field(default="", hash=False)
    result: Outcome | None = None
    geo: Geometry = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.geo is None:
            object.__setattr__(self, "geo", geometry(self.rules))

    game = None  # set at registration

    # -- protocol properties -------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        if self.result is not None:
            return self.result
        if not self._legal():
            # §4.5 [R]: a side to move with no legal move loses.
            return Outcome.win(1 - self.to_move, 2, Termination.NO_MOVES)
        return None

    def key(self) -> tuple:
        """The §4.4 position key (off-board order is the order of `off`)."""
        return (self.black, self.white, self.rings, self.off, self.to_move, self.retal)

    def legal_moves(self) -> list:
        if self.result is not None:
            return []
        return list(self._legal())

    def is_legal(self, move) -> bool:
        return self.result is None and move in self._legal_set()

    # -- move generation (§3, §8) ---------------------------------------------------------------
    def _legal(self) -> list[Move]:
        cached = self.__dict__.get("_legal_cache")
        if cached is None:
            cached = self._generate() if self.result is None else []
            object.__setattr__(self, "_legal_cache", cached)
        return cached

    def _legal_set(self) -> frozenset:
        cached = self.__dict__.get("_legal_set_cache")
        if cached is None:
            cached = frozenset(self._legal())
            object.__setattr__(self, "_legal_set_cache", cached)
        return cached

    def _generate(self) -> list[Move]:
        pseudo = self._pseudo_legal()
        check_all = bool(self._danger()) or (
            self.rules.forbid_two_ring_fortress and self.rings & self.black in (0, self.rings))
        if check_all or self.rules.forbid_two_ring_fortress:
            pseudo = [m for m in pseudo
                      if not self._needs_check(m, check_all) or self._verdict(m) != "illegal"]
        pseudo.sort(key=_TEXT)
        return pseudo

    def _pseudo_legal(self) -> list[Move]:
        g = self.geo
        me = self.black if self.to_move == BLACK else self.white
        mine = me & g.on_mask
        if bin(self.rings).count("1") < 2:
            # §3.6: plies 1 and 2 put a ring on one of the mover's pieces.
            return [g.move(RING, i, i) for i in _bits(mine)]
        occ = self.black | self.white
        out: list[Move] = []
        for p in _bits(mine):
            if self.rings >> p & 1:
                self._carrier_moves(p, mine, occ, out)
            else:
                self._piece_moves(p, mine, occ, out)
        return out

    def _carrier_moves(self, p: int, mine: int, occ: int, out: list) -> None:
        g, rules = self.geo, self.rules
        step_move = g.step_move[p]
        out.extend(step_move[t] for t in _bits(g.king_mask[p] & ~occ))     # §3.1 king step
        if g.entry_mask[self.to_move] >> p & 1:                             # §3.2 goal-in
            out.append(g.goal_move[p])
        receivers = mine & ~self.rings        # a piece holds at most one ring [R]
        out.extend(mv for tb, mv in g.passes[self.to_move][p] if receivers & tb)   # §3.3
        if rules.advanced and rules.big_move_carriers:                    # §3.5 [R]
            self._big_moves(p, mine, occ, 2, out)

    def _piece_moves(self, p: int, mine: int, occ: int, out: list) -> None:
        g = self.geo
        blocked = occ                                                      # §3.1, never jumping
        shadow = g.shadow[p]
        for n in _bits(occ & g.king_mask[p]):
            blocked |= shadow.get(n, 0)
        for legs, tb in g.two_legs[p]:
            if occ & legs == legs:
                blocked |= tb
        step_move = g.step_move[p]
        out.extend(step_move[t] for t in _bits(g.square_mask[p] & ~blocked))
        self._attacks(p, occ, out)
        if self.rules.advanced:
            self._big_moves(p, mine, occ, 3, out)

    def _attacks(self, p: int, occ: int, out: list) -> None:
        """§3.4 conditions 1-3 (range, line block, no immediate retaliation)."""
        enemy = (self.white if self.to_move == BLACK else self.black) & self.geo.on_mask
        retal = self.retal
        for d, near, nb, mv1, far, fb, mv2 in self.geo.attacks[p]:
            if enemy & nb:
                target, mv = near, mv1
            elif occ & nb or not fb or not enemy & fb or self.rings & fb:
                continue                       # range 2 needs A+d empty and T not a carrier
            else:
                target, mv = far, mv2
            if occ >> (target + d) & 1:
                continue                       # line block (on- or off-board piece behind T)
            if retal and retal[1] == p and retal[0] == target:
                continue                       # ⑥5: no hitting back at once
            out.append(mv)

    def _big_moves(self, p: int, mine: int, occ: int, min_len: int, out: list) -> None:
        """§3.5: along the file up to the cell next to a friendly piece, never a step [R]."""
        g = self.geo
        for ray in g.file_rays[p]:
            last, n = -1, 0
            for c in ray:
                if occ >> c & 1:
                    if mine >> c & 1 and n >= min_len:
                        out.append(g.move(BIG, p, last))
                    break
                last, n = c, n + 1

    # -- resolution (§3, §3.8) ------------------------------------------------------------------
    def _resolve(self, move: Move) -> tuple[int, int, int, tuple, tuple, str]:
        """(black, white, rings, off, retal, region) after `move` and re-entry (§3.8.1); the
        region is BLACK_BOARD or WHITE_BOARD when every cell the ply touched is on that board
        (§4.4, an off-board cell counting as its re-entry cell), else MIXED."""
        g = self.geo
        black, white, rings, off = self.black, self.white, self.rings, self.off
        me, opp = (black, white) if self.to_move == BLACK else (white, black)
        frm, to, kind = move.frm, move.to, move.kind
        retal: tuple = ()
        region = g.region
        touched = region[frm] | region[to]
        if kind == RING:
            rings |= 1 << frm
        elif kind == PASS:
            rings ^= (1 << frm) | (1 << to)
        elif kind == ATTACK:
            opp, off, landing = self._knock_back(frm, to, opp, me | opp, off)
            me ^= (1 << frm) | (1 << to)      # A takes T's cell and with it any ring there
            retal = (to, landing)
            touched |= region[landing]
        else:                                 # STEP or BIG
            me ^= (1 << frm) | (1 << to)
            if rings >> frm & 1:
                rings ^= (1 << frm) | (1 << to)
        black, white = (me, opp) if self.to_move == BLACK else (opp, me)
        if off:
            black, white, off, entered = self._reenter(black, white, off)
            touched |= entered
        return black, white, rings, off, retal, _REGION_CHAR[touched]

    def _knock_back(self, a: int, t: int, opp: int, occ: int, off: tuple) -> tuple[int, tuple, int]:
        """§3.4 resolution steps 1-2: where the target lands, and the updated enemy/off-board.
        Knock-back runs along d, away from the attacker [R: "backward"]."""
        g, advanced = self.geo, self.rules.advanced
        diff = t - a
        d = diff if diff in (1, -1, g.stride, -g.stride) else diff // 2
        beyond = t + d
        if not g.on_mask >> beyond & 1:
            landing = beyond                                      # (a)
        elif g.on_mask >> (beyond + d) & 1:
            landing = beyond + d if not occ >> (beyond + d) & 1 else beyond   # (b) ⑥7
        elif advanced and occ >> (beyond + d) & 1:
            landing = beyond                                      # (c) shortened by an off piece
        else:
            landing = beyond + d
        opp ^= 1 << t
        if g.on_mask >> landing & 1:
            opp |= 1 << landing
        elif advanced:
            opp |= 1 << landing                                   # §3.7 revival: waits off-board
            off = off + (landing,)
        return opp, off, landing

    def _reenter(self, black: int, white: int, off: tuple) -> tuple[int, int, tuple, int]:
        """§3.8.1 / §3.7 [R]: oldest first, onto x when x is empty and no enemy is on a yellow cell.
        Also returns the region bits of the re-entry cells used."""
        g = self.geo
        on = g.on_mask
        still = []
        touched = 0
        for o in off:
            x = g.reentry[o]
            is_black = black >> o & 1
            enemy = white if is_black else black
            if (black | white) >> x & 1 or enemy & on & g.yellow[o]:
                still.append(o)
                continue
            if is_black:
                black ^= (1 << o) | (1 << x)
            else:
                white ^= (1 << o) | (1 << x)
            touched |= g.region[x]
        return black, white, tuple(still), touched

    def _immune(self, c: int, mine: int, off_pieces: int) -> bool:
        """§4.3 [R]: no attack direction lets an enemy reach c and knock it back."""
        wall = mine | off_pieces
        for behind, beyond in self.geo.immunity[c]:
            if behind and not mine & behind and not wall & beyond:
                return False
        return True

    def _fortress(self, black: int, white: int, rings: int) -> bool:
        """§4.3 fortress ban: one side holds both rings on two immune carriers."""
        if bin(rings).count("1") != 2:
            return False
        for mine in (black, white):
            if rings & mine == rings:
                off_pieces = (black | white) & self.geo.ring_mask
                return all(self._immune(c, mine, off_pieces) for c in _bits(rings))
        return False

    def _goal_closed(self, black: int, white: int, owner: int) -> bool:
        """§4.2 [R: Figs. 13, 19]: the owner's pieces fill all 4 entry cells, all immune."""
        g = self.geo
        mine = black if owner == BLACK else white
        cells = g.entry[1 - owner]            # the black goal is entered from White's entry cells
        if g.entry_mask[1 - owner] & ~mine:
            return False
        off_pieces = (black | white) & g.ring_mask
        return all(self._immune(c, mine, off_pieces) for c in cells)

    def _verdict(self, move: Move, resolved: tuple | None = None) -> str | None:
        """§3.8.2 legality: 'illegal' (fortress ban, one-board repetition), 'draw' (§4.4)
        or None."""
        black, white, rings, off, retal, region = resolved or self._resolve(move)
        if self.rules.forbid_two_ring_fortress and self._fortress(black, white, rings):
            return "illegal"
        key = (black, white, rings, off, 1 - self.to_move, retal)
        if key not in self._danger():
            return None                       # this ply cannot reach repetition_count
        first = self.history.index(key)
        span = set(self.regions[first:]) | {region}
        if span == {WHITE_BOARD}:             # white-board cycle: Black must vary
            return "illegal" if self.to_move == BLACK else None
        if span == {BLACK_BOARD}:             # black-board cycle: White must vary
            return "illegal" if self.to_move == WHITE else None
        return "draw"

    def _danger(self) -> frozenset:
        """Position keys already seen repetition_count-1 times: the only ones a ply can repeat
        into a §4.4 verdict [R: count and details]."""
        cached = self.__dict__.get("_danger_cache")
        if cached is None:
            need = self.rules.repetition_count - 1
            cached = frozenset(k for k, n in Counter(self.history).items() if n >= need)
            object.__setattr__(self, "_danger_cache", cached)
        return cached

    def _needs_check(self, move: Move, check_all: bool) -> bool:
        """Whether §3.8.2 could reject `move` (never a goal-in, §4.1). A repetition verdict needs
        a dangerous key in the history, a fortress one side holding both rings after the ply:
        with the rings split only an attack on a carrier can change that (check_all covers the
        rest)."""
        if move.kind == GOAL:
            return False
        return check_all or move.kind == ATTACK and bool(self.rings >> move.to & 1)

    def apply(self, move) -> "RingRugbyState":
        if isinstance(move, str):
            move = self._parse(move)
        if move.kind == GOAL:
            return self._goal_in(move)
        # §3.8 [R: the order]: re-entry (in _resolve), legality (trusted here), end checks.
        resolved = self._resolve(move)
        black, white, rings, off, retal, region = resolved
        verdict = self._verdict(move, resolved)
        return self._successor(black, white, rings, off, retal, region, move,
                               self._end_check(black, white, verdict))

    def _goal_in(self, move: Move) -> "RingRugbyState":
        """§3.2: the carrier moves into the goal it attacks, which wins at once (§4.1; §3.8 does
        not run). [R] It enters the goal cell straight ahead, else the one diagonally ahead, a free
        one before one where a knocked-off piece waits; that piece then leaves the field."""
        g, entry = self.geo, move.frm
        col = g.col_row(entry)[0]
        near = sorted((q for q in g.goal_cells[1 - self.to_move] if abs(g.col_row(q)[0] - col) <= 1),
                      key=lambda q: abs(g.col_row(q)[0] - col))
        goal = next((q for q in near if not (self.black | self.white) >> q & 1), near[0])
        keep = ~((1 << entry) | (1 << goal))
        black, white = self.black & keep, self.white & keep
        if self.to_move == BLACK:
            black |= 1 << goal
        else:
            white |= 1 << goal
        rings = (self.rings & ~(1 << entry)) | 1 << goal
        off = tuple(o for o in self.off if o != goal)
        return self._successor(black, white, rings, off, (), MIXED, move,
                               Outcome.win(self.to_move, 2, Termination.GOAL))

    def _end_check(self, black: int, white: int, verdict: str | None) -> Outcome | None:
        """§3.8.3: goal closure, repetition draw, ply cap (in that order)."""
        rules = self.rules
        if rules.advanced:
            closed = [self._goal_closed(black, white, owner) for owner in (BLACK, WHITE)]
            if all(closed):
                return Outcome.draw(2, Termination.GOAL_CLOSED)
            if any(closed):
                owner = closed.index(True)
                # [R] `attacker`: the owner's opponent can no longer score, so the owner loses.
                winner = 1 - owner if rules.goal_closure_winner == "attacker" else owner
                return Outcome.win(winner, 2, Termination.GOAL_CLOSED)
        if verdict == "draw":
            return Outcome.draw(2, Termination.REPETITION)
        if self.ply + 1 >= rules.max_plies:
            return Outcome.draw(2, Termination.MAX_PLIES)   # §4.6 safeguard
        return None

    def _successor(self, black, white, rings, off, retal, region, move, result) -> "RingRugbyState":
        to_move = 1 - self.to_move
        key = (black, white, rings, off, to_move, retal)
        history = self.history + (key,)
        child = RingRugbyState(self.rules, black, white, rings, off, to_move, retal, self.ply + 1,
                               history, self.regions + region, move.text, result, self.geo)
        danger = self.__dict__.get("_danger_cache")
        if danger is not None:                # only the new key's count changed
            if key not in danger and history.count(key) >= self.rules.repetition_count - 1:
                danger = danger | {key}
            object.__setattr__(child, "_danger_cache", danger)
        return child

    # -- notation (§6) --------------------------------------------------------------------------
    def _parse(self, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
        found = _MOVE_RE.fullmatch(text.strip())
        if not found:
            raise InvalidMoveError(f"{text!r} is not Ring Rugby notation (e.g. 'ring c2', 'c2-d4')")
        ring_file, ring_rank, file1, rank1, sep, file2, rank2, goal = found.groups()
        g = self.geo
        if ring_file:
            cell = self._cell(text, ring_file + ring_rank)
            return g.move(RING, cell, cell)
        frm = self._cell(text, file1 + rank1)
        if goal:
            return g.move(GOAL, frm, frm)
        kind = {"-": STEP, "x": ATTACK, ">": PASS, "=": BIG}[sep]
        return g.move(kind, frm, self._cell(text, file2 + rank2))

    def _cell(self, text: str, name: str) -> int:
        i = self.geo.index.get(name)
        if i is None or not self.geo.is_on(i):
            raise InvalidMoveError(f"{text!r}: {name} is not a cell of the field")
        return i

    def illegal_reason(self, move) -> str | None:
        if self.result is not None or move.kind == GOAL:
            return None
        if move in self._pseudo_legal():
            verdict = self._verdict(move)
            if verdict == "illegal":
                black, white, rings, *_ = self._resolve(move)
                if self.rules.forbid_two_ring_fortress and self._fortress(black, white, rings):
                    return "it leaves both rings in a fortress (§4.3)"
                return "a one-board repetition: this side must vary (§4.4)"
        return None

    # -- presentation -------------------------------------------------------------------------
    def _pieces(self) -> list[dict]:
        """The pieces in play: on the field, and a carrier that scored, in the goal (§3.2)."""
        g = self.geo
        return [{"cell": g.names[i], "colour": COLOUR_NAMES[not self.black >> i & 1],
                 "ring": bool(self.rings >> i & 1)}
                for i in _bits((self.black | self.white) & g.on_mask | self.rings)]

    def _off_pieces(self) -> list[dict]:
        g = self.geo
        return [{"cell": g.names[o], "colour": COLOUR_NAMES[0 if self.black >> o & 1 else 1],
                 "order": n + 1} for n, o in enumerate(self.off)]

    def view(self, seat: int | None) -> dict:
        """Nothing is hidden (§8): every seat and spectators see the same."""
        g = self.geo
        on = g.on_mask
        outcome = self.outcome
        return {
            "game": "ring-rugby", "width": g.w, "half_depth": g.h,
            "ply": self.ply, "to_move": self.current_player,
            "ring_phase": bin(self.rings).count("1") < 2,
            "pieces": self._pieces(), "off_board": self._off_pieces(),
            "counts": {COLOUR_NAMES[c]: {"on_board": bin(bb & on).count("1"),
                                         "off_board": bin(bb & g.ring_mask & ~self.rings).count("1")}
                       for c, bb in enumerate((self.black, self.white))},
            "retaliation": ({"attacker": g.names[self.retal[0]], "victim": g.names[self.retal[1]]}
                            if self.retal else None),
            "goals": {"black": sorted(g.names[i] for i in g.goal_cells[BLACK]),
                      "white": sorted(g.names[i] for i in g.goal_cells[WHITE])},
            "last_move": self.last_move or None,
            "outcome": outcome.to_dict() if outcome else None,
        }

    def to_dict(self) -> dict:
        g = self.geo
        pieces = {p["cell"]: ("B" if p["colour"] == "black" else "W") + ("*" if p["ring"] else "")
                  for p in self._pieces()}
        return {
            "options": self.rules.as_dict(), "ply": self.ply, "to_move": self.to_move,
            "pieces": pieces,
            "off": [[g.names[o], "B" if self.black >> o & 1 else "W"] for o in self.off],
            "retaliation": [g.names[c] for c in self.retal] or None,
            "history": [[b, w, r, list(o), t, list(x)] for b, w, r, o, t, x in self.history],
            "regions": self.regions, "last_move": self.last_move,
            "outcome": self.result.to_dict() if self.result else None,
        }

    def render_text(self, seat: int | None = None) -> str:
        """§2's diagram: ranks top down, the off-board ring round the field, goals as [G].
        Off-board pieces show their re-entry order (B1 is the first to come back)."""
        g = self.geo
        symbols = list(g.empty_symbols)
        order = {o: n + 1 for n, o in enumerate(self.off)}
        for i in _bits(self.black | self.white):
            colour = "B" if self.black >> i & 1 else "W"
            symbols[i] = colour + (str(order[i]) if i in order else
                                   "*" if self.rings >> i & 1 else "")
        lines = ["    " + "".join(f"{c:>4}" for c in "L" + FILE_LETTERS[:g.w] + "R")]
        for row in range(g.depth + 1, -1, -1):
            cells = symbols[row * g.stride:(row + 1) * g.stride]
            lines.append(f"{row:>4}" + "".join(f"{c:>4}" for c in cells).rstrip())
            if row == g.h + 1:
                lines.append("    " + "-" * (4 * (g.w + 2)))
        outcome = self.outcome
        if outcome is not None:
            status = ("draw" if outcome.is_draw else f"{COLOUR_NAMES[outcome.winners[0]]} wins")
            lines.append(f"ply {self.ply}: {status} ({outcome.termination.value})")
        else:
            lines.append(f"ply {self.ply}: {COLOUR_NAMES[self.to_move]} to move")
        if self.retal:
            lines.append(f"retaliation barred: {g.names[self.retal[1]]} may not strike "
                         f"{g.names[self.retal[0]]}")
        return "\n".join(lines)

    def render_svg(self, seat: int | None = None) -> str:
        return _render_svg(self)


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------
_TINT = {"black_board": "#b9b9cc", "white_board": "#f1ead8", "ring": "#dcdcdc", "goal": "#9fd39f"}


def _render_svg(state: RingRugbyState, cell: int = 32) -> str:
    """The two boards tinted apart, the goals, the off-board ring, pieces and rings."""
    g = state.geo
    cols, rows = g.w + 2, g.depth + 2
    margin = cell * 0.75
    width, height = cols * cell + 2 * margin, rows * cell + 2 * margin
    body = [f'<rect width="{width:g}" height="{height:g}" fill="#faf6ec"/>']
    order = {o: n + 1 for n, o in enumerate(state.off)}

    def corner(i: int) -> tuple[float, float]:
        col, row = g.col_row(i)
        return margin + col * cell, margin + (rows - 1 - row) * cell

    for i, name in enumerate(g.names):
        if not name:
            continue
        x, y = corner(i)
        if i in g.goal_cells[0] or i in g.goal_cells[1]:
            fill = _TINT["goal"]
        elif not g.is_on(i):
            fill = _TINT["ring"]
        else:
            fill = _TINT["black_board" if g.region[i] == 1 else "white_board"]
        body.append(f'<rect data-cell="{name}" x="{x:g}" y="{y:g}" width="{cell}" height="{cell}" '
                    f'fill="{fill}" stroke="#8a7d60" stroke-width="0.5"/>')
        if g.is_on(i) and (g.col_row(i)[0] == 1 or g.col_row(i)[1] == 1):
            label = name if g.col_row(i)[0] == 1 and g.col_row(i)[1] == 1 else (
                name[0] if g.col_row(i)[1] == 1 else name[1:])
            body.append(f'<text x="{x + 2:g}" y="{y + cell - 3:g}" font-size="{cell / 4:g}" '
                        f'font-family="sans-serif" fill="#555">{label}</text>')
    half_y = margin + (rows - 1 - g.h) * cell
    body.append(f'<line x1="{margin + cell:g}" y1="{half_y:g}" x2="{margin + (cols - 1) * cell:g}" '
                f'y2="{half_y:g}" stroke="#333" stroke-width="2"/>')
    for i in _bits(state.black | state.white):
        x, y = corner(i)
        cx, cy = x + cell / 2, y + cell / 2
        is_black = state.black >> i & 1
        piece = svg.Disc("#222" if is_black else "#fafafa", "#111",
                         str(order[i]) if i in order else "", "#fff" if is_black else "#000")
        body.extend(svg.disc(cx, cy, cell * 0.36, piece))
        if state.rings >> i & 1:
            body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{cell * 0.44:g}" fill="none" '
                        f'stroke="#d4a017" stroke-width="3"/>')
    return svg.document(width, height, body, title=f"Ring Rugby, ply {state.ply}")


# ---------------------------------------------------------------------------------------------
# Construction: start position, hand-set positions, from storage
# ---------------------------------------------------------------------------------------------
def _check_rules(options: Mapping[str, Any]) -> Rules:
    rules = Rules(**options)
    if not 1 <= rules.start_rank <= rules.half_depth - 1:
        raise InvalidOptionsError(
            f"option start_rank={rules.start_rank} must be 1..{rules.half_depth - 1} "
            "(half_depth - 1)")
    return rules


def _fresh(rules: Rules, black: int, white: int, rings: int, off: tuple, to_move: int,
           retal: tuple, ply: int, last_move: str = "") -> RingRugbyState:
    key = (black, white, rings, off, to_move, retal)
    state = RingRugbyState(rules, black, white, rings, off, to_move, retal, ply, (key,), "",
                           last_move, None)
    if ply >= rules.max_plies:
        object.__setattr__(state, "result", Outcome.draw(2, Termination.MAX_PLIES))
    return state


def position(pieces: Mapping[str, str], *, off: Iterable[tuple[str, str]] = (),
             to_move: int = BLACK, retaliation: tuple[str, str] | None = None, ply: int = 2,
             options: Mapping | None = None, variant: str | None = None) -> RingRugbyState:
    """A hand-set position (tests, composed problems), after the ring-assignment plies.

    pieces: cell -> "B", "W" (non-carriers), "B*", "W*" (carriers); exactly two carriers.
    off: off-board pieces as (cell, "B"/"W") in knock-out order, oldest first (advanced only).
    to_move: 0 Black, 1 White. retaliation: (attacker's cell, victim's cell) as recorded by an
    attack on the previous ply. ply: plies already played (they count towards max_plies); the
    repetition history starts at this position. options/variant: as for `new_state`.
    """
    rules = _check_rules(RingRugbyGame.instance.normalize_options(options, variant))
    black, white, rings, off_cells, retal = _board(geometry(rules), pieces, off, retaliation)
    if bin(rings).count("1") != 2:
        raise InvalidStateError("a hand-set position has exactly two carriers")
    return _fresh(rules, black, white, rings, off_cells, _seat(to_move), retal, int(ply))


def _seat(value: Any) -> int:
    if value not in (BLACK, WHITE) or isinstance(value, bool):
        raise InvalidStateError(f"side to move {value!r}: 0 (Black) or 1 (White)")
    return int(value)


def _board(g: Geometry, pieces: Mapping[str, str], off: Iterable, retaliation, scored: bool = False) -> tuple:
    """Bitboards, off-board order and retaliation pair from cell names (validated); `scored`: a
    carrier may stand in a goal (the position after a goal-in, §3.2)."""
    black = white = rings = 0
    goals = g.goal_cells[0] | g.goal_cells[1]
    for name, code in pieces.items():
        in_goal = scored and code.endswith("*") and g.index.get(name) in goals
        i = g.index[name] if in_goal else _named_cell(g, name, on_board=True)
        if code not in ("B", "W", "B*", "W*"):
            raise InvalidStateError(f"piece code {code!r} on {name}: use B, W, B* or W*")
        if code[0] == "B":
            black |= 1 << i
        else:
            white |= 1 << i
        if code.endswith("*"):
            rings |= 1 << i
    off_cells: list[int] = []
    for name, code in off:
        i = _named_cell(g, name, on_board=False)
        if code not in ("B", "W") or i in off_cells:
            raise InvalidStateError(f"off-board piece {code!r} on {name}")
        if code == "B":
            black |= 1 << i
        else:
            white |= 1 << i
        off_cells.append(i)
    if off_cells and not g.rules.advanced:
        raise InvalidStateError("off-board pieces exist only with revival (advanced)")
    retal = tuple(g.index[c] for c in retaliation) if retaliation else ()
    if retal and (len(retal) != 2 or not g.is_on(retal[0])):
        raise InvalidStateError(f"retaliation pair {retaliation!r}")
    return black, white, rings, tuple(off_cells), retal


def _named_cell(g: Geometry, name: str, on_board: bool) -> int:
    i = g.index.get(name)
    if i is None or g.is_on(i) != on_board:
        where = "on-board" if on_board else "off-board"
        raise InvalidStateError(f"{name!r} is not an {where} cell of this field")
    return i


def _from_dict(game: "RingRugbyGame", d: Mapping) -> RingRugbyState:
    rules = _check_rules(game.normalize_options(d["options"]))
    g = geometry(rules)
    outcome = Outcome.from_dict(d.get("outcome"))
    scored = outcome is not None and outcome.termination == Termination.GOAL
    black, white, rings, off, retal = _board(g, d["pieces"], [tuple(x) for x in d["off"]],
                                             d["retaliation"], scored=scored)
    to_move, n_rings = _seat(d["to_move"]), bin(rings).count("1")
    if n_rings < 2 and (n_rings != to_move or off or retal):
        raise InvalidStateError("during ring assignment Black places the first ring, "
                                "White the second")
    history = tuple((b, w, r, tuple(o), t, tuple(rt)) for b, w, r, o, t, rt in d["history"])
    regions = str(d["regions"])
    if (not history or history[-1] != (black, white, rings, off, to_move, retal)
            or len(regions) != len(history) - 1
            or set(regions) - {BLACK_BOARD, WHITE_BOARD, MIXED}):
        raise InvalidStateError("the repetition history does not end in this position")
    return RingRugbyState(rules, black, white, rings, off, to_move, retal, int(d["ply"]), history,
                          regions, str(d.get("last_move") or ""), outcome, g)


# ---------------------------------------------------------------------------------------------
# The game declaration
# ---------------------------------------------------------------------------------------------
@register
class RingRugbyGame(Game):
    """Ring Rugby (docs/rules/ring-rugby.md)."""

    slug = "ring-rugby"
    title = "Ring Rugby"
    min_players = max_players = 2
    rules_page = "docs/rules/ring-rugby.md"
    summary = ("Ring Rugby (untitled original): two sides of six pieces on two 6x6 boards end to "
               "end fight over two ownerless rings. Pieces step up to two cells without jumping, "
               "knock enemies back with orthogonal charges (taking the ring from a carrier they "
               "hit), and carriers pass sideways or backwards as in rugby; the first carrier to "
               "step into the enemy goal wins. The advanced rules add revival of knocked-off "
               "pieces, big moves along a file and goal closure.")
    options = {
        "width": OptionSpec(6, "files; pieces per side = width; goals on the 2 centre files",
                            choices=(4, 6, 8, 10)),
        "half_depth": OptionSpec(6, "ranks per board; the field has 2 x half_depth ranks",
                                 min=4, max=10),
        "start_rank": OptionSpec(2, "Black's start rank (1 .. half_depth-1); White mirrors it",
                                 min=1, max=9),
        "advanced": OptionSpec(True, "revival, big move and goal closure"),
        "knight_block": OptionSpec("either", "a knight step is blocked by: either leg / only the "
                                   "orthogonal leg / both legs", choices=KNIGHT_BLOCK_MODES),
        "pass_forward": OptionSpec(False, "allow the 3 forward pass rays"),
        "pass_range": OptionSpec(2, "the furthest a pass may go", min=1, max=3),
        "big_move_carriers": OptionSpec(True, "carriers may big-move"),
        "forbid_two_ring_fortress": OptionSpec(True, "forbid both rings on two immune carriers"),
        "goal_closure_winner": OptionSpec("attacker", "attacker: the side whose goal is closed by "
                                          "its own pieces loses; closer: it wins",
                                          choices=CLOSURE_WINNERS),
        "repetition_count": OptionSpec(4, "occurrences that trigger the repetition rule",
                                       min=2, max=6),
        "max_plies": OptionSpec(400, "ply cap, then a draw (safeguard)", min=10, max=2000),
    }
    # §5 names the defaults `advanced`; like every game they are also called `standard`, the
    # name used in payloads and records, and `advanced` stays accepted for them.
    variants = {"standard": {}, "basic": {"advanced": False}}
    variant_aliases = {"advanced": "standard"}

    def _new_state(self, players: int, seed: int, options: dict) -> RingRugbyState:
        rules = _check_rules(options)
        g = geometry(rules)
        # §2 [R: count, start ranks]: one piece per file, Black on start_rank, White mirrored.
        black = sum(1 << g.idx(c, rules.start_rank) for c in range(1, g.w + 1))
        white = sum(1 << g.idx(c, g.depth + 1 - rules.start_rank) for c in range(1, g.w + 1))
        return _fresh(rules, black, white, 0, (), BLACK, (), 0)

    def state_from_dict(self, d: Mapping) -> RingRugbyState:
        try:
            return _from_dict(self, d)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidStateError(f"not a Ring Rugby state: {exc!r}") from exc

    def setup(self, pieces: Mapping[str, str], **kwargs) -> RingRugbyState:
        """A hand-set position; see `position`."""
        return position(pieces, **kwargs)


RingRugbyState.game = RingRugbyGame.instance
