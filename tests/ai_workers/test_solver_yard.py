"""The Pearl Yard solver (docs/rules/pearl.md §9.19–20, §10): its moves are the rules' moves, and it
reproduces the solved results with nothing stored beforehand."""
from random import Random

import pytest

import games
from ai_workers.engines.solvers.yard import DRAW, PASS_MOVE, YardSolver, node_of, solve

YARD = games.get_game("pearl-yard")


def _agrees(options: dict, seed: int) -> None:
    state, rng = YARD.new_state(options=options), Random(seed)
    solver = YardSolver(state.size)
    while not state.is_terminal:
        children = solver.children(node_of(state))
        assert [m for m, _, _ in children] == [str(m) for m in state.legal_moves()]
        move, child, result = children[rng.randrange(len(children))]
        state = state.play(move)
        if result is None:
            assert node_of(state) == child
            if state.is_terminal:       # a mutual block shows when the stuck side is to move
                assert state.outcome.is_draw and solver.children(child) == [(PASS_MOVE, child, DRAW)]
        else:
            winner = state.outcome.winners[0] if state.outcome.winners else DRAW
            assert state.is_terminal and winner == result


@pytest.mark.parametrize("options", [{}, {"first": "thief"}, {"size": 11}, {"size": 13}])
def test_solver_moves_are_the_rule_books_moves(options):
    for seed in range(40):
        _agrees(options, seed)


def _replay(options: dict, line: list[str]):
    state = YARD.new_state(options=options)
    for move in line:
        state = state.play(move)
    return state


@pytest.mark.parametrize("options,winner,plies", [({}, 0, 15), ({"first": "thief"}, 1, 11),
                                                  ({"size": 11}, 1, 16)])
def test_the_rule_books_results_are_proved(options, winner, plies):
    start = YARD.new_state(options=options)
    solver = YardSolver(start.size)
    found = solve(start, solver=solver)
    assert (found.winner, found.plies) == (winner, plies)
    assert not solver.wins(node_of(start), winner, plies - 1)       # and not a ply sooner
    end = _replay(options, found.line)
    assert len(found.line) == plies and end.outcome.winners == (winner,)
    assert found.proof_size >= 1 and found.nodes > 0


@pytest.mark.slow
def test_thief_escapes_the_13x13_cross_within_18_plies():
    found = solve(YARD.new_state(options={"size": 13}))
    assert (found.winner, found.plies) == (1, 18)
    assert _replay({"size": 13}, found.line).outcome.winners == (1,)


def test_a_budget_leaves_the_result_open():
    found = solve(YARD.new_state(options={"size": 13}), seconds=0.0)
    assert found.winner is None and found.plies is None
