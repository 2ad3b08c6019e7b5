"""Mak-yek (docs/rules/hasami.md §3.5): §6 case 19, perft, captures and the goal."""
from __future__ import annotations

import json

import pytest

import games
from games import InvalidMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("mak-yek")


def pos(black, white="", **kw):
    return GAME.position(black=black.split(), white=white.split(), **kw)


def pieces(state):
    d = state.to_dict()
    return set(d["black"]), set(d["white"])


def test_case_19_perft_and_start():
    start = GAME.new_state()
    assert tuple(perft(start, d) for d in (1, 2, 3)) == (32, 1_008, 40_448)
    assert start.render_text().splitlines()[1] == " 8  W W W W W W W W  8"
    assert start.men == (16, 16)


def test_case_19_intervention_and_custodial():
    after = pos("e2 a1", "d4 f4 h8").play("e2-e4")
    assert pieces(after)[1] == {"h8"} and after.captures == (2, 0)
    exact = pos("e2", "d4 f4").play("e2-e4")
    assert pieces(exact)[1] == set()
    both = pos("e2 e6", "d4 f4 e5").play("e2-e4")
    assert pieces(both)[1] == set() and both.captures == (3, 0)


def test_case_19_all_captured():
    after = pos("d5 f1", "e5").play("f1-f5")
    assert after.outcome.winners == (0,) and after.outcome.termination is Termination.ALL_CAPTURED


def test_edge_never_closes_and_no_enclosure():
    assert pieces(pos("d1", "a5 b5 c5 h8").play("d1-d5"))[1] == {"a5", "b5", "c5", "h8"}
    assert pieces(pos("a3 b8", "a8 h1").play("a3-a7"))[1] == {"a8", "h1"}


def test_no_moves_and_safeguards():
    s = pos("a2 b1", "a1 h8", to_move=1)
    assert not s.is_terminal                              # h8 can still move
    blocked = pos("a2 b1", "a1", to_move=1)
    assert blocked.outcome.termination is Termination.NO_MOVES
    cycle = ["a1-a2", "a8-a7", "a2-a1", "a7-a8"]
    assert GAME.replay(moves=cycle * 3).outcome.termination is Termination.REPETITION
    limited = GAME.replay(moves=cycle, options={"no_capture_limit": 4, "repetition": 0})
    assert limited.outcome.termination is Termination.NO_CAPTURE_LIMIT


def test_notation_and_options():
    start = GAME.new_state()
    with pytest.raises(InvalidMoveError):
        start.parse_move("i3-i4")                         # no file i on 8x8
    with pytest.raises(InvalidMoveError):
        start.parse_move("a9-a8")
    assert str(start.parse_move(" A3-A5 ")) == "a3-a5"
    assert set(GAME.options) == {"repetition", "no_capture_limit"}
    with pytest.raises(InvalidOptionsError):
        GAME.new_state(options={"tenbin": True})
    s = GAME.replay(moves=["a3-a5", "h6-h4"])
    assert GAME.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s
