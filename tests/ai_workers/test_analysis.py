"""Analysis as players read it (ai_workers/engines/analysis.py): values before and after each
move from the mover's side, the loss, the class by the family's thresholds, lichess's accuracy,
and a per-seat summary."""
import json
import math
from random import Random

import pytest

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.analysis import (
    WALK_LENGTH, WINNING_CHANCES, judge, move_accuracy, scale_for, series, summarize,
)
from ai_workers.engines.jobs import EngineJob, run_analysis
from ai_workers.engines.solvers.maze import solve


def _job(game: str, moves: list[str], players: int = 2, level: str = "strong", seconds: float = 1.0,
         **extra) -> EngineJob:
    return EngineJob(kind="analysis", game=game, options=extra.pop("options", {}), players=players,
                     level=level, ply=len(moves), seconds=seconds, rng_seed=7, seed=0,
                     moves=tuple(moves), **extra)


def test_lichess_move_accuracy_and_the_winning_chance_thresholds():
    assert move_accuracy(0) == pytest.approx(99.9999, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(103.1668 * 2.718281828 ** -0.4354 - 3.1669, abs=1e-3)
    assert move_accuracy(100) == 0.0
    assert [WINNING_CHANCES.classify(x) for x in (0.09, 0.1, 0.2, 0.3)] == [
        "good", "inaccuracy", "mistake", "blunder"]
    assert scale_for("hasami-shogi") is WINNING_CHANCES and scale_for("pearl-maze") is WALK_LENGTH


def test_a_judgement_needs_a_choice_and_a_value_after():
    assert judge(WINNING_CHANCES, 0.5, 0.5, "a", "a", 1)["classification"] == "forced"
    assert judge(WINNING_CHANCES, 0.5, None, "a", "b", 3) == {
        "loss": None, "classification": None, "accuracy": None}
    best = judge(WINNING_CHANCES, 0.5, 0.1, "a", "a", 3)       # the engine's own move never loses
    assert best["classification"] == "best" and best["loss"] == 0.0 and best["accuracy"] == 100.0
    worse = judge(WINNING_CHANCES, 0.5, 0.25, "a", "b", 3)
    assert worse["classification"] == "mistake" and worse["loss"] == 0.25


def test_the_walk_scale_counts_steps_given_up():
    # a walk of 40 steps left; the played step leaves 29 instead of 39: a quarter given up
    before, after = WALK_LENGTH.steps_value(40), WALK_LENGTH.steps_value(29)
    assert WALK_LENGTH.loss(before, after) == pytest.approx(25.0)
    assert WALK_LENGTH.loss(before, WALK_LENGTH.steps_value(39)) == pytest.approx(0.0, abs=1e-6)
    assert WALK_LENGTH.classify(25.0) == "blunder" and WALK_LENGTH.classify(6.0) == "inaccuracy"


def _losing_yard_record() -> list[str]:
    """Police first on 9×9 throws its forced win away with S (the Thief then escapes by ply 12)."""
    state = games.get_game("pearl-yard").new_state().play("S")
    engine, moves = get_engine("pearl-yard", "strong"), ["S"]
    while not state.is_terminal:
        move = engine.search(state, limit=Limit(seconds=2.0), rng=Random(0)).move
        moves.append(str(move))
        state = state.play(move)
    return moves


def test_a_thrown_away_proof_is_a_blunder_and_the_rest_is_best_play():
    moves = _losing_yard_record()
    rows = run_analysis(_job("pearl-yard", moves))
    first = rows[0]
    assert first["value_before"] == pytest.approx(0.985) and first["best"] == "N"
    assert first["value_after"] == pytest.approx(-0.989) and first["classification"] == "blunder"
    assert first["loss"] == pytest.approx(1.974) and first["accuracy"] == 0.0
    for row, following in zip(rows, rows[1:]):       # two seats: after = −(the next before)
        assert row["value_after"] == pytest.approx(-following["value_before"])
    assert rows[-1]["value_after"] == 1.0                # the Thief's escape ends the game
    assert all(r["classification"] in ("best", "forced") for r in rows[1:])
    police, thief = summarize(rows, 2)
    assert police["blunder"] == 1 and police["moves"] == (len(moves) + 1) // 2
    assert thief["blunder"] == thief["mistake"] == thief["inaccuracy"] == 0
    assert thief["accuracy"] == 100.0 and police["accuracy"] < thief["accuracy"]
    assert [p["value"] for p in series(rows, 2)][0] == pytest.approx(-0.989)


def test_a_maze_walk_is_judged_in_steps():
    # n=3: after R the longest walk has 16 steps to go; R again leaves only 9 (of 15 possible)
    maze = games.get_game("pearl-maze")
    rest = solve(maze.new_state(options={"n": 3}).play("R").play("R")).line
    rows = run_analysis(_job("pearl-maze", ["R", "R", *rest], players=1, options={"n": 3},
                             seconds=1.0))
    assert rows[0]["classification"] == "best" and rows[1]["best"] == "D"
    assert rows[1]["classification"] == "blunder"
    assert rows[1]["loss"] == pytest.approx(100 * (16 - 1 - 9) / 16, abs=0.1)
    assert all(r["classification"] in ("best", "forced") for r in rows[2:])
    (seat,) = summarize(rows, 1)
    assert seat["moves"] == len(rows) == 11 and seat["blunder"] == 1 and seat["accuracy"] < 100


def test_a_level_position_reads_zero_in_the_graph_series_from_either_side():
    rows = [{"ply": 3, "seat": 0, "value_after": 0.0}, {"ply": 4, "seat": 1, "value_after": 0.0},
            {"ply": 5, "seat": 0, "value_after": -0.0}, {"ply": 6, "seat": 1, "value_after": None}]
    points = series(rows, 2)
    assert [p["value"] for p in points] == [0.0, 0.0, 0.0, None]
    assert all(math.copysign(1.0, p["value"]) == 1.0 for p in points if p["value"] is not None)
    assert json.dumps(points[1]) == '{"ply": 4, "value": 0.0}'


def test_a_blunder_carries_the_best_alternatives():
    moves = _losing_yard_record()
    rows = run_analysis(_job("pearl-yard", moves, lines=3))
    blunder = rows[0]
    candidates = blunder["candidates"]
    state = games.get_game("pearl-yard").new_state()
    assert 1 <= len(candidates) <= 3 and len({c["move"] for c in candidates}) == len(candidates)
    assert all(c["move"] in state.legal_notations() and c["pv"][0] == c["move"] for c in candidates)
    values = [c["value"] for c in candidates]
    assert values == sorted(values, reverse=True)
    # the best alternative keeps the forced win the played S threw away
    assert candidates[0]["value"] > 0.9 and blunder["played"] not in [c["move"] for c in candidates[:1]]
    assert all("candidates" not in r for r in rows[1:])              # best play: nothing to suggest


def test_an_analysis_asked_for_one_line_has_no_candidates():
    moves = _losing_yard_record()
    assert "candidates" not in run_analysis(_job("pearl-yard", moves))[0]
