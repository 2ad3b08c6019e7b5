"""Dai Hasami Shogi (大はさみ将棋), docs/rules/hasami.md §3.5: 18 men a side, jumps, five in a row.

Not in the seed; the rules follow common modern descriptions (docs/rules/hasami.md §1).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core import OptionSpec
from ..registry import register
from .family import (
    ANY_LENGTH, SHARED_OPTIONS, FamilyGame, end_five, end_no_capture, end_no_moves,
    end_repetition, end_too_few_men,
)
from .geometry import ORTHOGONAL, STRIDE

FILES = "abcdefghi"
# Bit shifts that step along a line (geometry.py square codes): rank, file, both diagonals.
ORTHO_SHIFTS = (1, STRIDE)
DIAG_SHIFTS = (STRIDE + 1, STRIDE - 1)


@register
class DaiHasamiShogi(FamilyGame):
    """docs/rules/hasami.md §3.5 (dai-hasami-shogi) and §4."""

    slug = "dai-hasami-shogi"
    title = "Dai Hasami Shogi"
    rules_page = "docs/rules/hasami.md"
    summary = (
        "Big Hasami Shogi: eighteen men a side on a 9x9 board, two home ranks each. A man slides "
        "like a rook or jumps over one neighbouring man onto the square beyond. Sandwiched enemy "
        "men, and a lone man shut into a corner, are removed. Win by lining up five of your men "
        "in a row (across, down, or diagonally by default) outside your own two home ranks.")
    options = {
        **SHARED_OPTIONS,
        "line_dirs": OptionSpec("ortho_diag", "lines that count for the five",
                                choices=("ortho", "ortho_diag")),
        "five_must_survive_reply": OptionSpec(False, "a five must outlive one reply"),
        "custodial_max": OptionSpec("any", "the longest run that can be taken",
                                    choices=("any", 1), aliases={"1": 1}),
    }
    variants = {"standard": {}}
    files = ranks = 9
    start_black = tuple(f"{f}{r}" for r in (1, 2) for f in FILES)
    start_white = tuple(f"{f}{r}" for r in (8, 9) for f in FILES)
    man_labels = ("歩", "と")

    def configure(self, options: Mapping[str, Any]) -> dict:
        diagonal = options["line_dirs"] == "ortho_diag"
        return {
            "custodial_dirs": ORTHOGONAL,                       # the edge never closes a run
            "custodial_max": ANY_LENGTH if options["custodial_max"] == "any" else 1,
            "enclosure": "corner_only",
            "jumps": True,
            "five_shifts": ORTHO_SHIFTS + DIAG_SHIFTS if diagonal else ORTHO_SHIFTS,
            "five_must_survive": options["five_must_survive_reply"],
            # §3.5: fives, no moves, too few men, repetition, no-capture limit, in this order
            "end_rules": (end_five, end_no_moves, end_too_few_men, end_repetition,
                          end_no_capture),
        }
