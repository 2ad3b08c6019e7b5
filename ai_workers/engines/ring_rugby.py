"""Engines for Ring Rugby (docs/rules/ring-rugby.md): alpha-beta with a race evaluator.

The game is won by carrying a ring into the enemy goal, so the evaluator measures, for each side,
how far its best carrier still has to go (ranks to the end line, plus files to the entry cells),
how many rings it holds, and how many pieces it has on the field. It reads the public state
(`black`, `white`, `rings` bitboards over the padded index space of the game's geometry).
"""
from __future__ import annotations

import math

from .base import Evaluator
from .table import alphabeta_levels, register_levels


class RingRugbyEvaluator(Evaluator):
    """Race distance of the best carrier, rings held, pieces on the field."""

    playout_cutoff = 12

    def __init__(self, race: float = 0.12, ring: float = 0.35, piece: float = 0.06) -> None:
        self.race, self.ring, self.piece = race, ring, piece

    @staticmethod
    def _carrier_distance(geo, carriers: int, seat: int) -> int:
        """Plies a carrier of `seat` needs at best to reach an entry cell and score (king steps)."""
        entry_files = [i % geo.stride for i in geo.entry[seat]]
        low, high = min(entry_files), max(entry_files)
        best = 2 * geo.depth + geo.w
        m = carriers
        while m:
            bit = m & -m
            i = bit.bit_length() - 1
            m ^= bit
            row, col = divmod(i, geo.stride)
            rows = geo.depth - row if seat == 0 else row - 1
            cols = low - col if col < low else (col - high if col > high else 0)
            best = min(best, max(rows, cols) + 1)
        return best

    def evaluate(self, state, seat: int) -> float:
        geo = state.geo
        mine, theirs = (state.white, state.black) if seat else (state.black, state.white)
        on = geo.on_mask
        score = self.piece * ((mine & on).bit_count() - (theirs & on).bit_count())
        score += self.ring * ((state.rings & mine).bit_count() - (state.rings & theirs).bit_count())
        mine_d = self._carrier_distance(geo, state.rings & mine, seat)
        theirs_d = self._carrier_distance(geo, state.rings & theirs, 1 - seat)
        score += self.race * (theirs_d - mine_d)
        if state.to_move == seat:
            score += 0.05
        return math.tanh(score)

    def table_key(self, state):
        return state.key()


register_levels("ring-rugby", alphabeta_levels(RingRugbyEvaluator))
