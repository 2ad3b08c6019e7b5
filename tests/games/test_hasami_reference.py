"""The fast bitboard captures against a literal reading of docs/rules/hasami.md §3.2.

The reference below follows the §3.2 pseudo-code on (file, rank) coordinates; random games in
every capture configuration of the family must remove exactly the same men.
"""
from __future__ import annotations

import itertools
from random import Random

import pytest

import games

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
LETTERS = "abcdefghijkl"


def _board(state):
    rows = state.rows()[::-1]                          # rows[rank][file]
    return {(f, r): ch for r, row in enumerate(rows) for f, ch in enumerate(row)}, \
        len(rows[0]), len(rows)


def _group(board, start, man, on):
    group, stack = {start}, [start]
    while stack:
        f, r = stack.pop()
        for df, dr in ORTHOGONAL:
            n = (f + df, r + dr)
            if on(n) and board[n] == man and n not in group:
                group.add(n)
                stack.append(n)
    return group


def _enclosed(board, group, mine, files, ranks, mode, on):
    corners = {(0, 0), (0, ranks - 1), (files - 1, 0), (files - 1, ranks - 1)}
    if mode == "corner_only":
        qualifies = len(group) == 1 and group <= corners
    else:
        qualifies = any(f in (0, files - 1) or r in (0, ranks - 1) for f, r in group)
    around = {(f + df, r + dr) for f, r in group for df, dr in ORTHOGONAL} - group
    return qualifies and all(board[n] in mine for n in around if on(n))


def reference_captures(state, move):
    rules, (board, files, ranks) = state.rules, _board(state)
    (sf, sr), s = move.squares
    board[s], board[(sf, sr)] = board[(sf, sr)], "."
    mine, man = ("BX", "W") if state.to_move == 0 else ("WY", "B")

    def on(sq):
        return 0 <= sq[0] < files and 0 <= sq[1] < ranks

    cap = set()
    for d in rules.custodial_dirs:                                     # (a)
        run, e = [], (s[0] + d[0], s[1] + d[1])
        while on(e) and board[e] == man:
            run.append(e)
            e = (e[0] + d[0], e[1] + d[1])
        closed = board[e] in mine if on(e) else rules.edge_closes
        if run and len(run) <= rules.custodial_max and closed:
            cap |= set(run)
    for d in rules.intervention_dirs:                                  # (c)
        a, b = (s[0] + d[0], s[1] + d[1]), (s[0] - d[0], s[1] - d[1])
        if on(a) and on(b) and board[a] == man and board[b] == man:
            cap |= {a, b}
    if rules.enclosure != "none":                                      # (b)
        for d in ORTHOGONAL:
            n = (s[0] + d[0], s[1] + d[1])
            if on(n) and board[n] == man:
                group = _group(board, n, man, on)
                if _enclosed(board, group, mine, files, ranks, rules.enclosure, on):
                    cap |= group
    return {f"{LETTERS[f]}{r + 1}" for f, r in cap}


CONFIGS = [
    pytest.param("hasami-shogi", {"enclosure": e, "directions": d, "hashi_otoshi": h, "tenbin": t,
                                  "capture_goal": 8, "lead_rule": 0}, id=f"hasami-{e}-{d}-{h}-{t}")
    for e, d, h, t in itertools.product(("none", "corner_only", "edge_groups"), (4, 8),
                                        (False, True), (False, True))
] + [
    pytest.param("dai-hasami-shogi", {"custodial_max": "any"}, id="dai-any"),
    pytest.param("dai-hasami-shogi", {"custodial_max": 1}, id="dai-1"),
    pytest.param("mak-yek", {}, id="mak-yek"),
    pytest.param("latrunculi", {}, id="latrunculi"),
]


@pytest.mark.parametrize("slug,options", CONFIGS)
def test_captures_match_the_literal_rule(slug, options):
    game, rng, plies = games.get_game(slug), Random(1), 0
    while plies < 400:
        state = game.new_state(options=options)
        while not state.is_terminal and plies < 400:
            move = rng.choice(state.legal_moves())
            after = state.apply(move)
            assert set(after.view(None)["last_captured"]) == reference_captures(state, move), \
                f"{move} in\n{state.render_text()}"
            state, plies = after, plies + 1
