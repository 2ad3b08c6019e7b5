"""Multi-PV (`Engine.search_lines`): the best N root moves, each with its value for the player to
move and its line, from alpha-beta, UCT, the generic child-by-child search and the erring
levels (tests/ai_workers/toygames.py gives positions whose values are known exactly)."""
from random import Random

import pytest

import games
from ai_workers.engines import AlphaBetaEngine, Limit, MCTSEngine, get_analyser, get_engine
from ai_workers.engines.base import Engine, SearchResult
from ai_workers.engines.simple import Erring

from .toygames import TicTacToeState, tictactoe


def _exact(state) -> float:
    """Negamax to the end of tic-tac-toe: 1 win, 0 draw, -1 loss for the player to move."""
    if state.is_terminal:
        return 0.0 if not state.outcome.winners else (1.0 if state.outcome.winners[0] == state.current_player else -1.0)
    return max(-_exact(state.apply(m)) if not state.apply(m).is_terminal
               else (1.0 if state.apply(m).outcome.winners else 0.0) for m in state.legal_moves())


def test_alpha_beta_lines_are_the_best_moves_with_exact_values():
    # X (seat 0) to move with 0 and 4 against O's 1 and 8... positions searched to the end
    state = tictactoe("X", "O", ".", ".", "X", ".", ".", ".", "O")
    engine = AlphaBetaEngine("t", Limit(depth=9))
    found = engine.search_lines(state, 3, Limit(depth=9), Random(0))
    assert len(found.lines) == 3
    moves = [line.move for line in found.lines]
    assert len(set(moves)) == 3 and all(m in state.legal_moves() for m in moves)
    values = [line.value for line in found.lines]
    assert values == sorted(values, reverse=True)
    for line in found.lines:
        child = state.apply(line.move)
        truth = 1.0 if child.is_terminal and child.outcome.winners else -_exact(child)
        assert round(line.value) == truth                 # wins score 1 − plies/1000
        assert line.pv[0] == line.move
    # every move left out is no better than the last line
    kept = {line.move for line in found.lines}
    rest = [-_exact(state.apply(m)) for m in state.legal_moves() if m not in kept]
    assert max(rest) <= round(found.lines[-1].value)
    assert found.value == found.lines[0].value
    single = engine.search(state, Limit(depth=9), Random(0))
    assert round(single.value) == round(found.value)


def test_more_lines_than_moves_give_every_move_once():
    state = tictactoe("X", "O", "X", "O", "X", "O", ".", ".", ".")
    found = AlphaBetaEngine("t", Limit(depth=9)).search_lines(state, 5, Limit(depth=9), Random(0))
    assert sorted(line.move for line in found.lines) == sorted(state.legal_moves())
    assert found.lines[0].value > 0.9 and found.lines[1].value > 0.9     # X wins on 6 or 8
    assert {found.lines[0].move, found.lines[1].move} == {6, 8}
    assert found.lines[2].move == 7 and found.lines[2].value == pytest.approx(0.997)   # wins later


def test_uct_lines_are_its_most_visited_root_moves():
    state = TicTacToeState()
    found = MCTSEngine("t", Limit(nodes=3000)).search_lines(state, 4, Limit(nodes=3000), Random(1))
    assert len(found.lines) == 4 and len({line.move for line in found.lines}) == 4
    visits = [line.nodes for line in found.lines]
    assert visits == sorted(visits, reverse=True) and visits[0] > visits[-1]
    assert all(line.pv[0] == line.move and -1.0 <= line.value <= 1.0 for line in found.lines)
    assert found.nodes == 3000
    assert 4 in {line.move for line in found.lines[:2]}      # the centre is among the best two


class _ChildValue(Engine):
    """An engine without a multi-PV of its own: the value of a position is how many X marks the
    player to move's opponent has (so moves are told apart only by searching their children)."""

    def _search(self, state, limit, rng, budget):
        budget.nodes += 1
        mover = state.current_player
        other = sum(1 for v in state.board if v == 1 - mover)
        move = state.legal_moves()[0]
        return SearchResult(move=move, value=-other / 10, pv=[move], nodes=1)


def test_the_generic_lines_search_each_child_and_turn_its_value_to_the_mover():
    state = tictactoe("X", ".", ".", ".", ".", ".", ".", ".", "O")
    found = _ChildValue("t", Limit(nodes=100)).search_lines(state, 2, Limit(nodes=100), Random(0))
    # after any X move O is to move and sees two X marks: -0.2 for O, so 0.2 for X, all equal;
    # the generated order breaks the tie, and every line starts with its move
    assert [line.move for line in found.lines] == state.legal_moves()[:2]
    assert all(line.value == pytest.approx(0.2) for line in found.lines)
    assert all(line.pv[:2] == [line.move, state.apply(line.move).legal_moves()[0]] for line in found.lines)
    assert found.nodes == len(state.legal_moves())


def test_the_generic_lines_take_a_won_game_at_once():
    state = tictactoe("X", "X", ".", "O", "O", ".", ".", ".", ".")
    found = _ChildValue("t", Limit(nodes=100)).search_lines(state, 3, Limit(nodes=100), Random(0))
    assert found.lines[0].move == 2 and found.lines[0].value == 1.0 and found.lines[0].pv == [2]


def test_erring_levels_never_err_in_their_lines():
    state = TicTacToeState()
    searcher = AlphaBetaEngine("t", Limit(depth=3))
    always_wrong = Erring(searcher, 1.0)
    assert always_wrong.search(state, Limit(depth=3), Random(0)).move != searcher.search(
        state, Limit(depth=3), Random(0)).move
    lines = always_wrong.search_lines(state, 3, Limit(depth=3), Random(0)).lines
    assert [line.move for line in lines] == [
        line.move for line in searcher.search_lines(state, 3, Limit(depth=3), Random(0)).lines]


def test_a_line_count_is_a_positive_integer_and_a_finished_game_has_none():
    engine = AlphaBetaEngine("t", Limit(depth=1))
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            engine.search_lines(TicTacToeState(), bad)
    with pytest.raises(ValueError):
        engine.search_lines(tictactoe("X", "X", "X", "O", "O", ".", ".", ".", "."), 2)


@pytest.mark.parametrize("slug", [s for s, g in games.GAMES.items() if not g.has_hidden_information])
def test_every_open_game_s_analysers_give_distinct_legal_lines(slug):
    game = games.get_game(slug)
    state = game.new_state()
    rng = Random(3)
    for _ in range(2):
        state = state.apply(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    for level in ("easy", "strong"):
        found = get_analyser(slug, level).search_lines(state, 3, Limit(seconds=0.15), Random(0))
        moves = [line.move for line in found.lines]
        assert 1 <= len(moves) <= 3 and len(set(moves)) == len(moves)
        assert all(m in state.legal_moves() and line.pv[0] == m for m, line in zip(moves, found.lines, strict=True))
        assert all(-1.0 <= line.value <= 1.0 for line in found.lines)
        if len(state.legal_moves()) >= 3:
            assert len(moves) == 3
    assert isinstance(get_engine(slug, "random").search_lines(state, 2).lines[0].move, type(state.legal_moves()[0]))
