"""Latrunculi (docs/rules/hasami.md §3.5, Kowalski 8x12): §6 case 20, perft, the dux, blockade."""
from __future__ import annotations

import json

import pytest

import games
from games import InvalidMoveError, Termination, perft

GAME = games.get_game("latrunculi")


def pos(black, white="", duces="", **kw):
    return GAME.position(black=black.split(), white=white.split(), duces=duces.split(), **kw)


def pieces(state):
    d = state.to_dict()
    return set(d["black"]), set(d["white"])


def test_case_20_perft_and_start():
    start = GAME.new_state()
    assert tuple(perft(start, d) for d in (1, 2, 3)) == (81, 6_285, 537_761)
    rows = start.render_text().splitlines()
    assert rows[0] == "    a b c d e f g h i j k l"
    assert rows[2] == " 7  . . . . . Y . . . . . .  7"
    assert rows[7] == " 2  . . . . . . X . . . . .  2"
    assert start.view(None)["board"][6] == "......X....."


def test_case_20_a_line_of_two_is_safe():
    assert pieces(pos("c5 f1", "d5 e5").play("f1-f5"))[1] == {"d5", "e5"}


def test_case_20_the_dux_captures():
    after = pos("d5 f1", "e5 l8", duces="f1").play("f1-f5")
    assert pieces(after)[1] == {"l8"} and after.to_dict()["duces"] == ["f5"]


def test_case_20_a_dux_is_never_taken():
    after = pos("d5 f1", "d1 e5", duces="e5").play("f1-f5")
    assert pieces(after)[1] == {"d1", "e5"} and after.captures == (0, 0)


def test_case_20_corner():
    after = pos("a1 b8", "a8 l1").play("a1-a7")
    assert pieces(after)[1] == {"l1"}
    pair = pos("a1", "a8 b8 l1").play("a1-a7")
    assert pieces(pair)[1] == {"a8", "b8", "l1"}


def test_case_20_blocked_dux_loses():
    s = pos("a1", "a2 b1 l8", duces="a1")
    assert s.outcome.winners == (1,) and s.outcome.termination is Termination.NO_MOVES
    assert s.legal_moves() == [] and s.current_player is None


def test_corner_man_next_to_its_own_dux_is_safe():
    after = pos("a1", "a8 b8", duces="b8").play("a1-a7")
    assert pieces(after)[1] == {"a8", "b8"}


def test_notation_storage_and_safeguards():
    start = GAME.new_state()
    assert str(start.parse_move("G2-G6")) == "g2-g6"
    with pytest.raises(InvalidMoveError):
        start.parse_move("m1-m2")
    s = start.play("g2-g6")
    assert s.to_dict()["duces"] == ["g6", "f7"]
    assert GAME.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s
    cycle = ["a1-a2", "a8-a7", "a2-a1", "a7-a8"]
    assert GAME.replay(moves=cycle * 3).outcome.termination is Termination.REPETITION
    assert not GAME.replay(moves=cycle * 3, options={"repetition": 0}).is_terminal
    assert GAME.replay(moves=cycle, options={"repetition": 2}).outcome.is_draw
    limited = GAME.replay(moves=cycle[:3], options={"no_capture_limit": 3})
    assert limited.outcome.termination is Termination.NO_CAPTURE_LIMIT
    assert 'D</text>' in start.render_svg()
