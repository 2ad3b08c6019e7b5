"""Hexagon-shaped boards of hexagonal cells: axial coordinates, directions, sides and bit masks.

Shared geometry for the hex games (design §4). Coordinates are axial `(q, r)` with the implied
third coordinate `s = -q - r`; a board of radius R holds the cells with `max(|q|, |r|, |s|) <= R`
(R = 4 gives the 61-cell board of docs/rules/glaisher.md §2).

Cells are also numbered by a padded index `(r + R) * W + (q + R)` with row width `W = 2R + 2`: one
unused guard column per row means that every neighbour is a fixed shift of the index (E = +1,
SE = +W, ...) and never wraps onto a real cell, so a set of cells is a Python int bit mask and a
flood fill is a handful of shifts per step.
"""
from __future__ import annotations

from typing import Iterator

# The six directions as (dq, dr), counter-clockwise from east with pointy-top cells and r growing
# downwards, so that direction i and direction (i + 3) % 6 are opposite.
E, NE, NW, W, SW, SE = range(6)
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

# The six sides of a hexagonal board, named by the coordinate that sits at its extreme, in
# opposite pairs: side i and side (i + 3) % 6 face each other.
SIDE_NAMES: tuple[str, ...] = ("r-", "q+", "s-", "r+", "q-", "s+")


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two cells (the hex metric)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(q: int, r: int) -> list[tuple[int, int]]:
    """The six cells around (q, r), in DIRECTIONS order (unbounded plane)."""
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def cells_within(radius: int) -> list[tuple[int, int]]:
    """Every (q, r) of a hexagon of the given radius, row by row (r ascending, then q)."""
    return [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
            if abs(q + r) <= radius]


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class HexBoard:
    """A hexagonal board of `radius` with precomputed tables (all read-only once built)."""

    def __init__(self, radius: int):
        if radius < 1:
            raise ValueError(f"a hex board needs radius >= 1, not {radius}")
        self.radius = radius
        self.width = 2 * radius + 2
        self.coords: tuple[tuple[int, int], ...] = tuple(cells_within(radius))
        self.indices: tuple[int, ...] = tuple(self.index(q, r) for q, r in self.coords)
        self.size = self.indices[-1] + 1            # length of an array addressed by index
        self._coord_of = {i: c for i, c in zip(self.indices, self.coords)}
        self.all_mask = sum(1 << i for i in self.indices)
        self.rays: dict[int, tuple[tuple[int, ...], ...]] = {
            i: tuple(self._ray(i, d) for d in range(6)) for i in self.indices}
        self.neighbours: dict[int, tuple[int, ...]] = {
            i: tuple(ray[0] for ray in self.rays[i] if ray) for i in self.indices}
        self.neighbour_masks: dict[int, int] = {
            i: sum(1 << j for j in nb) for i, nb in self.neighbours.items()}
        self.sides: tuple[int, ...] = tuple(self._side_mask(k) for k in range(6))
        self.side_pairs: tuple[tuple[int, int], ...] = tuple(
            (self.sides[k], self.sides[k + 3]) for k in range(3))
        self._shifts = (1, self.width, self.width - 1)

    # -- coordinates ---------------------------------------------------------------------------
    def on_board(self, q: int, r: int) -> bool:
        return max(abs(q), abs(r), abs(q + r)) <= self.radius

    def index(self, q: int, r: int) -> int:
        """Padded index of an on-board cell (ValueError off the board)."""
        if not self.on_board(q, r):
            raise ValueError(f"({q}, {r}) is not on a radius-{self.radius} board")
        return (r + self.radius) * self.width + (q + self.radius)

    def coord(self, index: int) -> tuple[int, int]:
        return self._coord_of[index]

    def is_cell(self, index: int) -> bool:
        return index in self._coord_of

    def step(self, index: int, direction: int, steps: int = 1) -> int | None:
        """The cell `steps` away in `direction`, or None off the board."""
        ray = self.rays[index][direction]
        return ray[steps - 1] if 1 <= steps <= len(ray) else None

    def cell_distance(self, a: int, b: int) -> int:
        return distance(self._coord_of[a], self._coord_of[b])

    def _ray(self, index: int, direction: int) -> tuple[int, ...]:
        (q, r), (dq, dr) = self._coord_of[index], DIRECTIONS[direction]
        out = []
        q, r = q + dq, r + dr
        while self.on_board(q, r):
            out.append(self.index(q, r))
            q, r = q + dq, r + dr
        return tuple(out)

    def _side_mask(self, side: int) -> int:
        """Side 0: r = -R, 1: q = +R, 2: s = -R, 3: r = +R, 4: q = -R, 5: s = +R."""
        R = self.radius
        test = (lambda q, r: r == -R, lambda q, r: q == R, lambda q, r: -q - r == -R,
                lambda q, r: r == R, lambda q, r: q == -R, lambda q, r: -q - r == R)[side]
        return sum(1 << i for i, (q, r) in zip(self.indices, self.coords) if test(q, r))

    # -- bit masks -----------------------------------------------------------------------------
    def grow(self, mask: int) -> int:
        """`mask` and every cell next to it (may include off-board bits: intersect afterwards)."""
        a, b, c = self._shifts
        return mask | mask << a | mask >> a | mask << b | mask >> b | mask << c | mask >> c

    def flood(self, seed: int, within: int) -> int:
        """The cells of `within` connected (edge to edge, inside `within`) to the seed cells."""
        a, b, c = self._shifts
        comp = front = seed & within
        while front:
            front = (front << a | front >> a | front << b | front >> b | front << c
                     | front >> c) & within & ~comp
            comp |= front
        return comp

    def joins_opposite_sides(self, group: int) -> bool:
        """Does this set of cells touch two opposite sides? (corners belong to both their sides)"""
        return any(group & one and group & other for one, other in self.side_pairs)

    def connects(self, mask: int) -> bool:
        """Does some connected group of `mask` join two opposite sides?"""
        for one, other in self.side_pairs:
            if mask & one and mask & other and self.flood(mask & one, mask) & other:
                return True
        return False

    def connects_through(self, mask: int, cells: int) -> bool:
        """Does a group of `mask` containing one of `cells` join two opposite sides?

        When `mask` had no connection before `cells` were added, this is the same as
        `connects(mask)`, but only the groups that changed are flooded.
        """
        todo = cells & mask
        while todo:
            group = self.flood(todo & -todo, mask)
            if self.joins_opposite_sides(group):
                return True
            todo &= ~group
        return False

    def __repr__(self) -> str:
        return f"<HexBoard radius={self.radius} cells={len(self.coords)}>"
