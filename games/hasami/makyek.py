"""Mak-yek (Thailand; Apit-sodok in Malaysia), docs/rules/hasami.md §3.5.

The seed gives only the board (8x8) and the start (16 stones each on the 1st and 3rd rows); the
captures (custodial plus intervention) and the goal (take every enemy man) are reconstructed
(docs/rules/hasami.md §1).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..registry import register
from .family import (
    SHARED_OPTIONS, FamilyGame, end_all_captured, end_no_capture, end_no_moves, end_repetition,
)
from .geometry import HALF_ORTHOGONAL, ORTHOGONAL

FILES = "abcdefgh"


@register
class MakYek(FamilyGame):
    """docs/rules/hasami.md §3.5 (mak-yek) and §4."""

    slug = "mak-yek"
    title = "Mak-yek"
    rules_page = "docs/rules/hasami.md"
    summary = (
        "The Thai sandwich game (Apit-sodok in Malaysia): sixteen men a side on an 8x8 board, in "
        "two rows each. Men move like rooks. Enemy men caught between two of yours are removed, "
        "and a man that steps in between two enemy men on a rank or file removes both. Take "
        "every enemy man to win.")
    options = dict(SHARED_OPTIONS)
    variants = {"standard": {}}
    files = ranks = 8
    start_black = tuple(f"{f}{r}" for r in (1, 3) for f in FILES)
    start_white = tuple(f"{f}{r}" for r in (6, 8) for f in FILES)

    def configure(self, options: Mapping[str, Any]) -> dict:
        return {
            "custodial_dirs": ORTHOGONAL,                       # the edge never closes a run
            "intervention_dirs": HALF_ORTHOGONAL,               # §3.2c on both orthogonal lines
            # §3.5: all captured, no moves, repetition, no-capture limit, in this order
            "end_rules": (end_all_captured, end_no_moves, end_repetition, end_no_capture),
        }
