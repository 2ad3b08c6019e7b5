"""The two pushing primitives every Glass Pearl game is built from (docs/rules/pearl.md §2.3–2.5).

Positions are bitboards over a `Grid` (see board.py); a game keeps one bitboard per kind of pearl
(a "layer": a colour, a seat) and passes the masks a rule needs:

- **slide-push** `(X, d, k)` (§2.4): `slide_length` walks the pusher step by step and returns K,
  the number of unit steps it can take; since every prefix of a legal slide is legal, the legal
  slides of (X, d) are exactly k = 1..K. `slide` then performs a chosen k on the layers. The
  games differ only in the parameters: the contact mask `ok`, the `enter` mask a step's target
  must lie in, whether a pearl may be pushed off, the `ban` mask of points a moving row may not
  contain, and a step limit.
- **push-in** `(p, d)` (§2.5): `run` finds the touching run from p, `push_in_points` lists every
  p a push-in in direction d may use (bitboards, for move generation), and `shift_layers` moves a
  run; the games add the new pearl on p and apply their own edge rules (§4.2, §7.3).
"""
from __future__ import annotations

from .board import Grid, opposite


def run(g: Grid, occ: int, q: int, d: int) -> tuple[int, int]:
    """§2.3 run(q, d) as (mask, front): q and the occupied points touching it in direction d."""
    nb = g.nbr[d]
    mask, front = 1 << q, q
    while True:
        nxt = nb[front]
        if nxt < 0 or not (occ >> nxt) & 1:
            return mask, front
        front = nxt
        mask |= 1 << nxt


def contact(g: Grid, row: int, d: int, ok: int) -> bool:
    """§2.4 C(R, d, ok): an ok pearl of the row touches an ok pearl in a neighbouring line."""
    s = g.perp_shift[d]
    f = row & ok
    return bool(((f << s) | (f >> s)) & ok)


def shift_layers(g: Grid, layers, row: int, d: int) -> tuple[int, ...]:
    """Every pearl of `row` moved one point along d; a pearl leaving the board is removed."""
    keep = ~row
    return tuple((layer & keep) | g.shift(layer & row, d) for layer in layers)


def slide_length(g: Grid, occ: int, ok: int, q: int, d: int, *, enter: int | None = None,
                 max_k: int = 0, push_off: bool = True, ban: int = 0) -> int:
    """K for the slide of the pearl on q in direction d (§2.4): steps 1..K are legal in sequence.

    Each unit step needs, in the order of docs/rules/pearl.md §2.4: (1) contact before — for t > 1 this is the
    previous step's after-check on the same row, so only step 1 tests it; (2) the step
    conditions: the pusher's next point on the board and, when `enter` is given, in `enter`
    (§5.3, §6.3), and no point of `ban` in the moving row (§3.4); (3) the shift, the front
    leaving the board only if `push_off`; (4) contact after, on the grown row. `max_k` = 0 means
    no limit. `ok` and `enter` are masks of pearls; they travel with the pearls they mark.
    """
    nb, s, ps = g.nbr[d], g.step[d], g.perp_shift[d]
    up, sh = s > 0, abs(s)
    limit = max_k or g.n  # the pusher cannot take more than N − 1 steps anyway
    row, front = 1 << q, q
    k = -1  # steps known legal; -1 until contact before step 1 holds
    while True:
        while True:  # run(q, d), inlined and grown in place: the engines' innermost loop
            nxt = nb[front]
            if nxt < 0 or not (occ >> nxt) & 1:
                break
            front = nxt
            row |= 1 << nxt
        f = row & ok
        if not ((f << ps) | (f >> ps)) & ok:  # (1) before step 1, else (4) after step k + 1
            break
        k += 1
        if k >= limit:
            break
        nq = nb[q]
        if nq < 0 or (enter is not None and not (enter >> nq) & 1) or row & ban:
            break
        nf = nb[front]
        if nf < 0 and not push_off:
            break
        # (3) shift the row; only a front leaving the board needs masking (it is removed)
        keep, okrow = ~row, ok & row
        if up:
            moved, okrow = row << sh, okrow << sh
        else:
            moved, okrow = row >> sh, okrow >> sh
        if enter is not None:
            er = enter & row
            enter = (enter & keep) | ((er << sh) if up else (er >> sh))
        if nf < 0:
            moved &= g.onboard
            okrow &= g.onboard
            if enter is not None:
                enter &= g.onboard
        else:
            front = nf
        occ = (occ & keep) | moved
        ok = (ok & keep) | okrow
        q, row = nq, moved  # the row grows by the pearls it touches now, at the loop's top
    return k if k > 0 else 0


def slide(g: Grid, layers, q: int, d: int, k: int) -> tuple[tuple[int, ...], int]:
    """Perform a slide already known legal: (new layers, mask of every displaced pearl).

    Rows only grow during a slide, so the last step's row, shifted, holds every pearl the slide
    moved (pusher included) that is still on the board.
    """
    occ = 0
    for layer in layers:
        occ |= layer
    nb = g.nbr[d]
    moved = 0
    for _ in range(k):
        row, _front = run(g, occ, q, d)
        layers = shift_layers(g, layers, row, d)
        moved = g.shift(row, d)
        occ = (occ & ~row) | moved
        q = nb[q]
    return tuple(layers), moved


def edge_line(g: Grid, d: int) -> int:
    """The points whose neighbour in direction d is off the board."""
    return g.onboard & ~g.shift(g.onboard, opposite(d))


def push_in_points(g: Grid, occ: int, d: int, single: bool = False) -> int:
    """Mask of the p for which the push-in (p, d) is legal with nothing leaving the board (§2.5).

    p is occupied, p − d an empty point on the board, and the front of run(p, d) has a point
    beyond it; with `single` (§4.2 push=single) p + d itself must be empty.
    """
    empty = g.onboard & ~occ
    cand = occ & g.shift(empty, d)
    if single:
        return cand & g.shift(empty, opposite(d))
    back = opposite(d)
    blocked = occ & edge_line(g, d)
    while True:  # occupied points whose run reaches the edge
        grown = blocked | (occ & g.shift(blocked, back))
        if grown == blocked:
            break
        blocked = grown
    return cand & ~blocked
