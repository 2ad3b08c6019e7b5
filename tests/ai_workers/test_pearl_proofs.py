"""The strong levels of Pearl Maze and Pearl Yard play proofs (docs/rules/pearl.md §9.13, §9.19–20):
proved on the spot within the budget, or read from the solution files `manage.py solve --cache`
writes; no stored line is typed in anywhere."""
from random import Random

import pytest
from django.core.management import call_command

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.solvers import cache

MAZE = games.get_game("pearl-maze")
YARD = games.get_game("pearl-yard")


@pytest.fixture
def solutions(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.SOLUTIONS_ENV, str(tmp_path))
    return tmp_path


def _self_play(state, level: str, limit: Limit):
    engine = get_engine("pearl-maze" if state.players == 1 else "pearl-yard", level)
    line = []
    while not state.is_terminal:
        found = engine.search(state, limit=limit, rng=Random(0))
        line.append(str(found.move))
        state = state.play(found.move)
    return state, line


def test_strong_maze_proves_the_small_square_on_the_spot(solutions):
    end, line = _self_play(MAZE.new_state(options={"n": 3}), "strong", Limit(seconds=3.0))
    assert end.outcome.scores == (17.0,)


def test_strong_maze_plays_the_solvers_file_without_searching(solutions, capsys):
    call_command("solve", "pearl-maze", "--n", "3", "--cache")
    assert "longest walk: 17 steps (proved" in capsys.readouterr().out
    assert list(solutions.glob("pearl-maze-19-n3-corner.json.gz"))
    start = MAZE.new_state(options={"n": 3})
    found = get_engine("pearl-maze", "strong").search(start, limit=Limit(nodes=1), rng=Random(0))
    assert found.nodes == 0 and len(found.pv) == 17 and found.depth == 17
    end, _ = _self_play(start, "strong", Limit(nodes=1))
    assert end.outcome.scores == (17.0,)


def test_without_a_proof_in_budget_the_strong_maze_still_searches(solutions):
    start = MAZE.new_state()                      # 974,011 positions: no proof in 300 nodes
    found = get_engine("pearl-maze", "strong").search(start, limit=Limit(nodes=300), rng=Random(0))
    assert found.move in start.legal_moves() and len(found.pv) > 10


def test_the_lower_maze_levels_do_not_prove():
    end, _ = _self_play(MAZE.new_state(), "medium", Limit(nodes=50))
    assert end.outcome.scores[0] < 69


@pytest.mark.parametrize("options,winner,plies", [({}, 0, 15), ({"first": "thief"}, 1, 11)])
def test_strong_yard_wins_in_the_proven_plies_and_the_loser_lasts_as_long(solutions, options,
                                                                         winner, plies):
    end, _ = _self_play(YARD.new_state(options=options), "strong", Limit(seconds=3.0))
    assert end.outcome.winners == (winner,) and end.ply == plies


def test_strong_yard_beats_a_weaker_side_within_the_proof():
    state, rng = YARD.new_state(), Random(3)
    strong, weak = get_engine("pearl-yard", "strong"), get_engine("pearl-yard", "easy")
    while not state.is_terminal:
        engine = strong if state.current_player == 0 else weak
        state = state.play(engine.search(state, limit=Limit(nodes=4000), rng=rng).move)
    assert state.outcome.winners == (0,) and state.ply <= 15


def test_strong_yard_plays_the_solvers_file_without_searching(solutions, capsys):
    call_command("solve", "pearl-yard", "--first", "thief", "--cache")
    out = capsys.readouterr().out
    assert "Thief wins; the shortest forced win ends on ply 11" in out
    start = YARD.new_state(options={"first": "thief"})
    found = get_engine("pearl-yard", "strong").search(start, limit=Limit(nodes=1), rng=Random(0))
    assert found.nodes == 0 and found.value == pytest.approx(0.989) and found.depth == 11
    end, _ = _self_play(start, "strong", Limit(nodes=1))
    assert end.outcome.winners == (1,) and end.ply == 11


def test_solve_reports_an_unfinished_proof_and_writes_nothing(solutions, capsys):
    call_command("solve", "pearl-maze", "--seconds", "0.2", "--beam", "50", "--cache")
    out = capsys.readouterr().out
    assert "not proved within the budget; longest walk found:" in out
    assert "cache: nothing written (no proof)" in out and not list(solutions.iterdir())


def test_solve_prints_the_yard_proof_and_refuses_bad_options(solutions, capsys):
    from django.core.management.base import CommandError

    call_command("solve", "pearl-yard", "--size", "11")
    out = capsys.readouterr().out
    assert "Thief wins; the shortest forced win ends on ply 16" in out and "proof tree" in out
    with pytest.raises(CommandError):
        call_command("solve", "pearl-yard", "--size", "10")
