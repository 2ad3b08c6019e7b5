"""Hasami Shogi (はさみ将棋), docs/rules/hasami.md §2–§3: the `standard` (JSA) game and `tenbin`.

Rook moves, custodial capture of a run of any length, enclosure against the edge (§3.2b), and the
JSA end rule: a capture goal and a lead that must be answered at once (§3.3). The `tenbin` variant
(はさみ天秤端落とし, §3.4) adds diagonal lines, hashi-otoshi and intervention by the mover.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core import OptionSpec
from ..registry import register
from .family import (
    SHARED_OPTIONS, FamilyGame, end_capture_goal, end_lead, end_no_capture, end_no_moves,
    end_repetition,
)
from .geometry import DIAGONAL, HALF_DIAGONAL, HALF_ORTHOGONAL, ORTHOGONAL

FILES = "abcdefghi"


@register
class HasamiShogi(FamilyGame):
    """docs/rules/hasami.md §2–§4. `position(...)` (see FamilyGame) sets up test positions."""

    slug = "hasami-shogi"
    title = "Hasami Shogi"
    rules_page = "docs/rules/hasami.md"
    summary = (
        "The Japanese game of sandwiches, played with shogi pawns on a 9x9 board. Each side starts "
        "with nine men on its home rank; a man moves like a rook. Trap a line of enemy men between "
        "two of yours, or shut a group in against the edge, and they are removed; stepping in "
        "between two enemies is safe. Take five men, or stay three ahead after your opponent's "
        "reply, to win (the Japan Shogi Association rule). The tenbin variant adds diagonal "
        "sandwiches, captures against the edge, and capture by stepping in between two enemies, "
        "and is played until one side has a single man left.")
    options = {
        **SHARED_OPTIONS,
        "enclosure": OptionSpec("edge_groups", "which enclosures capture (§3.2b)",
                                choices=("none", "corner_only", "edge_groups")),
        "capture_goal": OptionSpec(5, "captures that win at once (§3.3.1)",
                                   choices=("all_but_one",), min=1, max=8),
        "lead_rule": OptionSpec(3, "a lead that survives one reply wins (0: off)",
                                min=1, max=8, off=0),
        "directions": OptionSpec(4, "custodial and intervention lines", choices=(4, 8)),
        "hashi_otoshi": OptionSpec(False, "the edge closes a run (§3.4)"),
        "tenbin": OptionSpec(False, "intervention by the mover (§3.2c)"),
    }
    variants = {
        "standard": {},
        # §3.4: with the standard end rules this set-up is a forced win for Black by ply 3, so
        # the named variant plays on to all but one man, with no lead rule.
        "tenbin": {"directions": 8, "hashi_otoshi": True, "tenbin": True,
                   "lead_rule": 0, "capture_goal": "all_but_one"},
    }
    files = ranks = 9
    start_black = tuple(f"{f}1" for f in FILES)
    start_white = tuple(f"{f}9" for f in FILES)
    man_labels = ("歩", "と")

    def configure(self, options: Mapping[str, Any]) -> dict:
        eight = options["directions"] == 8
        halves = HALF_ORTHOGONAL + HALF_DIAGONAL if eight else HALF_ORTHOGONAL
        return {
            "custodial_dirs": ORTHOGONAL + DIAGONAL if eight else ORTHOGONAL,
            "edge_closes": options["hashi_otoshi"],
            "intervention_dirs": halves if options["tenbin"] else (),
            "enclosure": options["enclosure"],
            "capture_goal": options["capture_goal"],
            "lead_rule": options["lead_rule"],
            # §3.3: capture goal, lead, no moves, repetition, no-capture limit, in this order
            "end_rules": (end_capture_goal, end_lead, end_no_moves, end_repetition,
                          end_no_capture),
        }
