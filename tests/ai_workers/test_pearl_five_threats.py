"""Pearl Five's strong level (ai_workers/engines/pearl.py, FiveSearch): winning pushes found by
their gaps, seen one ply beyond the search horizon and played at once (docs/engines.md §5.2)."""
from __future__ import annotations

from random import Random

import pytest

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.alphabeta import AlphaBetaEngine
from ai_workers.engines.pearl import FiveEngine, FiveEvaluator, gaps, winning_moves

GAME = games.get_game("pearl-five")
# White's four c3–f3 wins by a push from either end; Black's pearls make no line.
FOUR = dict(black=["c4", "d5", "e4", "j10", "k10"], white=["c3", "d3", "e3", "f3", "d4"])
# Black to move wins in three plies (l11W, any reply, then a winning push), which a two-ply
# search without Five's horizon does not see (it needs three plies).
IN_THREE = dict(black=["h10", "i10", "j11", "k11", "l11", "i12", "i13"],
                white=["j10", "h11", "i11", "h12", "j12", "j13", "k13"])


def _wins_by_playing_out(state, colour: int) -> set[str]:
    mover = state if state.turn == colour else state._evolve(turn=colour)
    return {str(move) for move in state.legal_moves()
            if (child := mover.apply(move)).is_terminal and child.outcome.winners == (colour,)}


def test_the_threats_of_a_four_for_either_side_to_move():
    for to_move in (0, 1):
        state = GAME.position(**FOUR, to_move=to_move)
        assert {str(m) for m in winning_moves(state, 1)} == {"c3E", "f3W"}
        assert winning_moves(state, 0) == []


def test_black_threats_obey_the_handicap():
    # §9.11: Black's diagonal c3–g7 would be made by g7S, but under the handicap it is no win.
    state = GAME.position(black=["b3", "c3", "d4", "e5", "f6"],
                          white=["c4", "d5", "e6", "f7", "g7"], to_move=0)
    assert "g7S" not in {str(m) for m in winning_moves(state, 0)}
    off = GAME.position(black=["b3", "c3", "d4", "e5", "f6"],
                        white=["c4", "d5", "e6", "f7", "g7"], to_move=0,
                        options={"handicap": "off"})
    assert "g7S" in {str(m) for m in winning_moves(off, 0)}


@pytest.mark.parametrize("options", [{}, {"handicap": "off"}, {"size": 15}])
def test_winning_moves_are_exactly_the_pushes_that_win(options):
    """The gap filter never drops a winning push (overlines of Black included): the same set
    as playing every legal push out, for both colours, along random games."""
    checked = 0
    for seed in range(12):
        state, rng = GAME.new_state(players=2, seed=seed, options=options), Random(seed)
        while not state.is_terminal and state.ply < 45:
            for colour in (0, 1):
                fast = {str(m) for m in winning_moves(state, colour)}
                assert fast == _wins_by_playing_out(state, colour), state.to_dict()
                checked += bool(fast)
            state = state.apply(rng.choice(state.legal_moves()))
    assert checked > 50


def test_gaps_mark_the_missing_point_of_a_four():
    state = GAME.position(**FOUR, to_move=0)
    g = state.grid
    assert g.point_list(gaps(state, 1)) == ["b3", "g3"]
    assert gaps(state, 0) == 0


def test_strong_plays_a_winning_push_at_once():
    state = GAME.position(**FOUR, to_move=1)
    result = get_engine("pearl-five", "strong").search(state, limit=Limit(nodes=3), rng=Random(0))
    assert str(result.move) in {"c3E", "f3W"} and result.value > 0.99


def test_strong_parries_a_four():
    state = GAME.position(**FOUR, to_move=0)
    result = get_engine("pearl-five", "strong").search(state, limit=Limit(nodes=400),
                                                      rng=Random(0))
    assert winning_moves(state.apply(result.move), 1) == []


def test_the_horizon_sees_a_win_one_ply_further():
    state = GAME.position(**IN_THREE, to_move=0)
    strong = get_engine("pearl-five", "strong")
    assert isinstance(strong, FiveEngine)
    found = strong.search(state, limit=Limit(depth=2), rng=Random(0))
    assert str(found.move) == "l11W" and found.value > 0.99
    plain = AlphaBetaEngine("strong", Limit(seconds=3.0), FiveEvaluator())
    assert plain.search(state, limit=Limit(depth=2), rng=Random(0)).value < 0.9
    assert plain.search(state, limit=Limit(depth=3), rng=Random(0)).value > 0.99


def test_strong_is_deterministic_for_a_seed_and_node_budget():
    state = GAME.position(**IN_THREE, to_move=1)
    first = get_engine("pearl-five", "strong").search(state, limit=Limit(nodes=300),
                                                     rng=Random(7))
    again = get_engine("pearl-five", "strong").search(state, limit=Limit(nodes=300),
                                                     rng=Random(7))
    assert (first.move, first.value, first.pv, first.nodes) == \
        (again.move, again.value, again.pv, again.nodes)
