"""Conditional move reads: a tree as the lines it holds, for its owner only."""
from __future__ import annotations

from matches.models import ConditionalMoves, Match


def tree_lines(tree: dict) -> list[list[str]]:
    """Every root-to-leaf line of a tree: [their move, your reply, their move, your reply, ...]."""
    lines = []
    for theirs, node in tree.items():
        below = tree_lines(node["then"])
        lines += [[theirs, node["reply"], *rest] for rest in below] if below else [[theirs, node["reply"]]]
    return lines


def conditional_payload(match: Match, seat: int) -> dict:
    row = ConditionalMoves.objects.filter(match=match, seat=seat).first()
    tree = row.tree if row is not None else {}
    return {"ply": row.ply if row is not None else match.ply, "lines": tree_lines(tree), "tree": tree}
