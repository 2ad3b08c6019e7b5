"""Engines answering offers: a pure function of the position."""
from random import Random

import games
from ai_workers.engines.offers import OPENING_PLIES_PER_SEAT, accepts_draw, accepts_takeback


def _quiet_position(plies: int):
    state, rng = games.get_game("hasami-shogi").new_state(players=2, seed=0), Random(1)
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _answer(state, ply, **extra):
    args = {"game": "hasami-shogi", "level": "easy", "ply": ply, "seats": 2, "hidden_information": False,
            "rng": Random(0), **extra}
    return accepts_draw(state, 1, **args)


def test_a_level_position_past_the_opening_is_a_draw():
    state = _quiet_position(20)
    assert state.view(None)["men"] == [9, 9]
    assert _answer(state, 20)
    assert _answer(state, 20, level="random")          # judged by the easy engine


def test_no_draw_in_the_opening_with_hidden_cards_or_more_seats():
    state = _quiet_position(20)
    assert not _answer(state, 2 * OPENING_PLIES_PER_SEAT - 1)
    assert not _answer(state, 20, hidden_information=True)
    assert not _answer(state, 20, seats=3)


def test_engines_never_take_back():
    assert accepts_takeback() is False
