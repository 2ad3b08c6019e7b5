"""Board geometry shared by the Hasami Shogi family (docs/rules/hasami.md §2).

Squares are coded `rank * 16 + file` (0-based, rank 0 at Black's side), so a bitboard is a plain
int with bit `code` set per occupied square. The stride of 16 leaves at least four padding files on
every board of the family (at most 12 files), so a shift by one file or one rank never wraps onto
another on-board square: masking with `Board.all` is enough. Everything here is computed once per
board size and cached.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

STRIDE = 16
FILE_LETTERS = "abcdefghijkl"

# Unit steps as (file, rank) deltas; the order fixes the order of generated moves.
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
HALF_ORTHOGONAL = ((1, 0), (0, 1))                  # one direction per line through a square
HALF_DIAGONAL = ((1, 1), (1, -1))

_SQUARE_RE = re.compile(r"([a-l])([1-9])")


def code(file: int, rank: int) -> int:
    return rank * STRIDE + file


def file_of(sq: int) -> int:
    return sq % STRIDE


def rank_of(sq: int) -> int:
    return sq // STRIDE


def square_name(sq: int) -> str:
    return f"{FILE_LETTERS[sq % STRIDE]}{sq // STRIDE + 1}"


def bits_of(bb: int):
    """The square codes set in `bb`, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def spread4(bb: int) -> int:
    """`bb` shifted one step in each orthogonal direction (unmasked; AND with a board mask)."""
    return (bb << 1) | (bb >> 1) | (bb << STRIDE) | (bb >> STRIDE)


@dataclass(frozen=True, eq=False)
class Board:
    """Precomputed masks and rays for a `files` × `ranks` board. Get one with `board(f, r)`."""

    files: int
    ranks: int

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        squares = tuple(code(f, r) for r in range(self.ranks) for f in range(self.files))
        set_(self, "squares", squares)
        set_(self, "all", sum(1 << s for s in squares))
        set_(self, "edge", sum(1 << s for s in squares if self._on_edge(s)))
        set_(self, "corners", sum(1 << code(f, r) for f in (0, self.files - 1)
                                   for r in (0, self.ranks - 1)))
        set_(self, "rank_masks", tuple(sum(1 << code(f, r) for f in range(self.files))
                                       for r in range(self.ranks)))
        # rays[dir_index][sq]: the on-board squares stepping from sq (sq excluded), nearest first
        set_(self, "rays", {d: tuple(self._ray(s, d) if self.on_board(s) else ()
                                     for s in range(self.ranks * STRIDE))
                            for d in ORTHOGONAL + DIAGONAL})
        set_(self, "adjacent4", self._adjacent(ORTHOGONAL))
        set_(self, "adjacent8", self._adjacent(ORTHOGONAL + DIAGONAL))

    def on_board(self, sq: int) -> bool:
        return 0 <= sq < self.ranks * STRIDE and sq % STRIDE < self.files

    def on_board_fr(self, f: int, r: int) -> bool:
        return 0 <= f < self.files and 0 <= r < self.ranks

    def _on_edge(self, sq: int) -> bool:
        f, r = file_of(sq), rank_of(sq)
        return f in (0, self.files - 1) or r in (0, self.ranks - 1)

    def _ray(self, sq: int, d: tuple[int, int]) -> tuple[int, ...]:
        f, r, out = file_of(sq), rank_of(sq), []
        while True:
            f, r = f + d[0], r + d[1]
            if not self.on_board_fr(f, r):
                return tuple(out)
            out.append(code(f, r))

    def _adjacent(self, dirs) -> tuple[int, ...]:
        """Per square: the mask of on-board neighbours along `dirs`."""
        return tuple(sum(1 << ray[0] for d in dirs if (ray := self.rays[d][s]))
                     if self.on_board(s) else 0 for s in range(self.ranks * STRIDE))

    def parse_square(self, text: str) -> int | None:
        """`e5` → its code; None unless it names a square of this board (lowercase)."""
        m = _SQUARE_RE.fullmatch(text)
        if not m:
            return None
        f, r = FILE_LETTERS.index(m.group(1)), int(m.group(2)) - 1
        return code(f, r) if self.on_board_fr(f, r) else None

    def file_letters(self) -> str:
        return FILE_LETTERS[:self.files]


@lru_cache(maxsize=None)
def board(files: int, ranks: int) -> Board:
    if not (1 <= files <= len(FILE_LETTERS) and 1 <= ranks <= 9):
        raise ValueError(f"no {files}x{ranks} board in this family")
    return Board(files, ranks)
