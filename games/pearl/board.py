"""Lattice geometry shared by the Glass Pearl games (docs/rules/pearl.md §2.1–2.2, §8).

A position is a handful of bitboards: point (x, y) is bit y·W + x with W = N + 1, so one spare
column separates the rows and a shift by a direction's step never wraps onto the board.
"""
from __future__ import annotations

import re
from functools import lru_cache

from games.core import InvalidMoveError
from games import svg

# docs/rules/pearl.md §2.2: N=(0,+1), E=(+1,0), S=(0,−1), W=(−1,0); −d is d ^ 2.
N, E, S, W = 0, 1, 2, 3
DIRECTIONS = (N, E, S, W)
DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIR_LETTERS = "NESW"
_LETTER_DIR = {c: i for i, c in enumerate(DIR_LETTERS)}
_POINT_RE = re.compile(r"([a-z])([0-9]{1,2})")


def opposite(d: int) -> int:
    return d ^ 2


def perpendicular(d: int) -> tuple[int, int]:
    return ((d + 1) & 3, (d + 3) & 3)


def direction_of(letter: str) -> int:
    """A direction letter N E S W (any case) → direction; InvalidMoveError otherwise."""
    try:
        return _LETTER_DIR[letter.upper()]
    except (KeyError, AttributeError):
        raise InvalidMoveError(f"{letter!r} is not a direction (N, E, S or W)") from None


def point_name(x: int, y: int) -> str:
    """docs/rules/pearl.md §2.1: column letter a+x (no letter skipped), then row y+1."""
    return f"{chr(97 + x)}{y + 1}"


def parse_point(text: str, n: int) -> tuple[int, int]:
    """A point name (any case) on the N×N board → (x, y); InvalidMoveError otherwise."""
    m = _POINT_RE.fullmatch(text.strip().lower())
    if not m or m.group(2).startswith("0"):
        raise InvalidMoveError(f"{text!r} is not a point name")
    x, y = ord(m.group(1)) - 97, int(m.group(2)) - 1
    if not (0 <= x < n and 0 <= y < n):
        raise InvalidMoveError(f"{text!r} is off the {n}x{n} board")
    return x, y


class Grid:
    """Index arithmetic and precomputed tables for one board size (shared, never mutated)."""

    def __init__(self, n: int):
        self.n = n
        self.w = w = n + 1
        self.onboard = sum(1 << (y * w + x) for y in range(n) for x in range(n))
        self.step = (w, 1, -w, -1)
        # The shift that reaches the neighbouring lines of a row moving in d (§2.4 contact).
        self.perp_shift = (1, w, 1, w)
        self.nbr = tuple(tuple(self._neighbour(p, d) for p in range(n * w)) for d in DIRECTIONS)
        self.names = tuple(point_name(p % w, p // w) if p % w < n else "" for p in range(n * w))

    def _neighbour(self, p: int, d: int) -> int:
        x, y = p % self.w, p // self.w
        if x >= self.n:
            return -1
        dx, dy = DELTA[d]
        x, y = x + dx, y + dy
        return y * self.w + x if 0 <= x < self.n and 0 <= y < self.n else -1

    def index(self, x: int, y: int) -> int:
        return y * self.w + x

    def xy(self, p: int) -> tuple[int, int]:
        return p % self.w, p // self.w

    def shift(self, mask: int, d: int) -> int:
        """Every bit moved one point in direction d; bits leaving the board vanish."""
        s = self.step[d]
        return ((mask << s) if s > 0 else (mask >> -s)) & self.onboard

    def mask_of(self, points) -> int:
        m = 0
        for x, y in points:
            m |= 1 << (y * self.w + x)
        return m

    def parse(self, text: str) -> int:
        x, y = parse_point(text, self.n)
        return y * self.w + x

    def parse_mask(self, names) -> int:
        """Point names (any case) → their mask; InvalidMoveError for a bad name."""
        return self.mask_of(parse_point(text, self.n) for text in names)

    def point_list(self, mask: int) -> list[str]:
        """Point names of a mask, in index order (row by row from a1)."""
        return [self.names[p] for p in bits(mask)]


@lru_cache(maxsize=None)
def grid(n: int) -> Grid:
    return Grid(n)


def bits(mask: int):
    """The indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def text_diagram(g: Grid, symbol_at) -> str:
    """The diagram format of docs/rules/pearl.md (§3.2, §5.1, §7.2): rows top-down, `.` for an empty point."""
    lines = []
    for y in range(g.n - 1, -1, -1):
        cells = " ".join(symbol_at(y * g.w + x) for x in range(g.n))
        lines.append(f"{y + 1:>3} {cells}")
    lines.append("    " + " ".join(chr(97 + x) for x in range(g.n)))
    return "\n".join(lines)


def svg_diagram(g: Grid, discs: dict[int, svg.Disc], title: str) -> str:
    pieces = {g.xy(p): disc for p, disc in discs.items()}
    return svg.square_board(g.n, g.n, pieces, points=True, cell=28, title=title)


WHITE_DISC = svg.Disc("#f8f8f4")
BLACK_DISC = svg.Disc("#202020")
