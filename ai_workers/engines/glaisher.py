"""Engines for Glaisher (docs/rules/glaisher.md §7): alpha-beta over a pruned move list.

A turn is a split and a placement, so positions offer hundreds to thousands of turns. Following
the engine notes, search treats the turn as its two decisions for pruning: the most promising
splits (captures first, then the tallest parts) are paired with the most promising placement
cells (next to the mover's stacks and the opponent's), so every node looks at a few dozen turns.
Turns that need no placement (a winning split, an empty reserve) are always kept.

The evaluation is the Hex-like connection distance of each side (the game's own
`connection_distance`), the stacks that can still split (running out of splits loses) and a
small tempo term.
"""
from __future__ import annotations

import math

from games.glaisher import BOARD

from .base import Evaluator
from .table import ERROR_RATES, alphabeta_levels, register_levels

NO_PATH = 12          # a distance for a side that can no longer connect at all


class GlaisherEvaluator(Evaluator):
    """Connection race, split mobility, tempo; and the split × placement pruning above."""

    playout_cutoff = 6

    def __init__(self, splits: int = 10, places: int = 5, distance: float = 0.3,
                 mobility: float = 0.06) -> None:
        self.splits, self.places = splits, places
        self.w_distance, self.w_mobility = distance, mobility

    def _distance(self, state, seat: int) -> int:
        d = state.connection_distance(seat)
        return NO_PATH if d is None else d

    def _movable(self, state, seat: int) -> int:
        """Stacks of height 3 or more (the ones that have a split, blocked or not)."""
        mask, cells, n = state.mask(seat), state.cells, 0
        while mask:
            low = mask & -mask
            mask ^= low
            if abs(cells[low.bit_length() - 1]) >= 3:
                n += 1
        return n

    def evaluate(self, state, seat: int) -> float:
        if state.in_setup:
            return 0.0
        other = 1 - seat
        score = self.w_distance * (self._distance(state, other) - self._distance(state, seat))
        mine, theirs = self._movable(state, seat), self._movable(state, other)
        score += self.w_mobility * (mine - theirs)
        if mine == 0 and state.to_move == seat:
            return -0.95
        if state.to_move == seat:
            score += 0.1
        return math.tanh(score)

    # -- pruning -------------------------------------------------------------------------------
    def _place_scores(self, state) -> dict:
        own, enemy = state.mask(state.to_move), state.mask(1 - state.to_move)
        near_own, near_enemy = BOARD.grow(own), BOARD.grow(enemy)
        scores = {}
        for i in range(BOARD.size):
            if BOARD.is_cell(i) and not state.cells[i]:
                scores[i] = 2 * (near_own >> i & 1) + (near_enemy >> i & 1)
        return scores

    def _split_score(self, state, split) -> int:
        sign = 1 if state.to_move == 0 else -1
        captures = sum(p for t, p in split.targets if state.cells[t] * sign < 0)
        return 10 * captures + max(split.parts)

    def order_moves(self, state, moves: list) -> list:
        """A pruned and ordered move list: the best `splits` splits × best `places` cells."""
        if len(moves) <= self.splits * self.places or state.in_setup:
            if state.in_setup:
                scores = self._place_scores(state)
                return sorted(moves, key=lambda m: -scores.get(m.place, 0))[:self.splits * 2]
            return moves
        by_split: dict = {}
        for move in moves:
            by_split.setdefault(move.split, []).append(move)
        ranked = sorted(by_split, key=lambda s: -self._split_score(state, s))[:self.splits]
        place_scores = self._place_scores(state)
        out = [m for m in moves if m.place is None]   # winning splits, or no reserve left
        for split in ranked:
            options = by_split[split]
            options = [m for m in options if m.place is not None]
            options.sort(key=lambda m: -place_scores.get(m.place, 0))
            out.extend(options[:self.places])
        return out

    def root_moves(self, state, moves: list) -> list:
        first = self.order_moves(state, moves)
        chosen = set(first)
        return first + [m for m in moves if m not in chosen]


# The one-ply easy level is close to medium at short budgets (bench.levels: 60 % at 25 % errors),
# so it errs more often here.
register_levels("glaisher", alphabeta_levels(GlaisherEvaluator, easy_depth=1,
                                             error_rates={**ERROR_RATES, "easy": 0.4}))
