"""The strong Pearl Maze level walks the known longest walks from the standard starts."""
from random import Random

import pytest

import games
from ai_workers.engines import Limit, get_engine

MAZE = games.get_game("pearl-maze")


def _walk(level: str, options: dict, limit: Limit) -> float:
    state, engine = MAZE.new_state(options=options), get_engine("pearl-maze", level)
    while not state.is_terminal:
        state = state.play(engine.search(state, limit=limit, rng=Random(0)).move)
    return state.outcome.scores[0]


@pytest.mark.parametrize("options,steps", [({}, 69), ({"n": 3}, 17), ({"black": "outside"}, 77)])
def test_strong_reaches_the_maximum_from_the_standard_starts(options, steps):
    assert _walk("strong", options, Limit(nodes=50)) == steps


def test_the_book_is_strong_only_and_off_book_positions_are_searched():
    assert _walk("medium", {}, Limit(nodes=50)) < 69
    off_book = MAZE.replay(moves=["D"])               # the book's walk starts with R
    result = get_engine("pearl-maze", "strong").search(off_book, limit=Limit(nodes=200), rng=Random(0))
    assert result.move in off_book.legal_moves() and result.nodes > 1
