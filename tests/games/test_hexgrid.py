"""games/hexgrid.py: axial geometry, the padded index, rays, sides and bitset flood fills."""
from __future__ import annotations

from random import Random

import pytest

from games.hexgrid import (
    DIRECTION_NAMES, DIRECTIONS, E, NE, NW, SE, SW, W, HexBoard, cells_within, distance,
    iter_bits, neighbours, opposite,
)

BOARD = HexBoard(4)


def _bits(cells):
    return sum(1 << BOARD.index(q, r) for q, r in cells)


def test_directions_are_the_six_unit_steps_in_opposite_pairs():
    assert len(set(DIRECTIONS)) == 6 and DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")
    assert (DIRECTIONS[E], DIRECTIONS[W], DIRECTIONS[NE]) == ((1, 0), (-1, 0), (1, -1))
    assert (DIRECTIONS[NW], DIRECTIONS[SE], DIRECTIONS[SW]) == ((0, -1), (0, 1), (-1, 1))
    for d, (dq, dr) in enumerate(DIRECTIONS):
        assert DIRECTIONS[opposite(d)] == (-dq, -dr)
        assert distance((0, 0), (dq, dr)) == 1


def test_cells_within_a_radius():
    assert [len(cells_within(n)) for n in range(1, 6)] == [7, 19, 37, 61, 91]
    assert all(max(abs(q), abs(r), abs(q + r)) <= 4 for q, r in cells_within(4))
    assert len(set(cells_within(4))) == 61


def test_distance_and_neighbours():
    assert distance((0, 0), (4, -4)) == 4
    assert distance((-4, 4), (4, -4)) == 8
    assert distance((-4, 0), (4, 0)) == 8
    assert distance((1, 2), (1, 2)) == 0
    assert sorted(neighbours(0, 0)) == sorted(DIRECTIONS)


def test_board_tables():
    assert len(BOARD.coords) == 61 and BOARD.width == 10
    assert BOARD.all_mask.bit_count() == 61
    assert BOARD.coord(BOARD.index(2, -3)) == (2, -3)
    with pytest.raises(ValueError):
        BOARD.index(5, 0)
    with pytest.raises(ValueError):
        HexBoard(0)
    counts = sorted(len(BOARD.neighbours[i]) for i in BOARD.indices)
    assert counts.count(3) == 6 and counts.count(4) == 18 and counts.count(6) == 37
    assert all(BOARD.neighbour_masks[i].bit_count() == len(BOARD.neighbours[i])
               for i in BOARD.indices)


def test_rays_and_steps():
    centre = BOARD.index(0, 0)
    assert [len(ray) for ray in BOARD.rays[centre]] == [4] * 6
    corner = BOARD.index(4, -4)
    assert sorted(len(ray) for ray in BOARD.rays[corner]) == [0, 0, 0, 4, 4, 8]
    assert BOARD.step(centre, E, 4) == BOARD.index(4, 0)
    assert BOARD.step(centre, E, 5) is None
    assert BOARD.step(centre, SW, 2) == BOARD.index(-2, 2)
    assert BOARD.cell_distance(corner, BOARD.index(-4, 4)) == 8
    longest = max(len(ray) for rays in BOARD.rays.values() for ray in rays)
    assert longest == 8


def test_sides_pairs_and_corners():
    assert [side.bit_count() for side in BOARD.sides] == [5] * 6
    corners = [BOARD.index(q, r) for q, r in
               ((4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4))]
    for corner in corners:
        assert sum(1 for side in BOARD.sides if side >> corner & 1) == 2
    for one, other in BOARD.side_pairs:
        assert one & other == 0
    assert BOARD.sides[0] == _bits((q, -4) for q in range(0, 5))
    assert BOARD.sides[3] == _bits((q, 4) for q in range(-4, 1))


def test_iter_bits():
    assert list(iter_bits(0)) == []
    assert list(iter_bits(0b101001)) == [0, 3, 5]


def _naive_component(seed_cell, mask):
    seen, todo = {seed_cell}, [seed_cell]
    while todo:
        cell = todo.pop()
        for nb in BOARD.neighbours[cell]:
            if mask >> nb & 1 and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return sum(1 << c for c in seen)


def test_flood_matches_a_plain_search():
    rng = Random(11)
    for _ in range(300):
        mask = sum(1 << i for i in BOARD.indices if rng.random() < 0.55)
        cells = list(iter_bits(mask))
        if not cells:
            continue
        seed = rng.choice(cells)
        assert BOARD.flood(1 << seed, mask) == _naive_component(seed, mask)
        assert BOARD.flood(1 << seed, 0) == 0


def test_grow_never_wraps_onto_another_row():
    for i in BOARD.indices:
        grown = BOARD.grow(1 << i) & BOARD.all_mask
        assert grown == (1 << i) | BOARD.neighbour_masks[i]


def test_connections():
    row = _bits((q, 0) for q in range(-4, 5))                  # q = -4 side to q = +4 side
    assert BOARD.connects(row)
    assert not BOARD.connects(row & ~_bits([(0, 0)]))
    assert BOARD.connects_through(row, _bits([(0, 0)]))
    diagonal = _bits((0, r) for r in range(-4, 5))             # row i to row a
    assert BOARD.connects(diagonal)
    # a5 to g3: the lower-right side (s = -4) to the upper-left (s = +4) through a corner
    bent = _bits([(0, 4), (0, 3), (0, 2), (0, 1), (0, 0), (0, -1), (0, -2), (-1, -2), (-2, -2)])
    assert BOARD.connects(bent)
    two_sides_not_opposite = _bits([(4, -4), (3, -4), (2, -4)])
    assert not BOARD.connects(two_sides_not_opposite)
    assert BOARD.joins_opposite_sides(_bits([(4, 0), (-4, 0)]))
    assert not BOARD.connects(_bits([(4, 0), (-4, 0)]))
