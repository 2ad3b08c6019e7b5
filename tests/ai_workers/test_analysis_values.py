"""Analysis values (docs/analysis.md): each row's value is the analysed position seen by the seat
to move there (the row's `seat`), clamped to [-1, 1], three decimals, never -0.0."""
from __future__ import annotations

import math

import pytest

import games
from ai_workers.engines.jobs import ANALYSIS, EngineJob, _clean, run_analysis

ONE_CAPTURE_WINS = {"capture_goal": 1, "lead_rule": 0}


def _analyse(moves: list[str]) -> list[dict]:
    options = games.get_game("hasami-shogi").normalize_options(ONE_CAPTURE_WINS)
    job = EngineJob(kind=ANALYSIS, game="hasami-shogi", options=options, players=2, level="easy",
                    ply=len(moves), seconds=0.2, rng_seed=7, moves=tuple(moves), seed=0)
    return run_analysis(job)


@pytest.mark.parametrize("moves,winner", [
    # Black to move at ply 3 can take d5 with c1-c5 (c5 and e5 close it): a win for Black.
    (["e1-e5", "d9-d5", "c1-c5"], 0),
    # White to move at ply 4 takes e5 with f9-f5 (d5 and f5 close it): a win for White.
    (["e1-e5", "d9-d5", "a1-a2", "f9-f5"], 1),
])
def test_the_value_is_from_the_seat_to_move(moves, winner):
    last = _analyse(moves)[-1]
    assert last["seat"] == winner and last["best"] == moves[-1]
    assert last["value"] > 0.9


def test_values_are_clean():
    assert math.copysign(1.0, _clean(-0.0)) == 1.0
    assert math.copysign(1.0, _clean(-0.0004)) == 1.0 and _clean(-0.0004) == 0.0
    assert _clean(1.7) == 1.0 and _clean(-3) == -1.0 and _clean(0.12345) == 0.123
    assert _clean(float("nan")) == 0.0
