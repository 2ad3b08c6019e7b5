"""Engines for the Hasami Shogi family (docs/rules/hasami.md §7): `hasami-shogi`, `dai-hasami-shogi`,
`mak-yek`, `latrunculi`.

The evaluator reads the documented state attributes (bitboards `black`/`white`/`duces`, `captures`,
`men`, `to_move`, `rules`) and the family's own capture test, so captures can be searched in
quiescence and tried first. Terms, from docs/rules/hasami.md §7:
- material, weighted against the JSA thresholds where they apply (a lead of 2 is one capture from a
  lead the opponent must answer at once; one capture short of the goal is nearly won);
- the lead rule: a side to move that trails by the lead must capture now, so its position stands
  as lost until quiescence finds the capture that answers it;
- exposed men (an enemy man on one side, an empty square on the other, along a capture line);
- liberties (empty squares next to a side's men), a cheap stand-in for mobility and for edge
  groups about to be enclosed;
- Dai Hasami: lines of 3 and 4 outside the home ranks; Latrunculi: free squares next to the dux.
"""
from __future__ import annotations

import math

from games.hasami.family import captured_men
from games.hasami.geometry import STRIDE, spread4

from .base import Evaluator
from .table import alphabeta_levels, register_levels

# Bit shifts for one step along each kind of line (square code = rank * 16 + file).
ORTHO_SHIFTS = (1, STRIDE)
DIAG_SHIFTS = (STRIDE + 1, STRIDE - 1)


def _exposed(mine: int, enemy: int, empty: int, shifts) -> int:
    """Men of `mine` with an enemy on one side and an empty square on the other along a line."""
    out = 0
    for k in shifts:
        out |= mine & (((enemy << k) & (empty >> k)) | ((enemy >> k) & (empty << k)))
    return out.bit_count()


def _squares(bb: int):
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _runs(men: int, shifts, length: int) -> int:
    """How many `length`-long runs of `men` lie along the lines of `shifts` (overlaps count)."""
    total = 0
    for k in shifts:
        run = men
        for i in range(1, length):
            run &= men >> (k * i)
        total += run.bit_count()
    return total


class HasamiEvaluator(Evaluator):
    """Static evaluation and capture ordering for the whole family (docs/rules/hasami.md §7)."""

    playout_cutoff = 40

    def __init__(self, material: float = 0.16, exposed: float = 0.03, liberty: float = 0.004,
                 lines: float = 0.05, dux: float = 0.08) -> None:
        self.w_material, self.w_exposed, self.w_liberty = material, exposed, liberty
        self.w_lines, self.w_dux = lines, dux

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, state, seat: int) -> float:
        return math.tanh(self.score(state, seat))

    def score(self, state, seat: int) -> float:
        """An unbounded score for `seat` (about 0.16 per man)."""
        r = state.rules
        mine, theirs = (state.white, state.black) if seat else (state.black, state.white)
        me_cap, opp_cap = state.captures[seat], state.captures[1 - seat]
        if r.lead_rule and state.to_move == seat and opp_cap - me_cap >= r.lead_rule:
            return -4.0
        if r.lead_rule and state.to_move != seat and me_cap - opp_cap >= r.lead_rule:
            return 4.0
        score = self._material(r, mine.bit_count() - theirs.bit_count(), me_cap, opp_cap)
        empty = r.board.all & ~(mine | theirs)
        shifts = r.custodial_dirs and (ORTHO_SHIFTS + DIAG_SHIFTS
                                       if len(r.custodial_dirs) > 4 else ORTHO_SHIFTS)
        men_mine, men_theirs = mine & ~state.duces, theirs & ~state.duces
        exposed = (_exposed(men_mine, theirs, empty, shifts)
                   - _exposed(men_theirs, mine, empty, shifts))
        # Exposure matters more for the side that must wait: the side to move strikes first.
        score -= self.w_exposed * exposed * (1.5 if state.to_move != seat else 1.0)
        score += self.w_liberty * ((spread4(mine) & empty).bit_count()
                                   - (spread4(theirs) & empty).bit_count())
        if r.five_shifts:
            score += self.w_lines * (self._line_potential(r, mine, seat)
                                     - self._line_potential(r, theirs, 1 - seat))
        if state.duces:
            score += self._blockade(state, mine, theirs, empty)
        return score

    def _blockade(self, state, mine: int, theirs: int, empty: int) -> float:
        """Latrunculi ends by blockade (§7): free squares next to each dux, and, as the enemy
        runs out of men, how close our men stand to the enemy dux (the blockade must be built)."""
        my_dux, their_dux = state.duces & mine, state.duces & theirs
        score = self.w_dux * ((spread4(my_dux) & empty).bit_count()
                              - (spread4(their_dux) & empty).bit_count())
        their_men = (theirs & ~state.duces).bit_count()
        if their_dux and their_men <= 4:
            d = their_dux.bit_length() - 1
            df, dr = d % STRIDE, d // STRIDE
            gaps = sorted(abs(p % STRIDE - df) + abs(p // STRIDE - dr)
                          for p in _squares(mine & ~state.duces))[:4]
            score -= 0.01 * (5 - their_men) * sum(gaps)
        return score

    def _material(self, r, diff: int, me_cap: int, opp_cap: int) -> float:
        score = self.w_material * diff
        goal = r.capture_goal if isinstance(r.capture_goal, int) else 0
        if goal:
            score += 0.25 * (me_cap >= goal - 1) - 0.25 * (opp_cap >= goal - 1)
        if r.lead_rule:
            lead = me_cap - opp_cap
            score += 0.1 * (lead >= r.lead_rule - 1) - 0.1 * (-lead >= r.lead_rule - 1)
        return score

    @staticmethod
    def _line_potential(r, men: int, seat: int) -> float:
        off_home = men & ~r.homes[seat]
        return (_runs(off_home, r.five_shifts, 3) + 3 * _runs(off_home, r.five_shifts, 4))

    # -- search hooks --------------------------------------------------------------------------
    @staticmethod
    def captures_of(state, move) -> int:
        """The enemy men `move` would remove (a bitboard), computed without playing it."""
        r = state.rules
        mine, theirs = (state.white, state.black) if state.to_move else (state.black, state.white)
        if not r.near[move.dst] & theirs:
            return 0
        mine ^= (1 << move.src) | (1 << move.dst)
        return captured_men(r, move.dst, mine, theirs & ~state.duces)

    @staticmethod
    def _capturing(state, moves: list) -> list:
        """(men taken, index, move) for the moves that capture, most first."""
        r = state.rules
        mine, theirs = (state.white, state.black) if state.to_move else (state.black, state.white)
        near, men, out = r.near, theirs & ~state.duces, []
        for i, m in enumerate(moves):
            if near[m.dst] & theirs:
                cap = captured_men(r, m.dst, mine ^ (1 << m.src) ^ (1 << m.dst), men)
                if cap:
                    out.append((cap.bit_count(), i, m))
        out.sort(key=lambda t: (-t[0], t[1]))
        return out

    def order_moves(self, state, moves: list) -> list:
        capturing = self._capturing(state, moves)
        if not capturing:
            return moves
        first = [m for _, _, m in capturing]
        taken = set(first)
        return first + [m for m in moves if m not in taken]

    def noisy_moves(self, state, moves: list) -> list:
        return [m for _, _, m in self._capturing(state, moves)]

    def playout_move(self, state, moves, rng):
        """Rollouts take a capture when one is offered, else move at random."""
        for _ in range(4):
            move = moves[rng.randrange(len(moves))]
            if self.captures_of(state, move):
                return move
        return moves[rng.randrange(len(moves))]

    def table_key(self, state):
        """Squares, side to move and capture counts (not the repetition history)."""
        return (state.key, state.captures)


for _slug in ("hasami-shogi", "dai-hasami-shogi", "mak-yek", "latrunculi"):
    register_levels(_slug, alphabeta_levels(HasamiEvaluator))
