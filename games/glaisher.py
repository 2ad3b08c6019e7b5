"""Glaisher: split stacks by partitions into distinct parts and join opposite sides.

Rules: docs/rules/glaisher.md. A two-player connection game on the
61-cell hexagonal board. A turn splits one of the mover's stacks into parts of different heights
that all fly the same way, each as far as it is tall (flipping enemy stacks no taller than the part
it lands on), then places one disc from a shared reserve. Joining two opposite sides wins; having
no split-move loses.

Representation: a cell is a padded index of `games.hexgrid.HexBoard(4)`; `cells[i]` is 0 for an
empty cell, `+h` for a Red stack of height h and `-h` for a Yellow one (docs/rules/glaisher.md §2: a
stack always shows one colour). Each state also carries both players' occupancy bit masks, which
make the connection test a short bitset flood fill.
"""
from __future__ import annotations

import math
import re
from bisect import insort
from dataclasses import dataclass, field
from typing import Any, Mapping

from . import svg
from .core import (
    Game, InvalidMoveError, InvalidOptionsError, InvalidStateError, OptionSpec,
    Outcome, State, Termination, TwoSeatTurns,
)
from .hexgrid import DIRECTION_NAMES, E, NE, NW, SE, SW, W, HexBoard, iter_bits
from .registry import register

# ---------------------------------------------------------------------------------------------
# Vocabulary: board, cell names, seats, constants
# ---------------------------------------------------------------------------------------------
BOARD = HexBoard(4)
CELLS: tuple[int, ...] = BOARD.indices          # every cell, in index order (row i … row a)
RED, YELLOW = 0, 1                             # Red moves first: a reconstruction (§1, §2)
SEAT_NAMES = ("Red", "Yellow")
SIGN = (1, -1)                                 # cells[] sign of each seat's stacks
UNLIMITED = -1                                 # `reserve` value of reserve=unlimited
SETUP_HEIGHT = 6                               # §3.1: free setup places 6-stacks
SETUP_TURNS = 6
MAX_PART = max(len(ray) for rays in BOARD.rays.values() for ray in rays)   # 8: the longest line
MAX_SPLIT_HEIGHT = MAX_PART * (MAX_PART + 1) // 2     # 36 = 8+7+…+1; taller stacks never move
MIN_CHAIN = 2 * BOARD.radius + 1               # opposite sides are 8 steps apart: 9 cells at least

# §5: the order the notation lists the directions in (E W NE NW SE SW), used for listing moves.
DIRECTION_ORDER = (E, W, NE, NW, SE, SW)
_DIRECTION_BY_NAME = {name.lower(): d for d, name in enumerate(DIRECTION_NAMES)}


def cell_name(index: int) -> str:
    """docs/rules/glaisher.md §2: `"abcdefghi"[4 - r] + str(q + 5)` (e5 is the centre)."""
    q, r = BOARD.coord(index)
    return "abcdefghi"[BOARD.radius - r] + str(q + BOARD.radius + 1)


NAMES: dict[int, str] = {i: cell_name(i) for i in CELLS}
CELL_BY_NAME: dict[str, int] = {name: i for i, name in NAMES.items()}

# §2: the start positions (Red, Yellow) as axial cells, a reconstruction (Figure 1 is lost).
START_CELLS = {
    "ring3": (((3, 0), (-3, 3), (0, -3)), ((0, 3), (-3, 0), (3, -3))),
    "ring2": (((2, 0), (-2, 2), (0, -2)), ((0, 2), (-2, 0), (2, -2))),
    "free": ((), ()),
}


def distinct_partitions(total: int, largest: int = MAX_PART) -> list[tuple[int, ...]]:
    """docs/rules/glaisher.md §3.2: `total` as 2 or more different parts, each at most `largest`.

    Listed as docs/rules/glaisher.md §3.2 does: fewer parts first, then descending (6: 5+1 4+2 3+2+1).
    """
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], rest: int, cap: int) -> None:
        if rest == 0:
            if len(prefix) >= 2:
                found.append(prefix)
            return
        for part in range(min(rest, cap), 0, -1):
            if part * (part + 1) // 2 < rest:
                break                           # parts below `part` cannot make up the rest
            extend(prefix + (part,), rest - part, part - 1)

    extend((), total, min(largest, total))
    return sorted(found, key=lambda parts: (len(parts), [-p for p in parts]))


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Split:
    """A split-move (§3.2): the stack on `src` into `parts` (descending) towards `direction`.

    `targets` ((cell, part) pairs) and `target_mask` are derived from the geometry; `targets` is
    None when a part would leave the board.
    """

    src: int
    parts: tuple[int, ...]
    direction: int
    targets: tuple[tuple[int, int], ...] | None = field(default=None, compare=False, repr=False)
    target_mask: int = field(default=0, compare=False, repr=False)
    move_row: list | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        rays = BOARD.rays.get(self.src)
        if rays is None or not 0 <= self.direction < 6:
            return
        ray = rays[self.direction]
        if self.parts and min(self.parts) >= 1 and max(self.parts) <= len(ray):
            targets = tuple((ray[p - 1], p) for p in self.parts)
            object.__setattr__(self, "targets", targets)
            object.__setattr__(self, "target_mask", sum(1 << t for t, _ in targets))

    def __reduce__(self):
        # Pickle and deepcopy carry only the defining fields; the rest is rebuilt on load.
        return Split, (self.src, self.parts, self.direction)

    @property
    def height(self) -> int:
        return sum(self.parts)

    def __str__(self) -> str:
        return (f"{NAMES.get(self.src, '?')}:{'+'.join(map(str, self.parts))}"
                f"/{DIRECTION_NAMES[self.direction]}")


@dataclass(frozen=True, slots=True)
class Move:
    """One whole turn (§5): a split and its placement (`place` None when there is none), or a
    setup turn of the free setup (`split` None, a 6-stack on `place`)."""

    split: Split | None
    place: int | None = None

    @property
    def is_setup(self) -> bool:
        return self.split is None

    def __str__(self) -> str:
        if self.split is None:
            return f"{SETUP_HEIGHT}@{NAMES.get(self.place, '?')}"
        if self.place is None:
            return str(self.split)
        return f"{self.split} @{NAMES.get(self.place, '?')}"


# Move values are shared: a split listed by `candidate_splits` keeps a row of its turns indexed
# by placement cell (the last entry: no placement), since building hundreds of Move objects for
# every `legal_moves()` call would dominate search time. The rows are dropped in bulk past a
# bound, which keeps the memory small however many positions a worker sees.
_MOVE_ROW_LIMIT = 4096
_splits_with_rows: list[Split] = []


def move_row(split: Split) -> list:
    """The turns of `split`: `row[cell]` places on `cell`, `row[-1]` has no placement."""
    row = split.move_row
    if row is None:
        if len(_splits_with_rows) >= _MOVE_ROW_LIMIT:
            for old in _splits_with_rows:
                object.__setattr__(old, "move_row", None)
            _splits_with_rows.clear()
        row = [Move(split, i) if BOARD.is_cell(i) else None for i in range(BOARD.size)]
        row.append(Move(split, None))
        object.__setattr__(split, "move_row", row)
        _splits_with_rows.append(split)
    return row


_SPLIT_TABLE: dict[int, list] = {i: [None] * (MAX_SPLIT_HEIGHT + 1) for i in CELLS}


def candidate_splits(src: int, height: int) -> tuple[Split, ...]:
    """Every split of a `height` stack on `src` that stays on the board (not yet checked for
    blocking), in the documented order: partition, then direction. Cached."""
    if not 3 <= height <= MAX_SPLIT_HEIGHT:
        return ()
    row = _SPLIT_TABLE[src]
    found = row[height]
    if found is None:
        lengths = [len(BOARD.rays[src][d]) for d in range(6)]
        found = row[height] = tuple(
            Split(src, parts, d) for parts in distinct_partitions(height)
            for d in DIRECTION_ORDER if parts[0] <= lengths[d])
    return found


_SETUP_RE = re.compile(r"(\d+)\s*@\s*([a-z]+\d+)")
_TURN_RE = re.compile(r"([a-z]+\d+)\s*:\s*(\d+(?:\s*\+\s*\d+)*)\s*/\s*([a-z]+)"
                      r"(?:\s*@\s*([a-z]+\d+))?")


def _cell(name: str, text: str) -> int:
    try:
        return CELL_BY_NAME[name]
    except KeyError:
        raise InvalidMoveError(f"{text!r}: there is no cell {name!r}") from None


def parse_move(text: str) -> Move:
    """§5 notation → Move, syntax only (InvalidMoveError); legality is the state's business."""
    norm = text.strip().lower()
    setup = _SETUP_RE.fullmatch(norm)
    if setup:
        if setup.group(1).lstrip("0") != str(SETUP_HEIGHT):
            raise InvalidMoveError(f"{text!r}: a setup turn places a {SETUP_HEIGHT}-stack")
        return Move(None, _cell(setup.group(2), text))
    turn = _TURN_RE.fullmatch(norm)
    if not turn:
        raise InvalidMoveError(f"{text!r} is not a Glaisher move (e.g. e8:5+1/W @e8 or 6@e5)")
    src, parts_text, direction, place = turn.groups()
    src_cell = _cell(src, text)
    if direction not in _DIRECTION_BY_NAME:
        raise InvalidMoveError(f"{text!r}: unknown direction {direction!r} (E W NE NW SE SW)")
    parts = _parse_parts(parts_text, text)
    place_cell = None if place is None else _cell(place, text)
    return Move(Split(src_cell, parts, _DIRECTION_BY_NAME[direction]), place_cell)


def _parse_parts(parts_text: str, text: str) -> tuple[int, ...]:
    try:
        parts = [int(p) for p in parts_text.split("+")]
    except ValueError:
        raise InvalidMoveError(f"{text!r}: unreadable parts") from None
    if len(parts) < 2:
        raise InvalidMoveError(f"{text!r}: a split needs at least two parts")
    if 0 in parts:
        raise InvalidMoveError(f"{text!r}: a part cannot be 0")
    if len(set(parts)) != len(parts):
        raise InvalidMoveError(f"{text!r}: the parts must all be different")
    return tuple(sorted(parts, reverse=True))


# ---------------------------------------------------------------------------------------------
# Rule helpers on raw cells/masks (the hot paths)
# ---------------------------------------------------------------------------------------------
def legal_splits_of(cells: tuple[int, ...], seat: int, mask: int, first_only: bool = False
                    ) -> list[Split]:
    """§3.2 legality: every split of `seat` whose parts land on the board and are not blocked by
    a taller enemy stack. `first_only` stops at the first one (the §3.3 rule-1 test)."""
    sign = SIGN[seat]
    out: list[Split] = []
    for src in iter_bits(mask):
        for split in candidate_splits(src, cells[src] * sign):
            for target, part in split.targets:
                if cells[target] * sign < -part:      # an enemy stack taller than the part
                    break
            else:
                out.append(split)
                if first_only:
                    return out
    return out


def split_blocker(cells: tuple[int, ...], seat: int, split: Split) -> str | None:
    """Why `split` is not a legal split-move for `seat` here (None: it is legal)."""
    height = cells[split.src] * SIGN[seat] if BOARD.is_cell(split.src) else 0
    if height <= 0:
        return f"{NAMES.get(split.src, '?')} holds no stack of {SEAT_NAMES[seat]}"
    parts = split.parts
    if len(parts) < 2 or any(a <= b for a, b in zip(parts, parts[1:])) or parts[-1] < 1:
        return "the parts must be two or more different heights, largest first"
    if split.height != height:
        return f"the parts add up to {split.height}, not to the height {height}"
    if split.targets is None:
        return "a part would leave the board"
    for target, part in split.targets:
        if cells[target] * SIGN[seat] < -part:
            return f"the {part}-part is blocked by a taller stack on {NAMES[target]}"
    return None


def wins_by_split(own_mask: int, split: Split) -> bool:
    """§3.3: does the mover's mask after `split` join opposite sides? (The mover had no
    connection before, so a new chain runs through a target.)"""
    after = (own_mask & ~(1 << split.src)) | split.target_mask
    return after.bit_count() >= MIN_CHAIN and BOARD.connects_through(after, split.target_mask)


def connection_distance_of(cells: tuple[int, ...], seat: int, masks: tuple[int, int]
                           ) -> int | None:
    """Hex-like connection distance (docs/rules/glaisher.md §7), for evaluators.

    The fewest-cost chain between two opposite sides, over the 3 pairs, where a cell costs 0 if
    `seat` owns it, 1 if empty, 2 if it holds an enemy stack of height <= 8 (capturable by some
    part) and cannot be used if taller. 0 means connected; None means no chain is possible.
    Computed with bit masks, one cost level at a time.
    """
    own, enemy = masks[seat], masks[1 - seat]
    sign = SIGN[seat]
    capturable = sum(1 << i for i in iter_bits(enemy) if -cells[i] * sign <= MAX_PART)
    empty = BOARD.all_mask & ~own & ~enemy
    best = None
    for one, other in BOARD.side_pairs:
        dist = _side_distance(own, empty, capturable, one, other, best)
        if dist is not None and (best is None or dist < best):
            best = dist
        if best == 0:
            break
    return best


def _side_distance(own: int, empty: int, capturable: int, start: int, goal: int,
                   limit: int | None) -> int | None:
    """Cost of the cheapest chain from side `start` to side `goal`, or None (none cheaper than
    `limit`). `reach` is the set of cells at cost <= k, `before` the set at cost <= k - 1."""
    before, reach = 0, BOARD.flood(own & start, own)
    k = 0
    while not reach & goal:
        k += 1
        if limit is not None and k >= limit:
            return None
        seeds = reach | (empty & (BOARD.grow(reach) | start))
        if k >= 2:
            seeds |= capturable & (BOARD.grow(before) | start)
        grown = BOARD.flood(seeds, seeds | own)
        if k >= 2 and grown == reach == before:
            return None                                 # nothing new for two levels: stuck
        before, reach = reach, grown
    return k


# ---------------------------------------------------------------------------------------------
# Rules (the options of one match)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """docs/rules/glaisher.md §4, validated."""

    setup: str = "ring3"
    reserve: int = 39                  # at the start; UNLIMITED for reserve=unlimited
    repetition: int = 3                # 0: off
    max_plies: int = 400               # 0: off

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Rules":
        reserve = options["reserve"]
        return cls(options["setup"], UNLIMITED if reserve == "unlimited" else int(reserve),
                   int(options["repetition"]), int(options["max_plies"]))

    def options(self) -> dict:
        return {"setup": self.setup,
                "reserve": "unlimited" if self.reserve == UNLIMITED else self.reserve,
                "repetition": self.repetition, "max_plies": self.max_plies}

    @property
    def setup_turns(self) -> int:
        return SETUP_TURNS if self.setup == "free" else 0


def _masks_of(cells: tuple[int, ...]) -> tuple[int, int]:
    red = sum(1 << i for i in CELLS if cells[i] > 0)
    return red, sum(1 << i for i in CELLS if cells[i] < 0)


def _encode_cells(cells: tuple[int, ...]) -> str:
    """Compact storage form: signed heights in index order, empty cells as blanks."""
    return ",".join(str(cells[i]) if cells[i] else "" for i in CELLS)


def _decode_cells(text: str) -> tuple[int, ...]:
    values = text.split(",")
    if len(values) != len(CELLS):
        raise ValueError(f"{len(values)} cells, not {len(CELLS)}")
    cells = [0] * BOARD.size
    for i, value in zip(CELLS, values):
        cells[i] = int(value) if value else 0
    return tuple(cells)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GlaisherState(TwoSeatTurns, State):
    """A Glaisher position. `history` holds the (cells, to_move) positions since a disc last came
    onto the board (only they can recur, §3.3), oldest first, this one last; kept only when the
    repetition rule is on."""

    cells: tuple[int, ...]
    to_move: int
    reserve: int                       # discs left; UNLIMITED for reserve=unlimited
    ply: int
    rules: Rules
    history: tuple = field(default=(), hash=False, repr=False)
    outcome: Outcome | None = None
    last_move: Move | None = field(default=None, compare=False)
    masks: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    # -- protocol fields -----------------------------------------------------------------------
    @property
    def in_setup(self) -> bool:
        """§3.1: one of the six setup turns of setup=free."""
        return self.ply < self.rules.setup_turns

    # -- accessors for evaluators ----------------------------------------------------------------
    def mask(self, seat: int) -> int:
        """Bit mask (over BOARD indices) of the cells holding `seat`'s stacks."""
        return self.masks[seat]

    def stacks(self, seat: int) -> dict[str, int]:
        """`seat`'s stacks as {cell name: height}."""
        sign = SIGN[seat]
        return {NAMES[i]: self.cells[i] * sign for i in iter_bits(self.masks[seat])}

    def height(self, cell: int) -> int:
        return abs(self.cells[cell])

    def owner(self, cell: int) -> int | None:
        value = self.cells[cell]
        return None if value == 0 else (RED if value > 0 else YELLOW)

    @property
    def reserve_left(self) -> int | None:
        """Discs left in the reserve; None when unlimited."""
        return None if self.reserve == UNLIMITED else self.reserve

    @property
    def key(self) -> tuple:
        """The §3.3 position: every cell, the reserve and the side to move."""
        return self.cells, self.reserve, self.to_move

    def connection_distance(self, seat: int) -> int | None:
        return connection_distance_of(self.cells, seat, self.masks)

    def legal_splits(self, seat: int | None = None) -> list[Split]:
        """The split-moves `seat` (default: the side to move) could make now."""
        seat = self.to_move if seat is None else seat
        return legal_splits_of(self.cells, seat, self.masks[seat])

    def placements(self, split: Split) -> list[int]:
        """§3.2 placement cells after `split` by the side to move ([]: no placement)."""
        if self.reserve == 0 or wins_by_split(self.masks[self.to_move], split):
            return []
        cells = self.cells
        places = [i for i in CELLS if not cells[i] and not split.target_mask >> i & 1]
        places.append(split.src)
        places.sort()
        return places

    # -- moves ----------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        cells = self.cells
        empties = [i for i in CELLS if not cells[i]]
        if self.in_setup:
            return [Move(None, i) for i in empties]
        own = self.masks[self.to_move]
        moves: list[Move] = []
        # §3.2 reconstructions (§1): a split that wins, or an empty reserve, means no placement;
        # the cell the split vacated may take the disc.
        for split in legal_splits_of(cells, self.to_move, own):
            row = split.move_row or move_row(split)
            if self.reserve == 0 or wins_by_split(own, split):
                moves.append(row[-1])
                continue
            places = empties.copy()
            for target, _ in split.targets:
                if not cells[target]:
                    places.remove(target)
            insort(places, split.src)
            moves.extend([row[i] for i in places])
        return moves

    def _parse(self, text: str) -> Move:
        return parse_move(text)

    def is_legal(self, move) -> bool:
        return self.outcome is None and isinstance(move, Move) and self._refusal(move) is None

    def illegal_reason(self, move) -> str | None:
        if not isinstance(move, Move):
            return f"{move!r} is not a Glaisher move"
        return self._refusal(move)

    def _refusal(self, move: Move) -> str | None:
        """Why `move` is illegal now (None: it is legal). §3.1, §3.2, §5."""
        if self.in_setup:
            if move.split is not None:
                return "the setup phase needs a setup turn (6@<cell>)"
            return self._place_refusal(move.place, self.cells)
        if move.split is None:
            return "the setup phase is over"
        blocked = split_blocker(self.cells, self.to_move, move.split)
        if blocked:
            return blocked
        if self.reserve == 0 or wins_by_split(self.masks[self.to_move], move.split):
            if move.place is not None:
                why = "the split wins" if self.reserve else "the reserve is empty"
                return f"{why}, so there is no placement"
            return None
        if move.place is None:
            return "the turn must place a disc (@<cell>)"
        if not BOARD.is_cell(move.place):
            return "the move names no cell"
        if move.place == move.split.src:
            return None
        if move.split.target_mask >> move.place & 1:
            return f"{NAMES[move.place]} is occupied after the split"
        return self._place_refusal(move.place, self.cells)

    @staticmethod
    def _place_refusal(place: int | None, cells: tuple[int, ...]) -> str | None:
        if place is None or not BOARD.is_cell(place):
            return "the move names no cell"
        if cells[place]:
            return f"{NAMES[place]} is occupied"
        return None

    def apply(self, move: Move) -> "GlaisherState":
        """Trusted fast path. A legal move with a placement comes from a split that did not
        win, so only the chains through the placed disc need checking (§3.3)."""
        seat, sign = self.to_move, SIGN[self.to_move]
        cells = list(self.cells)
        own, other = self.masks[seat], self.masks[1 - seat]
        split, place = move.split, move.place
        won = False
        if split is None:                                  # §3.1 setup turn
            cells[place] = sign * SETUP_HEIGHT
            own |= 1 << place
        else:                                              # §3.2 split-move
            cells[split.src] = 0
            for target, part in split.targets:
                cells[target] = sign * (abs(cells[target]) + part)
            tmask = split.target_mask
            own = (own & ~(1 << split.src)) | tmask
            other &= ~tmask
            if place is None:
                won = own.bit_count() >= MIN_CHAIN and BOARD.connects_through(own, tmask)
            else:                                          # placement
                cells[place] = sign
                own |= 1 << place
                won = own.bit_count() >= MIN_CHAIN and BOARD.connects_through(own, 1 << place)
        reserve = self.reserve
        if split is not None and place is not None and reserve > 0:
            reserve -= 1
        masks = (own, other) if seat == RED else (other, own)
        return self._successor(tuple(cells), masks, reserve, move, place is not None, won)

    def _successor(self, cells: tuple[int, ...], masks: tuple[int, int], reserve: int,
                   move: Move, added: bool, won: bool) -> "GlaisherState":
        """§3.3: the state after a turn, with the first ending that fires. Repetition and the
        ply limit are the server's safeguards (a reconstruction, §1), checked after rule 1."""
        seat, nxt, ply, rules = self.to_move, 1 - self.to_move, self.ply + 1, self.rules
        history = ()
        if rules.repetition:
            entry = (cells, nxt)
            history = (entry,) if added else self.history + (entry,)
        outcome = None
        if won:
            outcome = Outcome.win(seat, 2, Termination.CONNECTION)
        elif ply >= rules.setup_turns and not legal_splits_of(cells, nxt, masks[nxt], True):
            outcome = Outcome.win(seat, 2, Termination.NO_SPLIT_MOVE)
        elif rules.repetition and history.count(history[-1]) >= rules.repetition:
            outcome = Outcome.draw(2, Termination.REPETITION)
        elif rules.max_plies and ply >= rules.max_plies:
            outcome = Outcome.draw(2, Termination.MAX_PLIES)
        return GlaisherState(cells, nxt, reserve, ply, rules, history, outcome, move, masks)

    # -- views and storage ---------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """Everything is public in Glaisher: every seat and spectators see the same."""
        stacks = [[NAMES[i], self.owner(i), self.height(i)] for i in CELLS if self.cells[i]]
        return {
            "board": stacks,
            "rows": self.grid_rows(),
            "to_move": self.current_player,
            "ply": self.ply,
            "phase": "over" if self.outcome else ("setup" if self.in_setup else "play"),
            "reserve": "unlimited" if self.reserve == UNLIMITED else self.reserve,
            "stack_counts": [self.masks[s].bit_count() for s in (RED, YELLOW)],
            "disc_counts": [sum(self.stacks(s).values()) for s in (RED, YELLOW)],
            "last_move": None if self.last_move is None else str(self.last_move),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    def to_dict(self) -> dict:
        return {
            "options": self.rules.options(),
            "cells": _encode_cells(self.cells),
            "to_move": self.to_move,
            "reserve": self.reserve,
            "ply": self.ply,
            "history": [[nxt, _encode_cells(cells)] for cells, nxt in self.history],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "last_move": None if self.last_move is None else str(self.last_move),
        }

    def grid_rows(self) -> list[str]:
        """§2's format: one line a row from i (top) to a, 4 columns a cell, `R6`/`Y6`/`.`."""
        lines = []
        for r in range(-BOARD.radius, BOARD.radius + 1):
            tokens = []
            for q in range(-BOARD.radius, BOARD.radius + 1):
                if BOARD.on_board(q, r):
                    value = self.cells[BOARD.index(q, r)]
                    token = "." if not value else ("R" if value > 0 else "Y") + str(abs(value))
                    tokens.append(f"{token:<3} ")
            lines.append((" " * (2 * abs(r)) + "".join(tokens)).rstrip())
        return lines

    def render_text(self, seat: int | None = None) -> str:
        """§2's rows with coordinates: the row letter before each row, and each cell number at
        the lower-right end of its line (1-5 under row a, 6-9 after rows a-d), as on an
        Abalone board. A cell (q, r) starts at column 4q + 2r + 20, so a line of constant number
        drifts two columns right per row down."""
        radius, lines = BOARD.radius, []
        for r, row in zip(range(-radius, radius + 1), self.grid_rows()):
            line = " " * (2 * abs(r)) + "abcdefghi"[radius - r] + "   " + row.lstrip()
            q = radius + 1 - r                  # the line whose last cell is just above this row
            if 1 <= q <= radius:
                line = line.ljust(4 * q + 2 * (r + 1) + 18) + str(q + radius + 1)
            lines.append(line)
        lines.append(" " * 14 + "   ".join(str(n) for n in range(1, radius + 2)))
        return "\n".join(lines)

    def render_svg(self, seat: int | None = None) -> str:
        return _render_svg(self)


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------
_RED_DISC, _YELLOW_DISC = "#c0392b", "#f1c40f"


def _render_svg(state: GlaisherState, size: float = 22.0) -> str:
    """Pointy-top hexagons, stacks as discs labelled with their height, names on empty cells."""
    radius = BOARD.radius
    width = size * math.sqrt(3) * (2 * radius + 1) + 2 * size
    height = size * (3 * radius + 2) + 2 * size
    cx0, cy0 = width / 2, height / 2
    body = [f'<rect width="{width:g}" height="{height:g}" fill="#f4e7c5"/>']
    for i in CELLS:
        q, r = BOARD.coord(i)
        x, y = cx0 + size * math.sqrt(3) * (q + r / 2), cy0 + size * 1.5 * r
        corners = " ".join(
            f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},"
            f"{y + size * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
        body.append(f'<polygon data-cell="{NAMES[i]}" points="{corners}" fill="#e9d6a6" '
                    f'stroke="#7a6a48"/>')
        value = state.cells[i]
        if value:
            piece = svg.Disc(_RED_DISC if value > 0 else _YELLOW_DISC, label=str(abs(value)),
                             label_fill="#fff" if value > 0 else "#000")
            body.extend(svg.disc(x, y, size * 0.62, piece))
        else:
            body.append(f'<text x="{x:g}" y="{y + size * 0.15:g}" font-size="{size * 0.45:g}" '
                        f'text-anchor="middle" font-family="sans-serif" fill="#9a8a68">'
                        f'{NAMES[i]}</text>')
    to_move = state.current_player
    title = f"Glaisher, ply {state.ply}" + (
        f", {SEAT_NAMES[to_move]} to move" if to_move is not None else ", game over")
    return svg.document(width, height, body, title)


# ---------------------------------------------------------------------------------------------
# Game declaration
# ---------------------------------------------------------------------------------------------
_STACK_TOKEN = re.compile(r"([ry])(\d+)")


@register
class Glaisher(Game):
    """docs/rules/glaisher.md: options §4, start positions §2, rules §3, notation §5."""

    slug = "glaisher"
    title = "Glaisher"
    min_players = max_players = 2
    options = {
        "setup": OptionSpec("ring3", "start position: ring3, ring2, or free (players place their "
                            "own 6-stacks, the advanced rule)", choices=("ring3", "ring2", "free")),
        "reserve": OptionSpec(39, "discs in the shared reserve at the start",
                              choices=("unlimited",), min=0, max=200),
        "repetition": OptionSpec(3, "draw on the N-th occurrence of a position (0: off)",
                                 min=2, max=9, off=0),
        "max_plies": OptionSpec(400, "draw after this many plies without a winner (0: off)",
                                min=1, max=10000, off=0),
    }
    variants = {"standard": {}, "ring2": {"setup": "ring2"}, "advanced": {"setup": "free"}}
    summary = ("A connection game on a 61-cell hexagonal board. On each turn a "
               "player splits one of their stacks of two-sided discs into parts of different "
               "heights that all fly in one direction, each as many cells as it has discs; a "
               "part that lands on an enemy stack no taller than itself flips it and stacks on "
               "top. Then the player adds one disc from a shared reserve. The first player to "
               "join two opposite sides of the board with a chain of their stacks wins, and a "
               "player who cannot split any stack loses.")
    rules_page = "docs/rules/glaisher.md"

    def _new_state(self, players: int, seed: int, options: dict) -> GlaisherState:
        rules = Rules.from_options(options)
        cells = [0] * BOARD.size
        for seat, axials in enumerate(START_CELLS[rules.setup]):
            for q, r in axials:
                cells[BOARD.index(q, r)] = SIGN[seat] * 6
        return self._settled(tuple(cells), RED, rules.reserve, 0, rules)

    def position(self, stacks: str | Mapping[str, int], to_move: int = RED,
                 reserve: int | str | None = None, ply: int = 0,
                 options: Mapping | None = None) -> GlaisherState:
        """A position from a description, as docs/rules/glaisher.md §6 writes them: `"R3 e5 Y2 e6"`
        (`R1 a5 b5` puts R1 on both), or {cell name: signed height}. `reserve` defaults to the
        options' starting reserve. The §3.3 endings are applied to the result."""
        rules = Rules.from_options(self.normalize_options(options))
        cells = [0] * BOARD.size
        items = _stack_items(stacks) if isinstance(stacks, str) else stacks.items()
        for name, value in items:
            if name.lower() not in CELL_BY_NAME:
                raise InvalidStateError(f"no cell {name!r}")
            cells[CELL_BY_NAME[name.lower()]] = int(value)
        if to_move not in (RED, YELLOW):
            raise InvalidStateError(f"to_move must be 0 or 1, not {to_move!r}")
        if reserve is None:
            reserve = rules.reserve
        elif reserve == "unlimited":
            reserve = UNLIMITED
        return self._settled(tuple(cells), to_move, int(reserve), ply, rules)

    @staticmethod
    def _settled(cells: tuple[int, ...], to_move: int, reserve: int, ply: int,
                 rules: Rules) -> GlaisherState:
        """A state for a given position with the §3.3 endings applied (as after a turn)."""
        masks = _masks_of(cells)
        history = ((cells, to_move),) if rules.repetition else ()
        outcome = None
        for seat in (1 - to_move, to_move):
            if masks[seat].bit_count() >= MIN_CHAIN and BOARD.connects(masks[seat]):
                outcome = Outcome.win(seat, 2, Termination.CONNECTION)
                break
        else:
            if ply >= rules.setup_turns and not legal_splits_of(cells, to_move, masks[to_move], True):
                outcome = Outcome.win(1 - to_move, 2, Termination.NO_SPLIT_MOVE)
        return GlaisherState(cells, to_move, reserve, ply, rules, history, outcome, None, masks)

    def state_from_dict(self, d: Mapping) -> GlaisherState:
        try:
            rules = Rules.from_options(self.normalize_options(d["options"]))
            cells = _decode_cells(d["cells"])
            to_move, reserve, ply = int(d["to_move"]), int(d["reserve"]), int(d["ply"])
            history = tuple((_decode_cells(text), int(nxt)) for nxt, text in d["history"])
            outcome = Outcome.from_dict(d["outcome"])
            last = None if d["last_move"] is None else parse_move(d["last_move"])
        except (KeyError, TypeError, ValueError, InvalidOptionsError) as exc:
            raise InvalidStateError(f"not a Glaisher state: {exc}") from exc
        if to_move not in (RED, YELLOW) or reserve < UNLIMITED or ply < 0:
            raise InvalidStateError("not a Glaisher state: bad to_move, reserve or ply")
        return GlaisherState(cells, to_move, reserve, ply, rules, history, outcome, last,
                             _masks_of(cells))


def _stack_items(text: str) -> list[tuple[str, int]]:
    items, current = [], None
    for token in re.split(r"[\s,;]+", text.strip().lower()):
        if not token or token == "on":
            continue
        stack = _STACK_TOKEN.fullmatch(token)
        if stack:
            current = (1 if stack.group(1) == "r" else -1) * int(stack.group(2))
        elif current is None:
            raise InvalidStateError(f"{token!r} comes before any R<h>/Y<h> in {text!r}")
        else:
            items.append((token, current))
    return items


GlaisherState.game = Glaisher.instance
