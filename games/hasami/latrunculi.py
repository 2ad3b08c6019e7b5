"""Ludus latrunculorum, docs/rules/hasami.md §3.5: Kowalski's 8x12 reconstruction.

The Roman rules are lost; the seed names only the game and its 12x8 board. Men and a dux per side,
single-man custodial captures and corner captures; a side that cannot move loses.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..registry import register
from .family import SHARED_OPTIONS, FamilyGame, end_no_capture, end_no_moves, end_repetition
from .geometry import ORTHOGONAL

FILES = "abcdefghijkl"


@register
class Latrunculi(FamilyGame):
    """docs/rules/hasami.md §3.5 (latrunculi) and §4. Duces are given to `position(duces=[...])`."""

    slug = "latrunculi"
    title = "Latrunculi"
    rules_page = "docs/rules/hasami.md"
    summary = (
        "The Roman soldiers' game (Ludus latrunculorum) in Kowalski's reconstruction: on a 12x8 "
        "board each side has twelve men and a dux, all moving like rooks. A lone enemy man "
        "between two of your pieces, or shut into a corner, is removed; two in a row are safe, "
        "and the dux is never taken. Leave your opponent without a legal move to win.")
    options = dict(SHARED_OPTIONS)
    variants = {"standard": {}}
    files, ranks = 12, 8
    start_black = tuple(f"{f}1" for f in FILES) + ("g2",)
    start_white = tuple(f"{f}8" for f in FILES) + ("f7",)
    start_duces = ("g2", "f7")

    def configure(self, options: Mapping[str, Any]) -> dict:
        return {
            "custodial_dirs": ORTHOGONAL,                       # the edge never closes a run
            "custodial_max": 1,
            "enclosure": "corner_only",                         # the corner capture
            # §3.5: no moves, repetition, no-capture limit
            "end_rules": (end_no_moves, end_repetition, end_no_capture),
        }
