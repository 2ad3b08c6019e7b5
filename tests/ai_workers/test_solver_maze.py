"""The Pearl Maze solver (docs/rules/pearl.md §9.13, §10): steps on bitboards agree with the rules,
and the longest walks are found and proved with nothing stored beforehand."""
from random import Random

import pytest

import games
from ai_workers.engines.solvers.maze import (
    LETTERS, CycleFound, MazeSolver, StepGenerator, solve,
)

MAZE = games.get_game("pearl-maze")


def _walk_agrees(options: dict, seed: int) -> None:
    state, rng = MAZE.new_state(options=options), Random(seed)
    steps = StepGenerator(state.size, state.push_off)
    while True:
        occ = state.whites | (1 << state.black)
        fast = steps.children(occ, state.black)
        assert [LETTERS[d] for d, _, _ in fast] == [str(m) for m in state.legal_moves()]
        if not fast:
            return
        d, after, black = fast[rng.randrange(len(fast))]
        state = state.play(LETTERS[d])
        assert (state.whites | (1 << state.black), state.black) == (after, black)


@pytest.mark.parametrize("options", [{}, {"n": 3}, {"black": "outside"}, {"n": 6, "size": 9},
                                     {"n": 7, "size": 9, "push_off": "yes"}])
def test_bitboard_steps_are_the_rule_books_steps(options):
    for seed in range(25):
        _walk_agrees(options, seed)


def test_n3_longest_walk_is_found_and_proved():
    start = MAZE.new_state(options={"n": 3})
    found = solve(start)
    assert found.proven and found.length == 17 and found.positions == 215
    end = start
    for step in found.line:
        end = end.play(step)
    assert end.is_terminal and end.outcome.scores == (17.0,)


def test_the_memo_is_exact_on_every_position_it_holds():
    start = MAZE.new_state(options={"n": 3})
    solver = MazeSolver.for_state(start)
    solve(start, solver=solver)

    def brute(state) -> int:
        return max((1 + brute(state.apply(m)) for m in state.legal_moves()), default=0)

    state = start.play("D")                    # off the longest walk, which begins with R
    key = ((state.whites | (1 << state.black)) << 9) | state.black
    assert solver.memo[key] == brute(state)


def test_a_budget_stops_the_proof_and_says_so():
    found = solve(MAZE.new_state(), max_nodes=500)
    assert not found.proven and found.positions <= 500


def test_a_cycle_is_never_taken_for_a_proof():
    solver = MazeSolver(19)
    solver.memo[(5 << 9) | 0] = -1                    # a position marked as on the search path
    with pytest.raises(CycleFound):
        solver.longest(5, 0)


@pytest.mark.slow
@pytest.mark.parametrize("options,steps,positions", [({}, 69, 974_011),
                                                     ({"black": "outside"}, 77, 2_493_466)])
def test_the_standard_starts_are_proved(options, steps, positions):
    start = MAZE.new_state(options=options)
    found = solve(start)
    assert found.proven and (found.length, found.positions) == (steps, positions)
    end = start
    for step in found.line:
        end = end.play(step)
    assert end.is_terminal and end.outcome.scores == (float(steps),)


def test_the_documented_n5_lower_bound_replays_under_the_rules():
    """docs/engines.md §1.1 keeps the best proven lower bound for n=5 (a walk of 166 steps found
    by the memoised search): the rules replay it step by step to a stuck black pearl."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "engines.md").read_text(encoding="utf-8")
    assert "**≥ 166** (not proved)" in text
    walk = re.search(r"```\n([RDLU]{100,})\n```", text).group(1)
    state = games.get_game("pearl-maze").new_state(options={"n": 5})
    for step in walk:
        state = state.play(step)
    assert len(walk) == 166 and state.is_terminal
    assert state.outcome.scores == (166.0,) and state.outcome.termination.value == "no_moves"
