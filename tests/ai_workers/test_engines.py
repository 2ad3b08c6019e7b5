"""Engine interface and search correctness on small toy games (tests/ai_workers/toygames.py)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random

import pytest

import games
from ai_workers.engines import (
    DEFAULT_LIMITS, LEVELS, Evaluator, Limit, MCTSEngine, PlainMovePolicy, RandomEngine,
    SearchResult, UnknownLevelError, get_engine, outcome_rewards, register_levels,
)
from ai_workers.engines import table as engine_table
from ai_workers.engines.alphabeta import AlphaBetaEngine
from games import Outcome, Termination

from .toygames import LongWalkState, NimState, TicTacToe, TicTacToeState, tictactoe

MCTS = MCTSEngine("test", Limit(nodes=2000))


@pytest.fixture
def toy_registered(monkeypatch):
    """Tic-tac-toe listed in games.GAMES for one test, so get_engine can find it."""
    monkeypatch.setitem(games.GAMES, TicTacToe.slug, TicTacToeState.game)
    return TicTacToe.slug


# -- Limit -------------------------------------------------------------------------------------
def test_limit_scaled_multiplies_seconds_only():
    limit = Limit(seconds=2.0, nodes=100, depth=3)
    assert limit.scaled(0.5) == Limit(seconds=1.0, nodes=100, depth=3)
    assert Limit(nodes=7).scaled(3.0) == Limit(nodes=7)
    with pytest.raises(ValueError):
        Limit(seconds=-1.0)
    with pytest.raises(ValueError):
        limit.scaled(-2)


# -- the level table ---------------------------------------------------------------------------
def test_levels_and_their_budgets(toy_registered):
    assert LEVELS == ("random", "easy", "medium", "strong")
    expected = {"easy": 0.25, "medium": 1.0, "strong": 3.0}
    for level in LEVELS:
        engine = get_engine(toy_registered, level)
        assert engine.level == level
        assert engine.default_limit == DEFAULT_LIMITS[level]
        if level in expected:
            assert engine.default_limit.seconds == pytest.approx(expected[level])
    assert isinstance(get_engine(toy_registered, "random"), RandomEngine)


def test_unknown_level_and_unknown_game(toy_registered):
    with pytest.raises(UnknownLevelError) as info:
        get_engine(toy_registered, "grandmaster")
    assert isinstance(info.value, ValueError) and "grandmaster" in str(info.value)
    with pytest.raises(games.UnknownGameError):
        get_engine("no-such-game", "easy")


def test_every_level_replies_legally_within_a_scaled_budget(toy_registered):
    state = tictactoe("X..", ".O.", "...")
    for level in LEVELS:
        engine = get_engine(toy_registered, level)
        limit = engine.default_limit.scaled(0.05)
        result = engine.search(state, limit=limit, rng=Random(1))
        assert isinstance(result, SearchResult)
        assert result.move in state.legal_moves()
        assert -1.0 <= result.value <= 1.0
        assert result.pv and result.pv[0] == result.move
        # The search stops at its deadline; the slack covers a busy machine descheduling it.
        assert limit.seconds is None or result.seconds < 4 * limit.seconds + 0.5


def test_registered_table_replaces_the_generic_one(toy_registered, monkeypatch):
    monkeypatch.setattr(engine_table, "ENGINE_TABLE", {})
    levels = {level: (lambda level=level: RandomEngine(level)) for level in LEVELS}
    register_levels(toy_registered, levels)
    assert isinstance(get_engine(toy_registered, "strong"), RandomEngine)
    with pytest.raises(ValueError):
        register_levels(toy_registered, {"random": RandomEngine})


class HiddenTicTacToe(TicTacToe):
    slug = "toy-hidden"
    has_hidden_information = True


def test_hidden_information_games_get_the_policy_table(monkeypatch):
    monkeypatch.setitem(games.GAMES, HiddenTicTacToe.slug, HiddenTicTacToe())
    state = tictactoe("X..", "...", "...")
    for level in LEVELS[1:]:
        engine = get_engine(HiddenTicTacToe.slug, level)
        assert isinstance(engine, PlainMovePolicy)
        assert engine.search(state, rng=Random(3)).move in state.legal_moves()
    assert isinstance(get_engine(HiddenTicTacToe.slug, "random"), RandomEngine)


def test_plain_move_policy_prefers_the_shortest_notation():
    state = NimState(stones=10, players=2)     # moves "1", "2", "3": all one character
    seen = {PlainMovePolicy("easy").search(state, rng=Random(seed)).move for seed in range(20)}
    assert seen == {1, 2, 3}


# -- the random player -------------------------------------------------------------------------
def test_random_engine_is_legal_and_reproducible():
    state = tictactoe("X..", ".O.", "...")
    picks = [RandomEngine().search(state, rng=Random(seed)).move for seed in range(30)]
    assert set(picks) <= set(state.legal_moves()) and len(set(picks)) > 3
    assert picks == [RandomEngine().search(state, rng=Random(seed)).move for seed in range(30)]


def test_search_refuses_a_finished_game():
    with pytest.raises(ValueError):
        MCTS.search(tictactoe("XO.", "XO.", "X.."), rng=Random(0))


# -- outcomes → rewards ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Scored:
    outcome: Outcome


def test_rewards_from_scores_points_and_winners():
    win = _Scored(Outcome.win(1, 3, Termination.GOAL))
    assert outcome_rewards(win) == (0.0, 1.0, 0.0)
    points = _Scored(Outcome((0,), (12.0, 4.0, 8.0), Termination.WENT_OUT))
    assert outcome_rewards(points) == (1.0, 0.0, 0.5)
    draw = _Scored(Outcome.draw(2, Termination.REPETITION))
    assert outcome_rewards(draw) == (0.5, 0.5)


# -- MCTS --------------------------------------------------------------------------------------
def test_mcts_takes_a_win_in_one():
    result = MCTS.search(tictactoe("XX.", "OO.", "..."), rng=Random(0))
    assert result.move == 2 and result.value > 0.9


def test_mcts_blocks_a_loss_in_one():
    result = MCTS.search(tictactoe("X..", "OO.", "X.."), rng=Random(0))
    assert result.move == 5


def test_mcts_opens_in_the_centre_or_a_corner():
    result = MCTSEngine("t", Limit(nodes=6000)).search(TicTacToeState(), rng=Random(2))
    assert result.move in (0, 2, 4, 6, 8)
    assert -0.2 < result.value < 0.8     # a draw with best play; X's edge against a fallible O


def test_mcts_is_deterministic_for_a_seed_and_node_budget():
    state = tictactoe("X..", "...", "...")
    first = MCTS.search(state, limit=Limit(nodes=700), rng=Random(42))
    again = MCTS.search(state, limit=Limit(nodes=700), rng=Random(42))
    assert (first.move, first.value, first.pv, first.nodes) == (again.move, again.value, again.pv, 700)


def test_mcts_per_seat_values_with_three_seats():
    # Three-seat Nim, 3 stones: taking all three wins at once; taking fewer lets a rival win.
    result = MCTS.search(NimState(stones=3, players=3), rng=Random(0))
    assert result.move == 3 and result.value > 0.9
    # Five stones: whatever seat 0 takes, a rival can take the last stone, so the value is low.
    result = MCTS.search(NimState(stones=5, players=3), limit=Limit(nodes=3000), rng=Random(0))
    assert result.value < 0.0


def test_mcts_respects_the_time_limit_within_ten_percent():
    engine = MCTSEngine("t", Limit(seconds=0.5), cutoff=100000)   # rollouts thousands of plies long
    started = time.perf_counter()
    result = engine.search(LongWalkState(), rng=Random(0))
    wall = time.perf_counter() - started
    assert 0.35 <= result.seconds <= 0.55 and wall <= 0.55
    assert result.move in (1, 2)


def test_mcts_depth_limit_bounds_the_tree():
    result = MCTS.search(TicTacToeState(), limit=Limit(nodes=1500, depth=2), rng=Random(0))
    assert 1 <= len(result.pv) <= 2


class _PreferCentre(Evaluator):
    playout_cutoff = 0

    def evaluate(self, state, seat):
        centre = state.board[4]
        return 0.0 if centre is None else (0.5 if centre == seat else -0.5)


def test_mcts_uses_the_evaluator_at_the_cutoff():
    engine = MCTSEngine("t", Limit(nodes=9), evaluator=_PreferCentre())
    assert engine.search(TicTacToeState(), rng=Random(5)).move == 4


# -- alpha-beta --------------------------------------------------------------------------------
AB = AlphaBetaEngine("test", Limit(depth=9))


def test_alphabeta_takes_a_win_in_one_and_prefers_it_to_a_slower_win():
    result = AB.search(tictactoe("XX.", "OO.", "..."), rng=Random(0))
    assert result.move == 2 and result.value > 0.99 and result.pv == [2]


def test_alphabeta_blocks_a_loss_in_one():
    result = AB.search(tictactoe("X..", "OO.", "X.."), rng=Random(0))
    assert result.move == 5


def test_alphabeta_solves_tictactoe_as_a_draw():
    result = AB.search(TicTacToeState(), rng=Random(0))
    assert result.value == 0.0 and result.depth == 9
    assert len(result.pv) >= 5 and result.pv[0] == result.move


@pytest.mark.parametrize("stones", [5, 6, 7, 9, 10, 11])
def test_alphabeta_plays_two_seat_nim_perfectly(stones):
    result = AB.search(NimState(stones=stones, players=2), rng=Random(stones))
    assert result.move == stones % 4 and result.value > 0.99


def test_alphabeta_knows_a_lost_nim_position():
    assert AB.search(NimState(stones=8, players=2), rng=Random(0)).value < -0.99


def test_alphabeta_is_deterministic_for_a_seed_and_node_budget():
    state = tictactoe("X..", "...", "...")
    first = AB.search(state, limit=Limit(nodes=500), rng=Random(9))
    again = AB.search(state, limit=Limit(nodes=500), rng=Random(9))
    assert (first.move, first.value, first.pv) == (again.move, again.value, again.pv)
    assert first.nodes == 500


def test_alphabeta_respects_the_time_limit_within_ten_percent():
    started = time.perf_counter()
    result = AB.search(LongWalkState(), limit=Limit(seconds=0.5), rng=Random(0))
    wall = time.perf_counter() - started
    assert 0.35 <= result.seconds <= 0.55 and wall <= 0.55
    assert result.depth >= 5


def test_alphabeta_hands_other_seat_counts_to_uct():
    result = AB.search(NimState(stones=3, players=3), limit=Limit(nodes=500), rng=Random(0))
    assert result.move == 3 and result.nodes == 500


# -- the benchmark runner ----------------------------------------------------------------------
def test_bench_match_tallies_a_perfect_player_against_a_random_one(toy_registered):
    from bench.engines import match
    tally = match(toy_registered, lambda: AB, RandomEngine, Limit(depth=9), Limit(nodes=1),
                  n_games=6, max_plies=20)
    assert tally.games == 6 and tally.losses == 0 and tally.wins >= 3
    assert tally.score >= 0.75 and tally.capped == 0


# -- purity ------------------------------------------------------------------------------------
def test_engines_import_only_games_and_the_standard_library():
    import ast
    import pathlib
    import sys
    package = pathlib.Path(__file__).resolve().parents[2] / "ai_workers" / "engines"
    allowed = set(sys.stdlib_module_names) | {"games", "__future__"}
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 6
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
