"""Dai Hasami Shogi (docs/rules/hasami.md §3.5): §6 cases 16–18, perft, jumps, options."""
from __future__ import annotations

import json

import pytest

import games
from games import IllegalMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("dai-hasami-shogi")


def pos(black, white="", **kw):
    return GAME.position(black=black.split(), white=white.split(), **kw)


def pieces(state):
    d = state.to_dict()
    return set(d["black"]), set(d["white"])


def test_case_16_perft_and_jumps():
    start = GAME.new_state()
    assert tuple(perft(start, d) for d in (1, 2, 3)) == (54, 2_772, 177_272)
    jumps = [m for m in start.legal_notations() if m.endswith("3") and m[1] == "1"]
    assert len(jumps) == 9 and len(start.legal_moves()) - len(jumps) == 45
    after = start.play("e1-e3")
    assert pieces(after)[0] >= {"e2", "e3"} and "e1" not in pieces(after)[0]
    with pytest.raises(IllegalMoveError):
        start.play("e1-e4")


def test_jumps_any_colour_any_direction_once():
    s = pos("e5", "e6 a9")
    assert {"e5-e7", "e5-e4", "e5-e1"} <= set(s.legal_notations())
    assert "e5-e8" not in s.legal_notations()            # a jump is exactly two squares
    after = s.play("e5-e7")
    assert pieces(after) == ({"e7"}, {"e6", "a9"})       # the jumped man stays
    back = pos("e5 e4", "a9")
    assert "e5-e3" in back.legal_notations()             # backwards over a friend
    assert "e5-e3" not in pos("e5 e4 e3", "a9").legal_notations()


def test_a_jump_captures_on_landing():
    after = pos("e1 e2 c3", "d3 a9").play("e1-e3")
    assert pieces(after)[1] == {"a9"} and after.captures == (1, 0)


def test_custodial_never_against_the_edge_and_corner_enclosure():
    assert pieces(pos("d1", "a5 b5 c5 i9").play("d1-d5"))[1] == {"a5", "b5", "c5", "i9"}
    assert pieces(pos("a3 b9", "a9 i1").play("a3-a8"))[1] == {"i1"}
    assert pieces(pos("d9 e3 f9", "e9 i1").play("e3-e8"))[1] == {"e9", "i1"}


@pytest.mark.parametrize("limit,taken", [("any", {"d5", "e5"}), (1, set()), ("1", set())])
def test_custodial_max(limit, taken):
    after = pos("c5 f3 a1", "d5 e5 i9", options={"custodial_max": limit}).play("f3-f5")
    assert pieces(after)[1] == {"d5", "e5", "i9"} - taken
    single = pos("d5 f3 a1", "e5 i9", options={"custodial_max": limit}).play("f3-f5")
    assert pieces(single)[1] == {"i9"}


def _wins_by_five(state, move):
    after = state.play(move)
    return after.outcome is not None and after.outcome.termination is Termination.FIVE_IN_ROW \
        and after.outcome.winners == (state.to_move,)


def test_case_17_fives():
    assert _wins_by_five(pos("c5 d5 e5 f5 g3"), "g3-g5")
    not_yet = pos("e1 e2 e3 e4 e5 a6", "i9").play("a6-e6")
    assert not not_yet.is_terminal
    assert _wins_by_five(pos("e3 e4 e5 e6 a7"), "a7-e7")
    assert _wins_by_five(pos("c3 d4 e5 f6 g3", "i9"), "g3-g7")
    ortho = pos("c3 d4 e5 f6 g3", "i9", options={"line_dirs": "ortho"}).play("g3-g7")
    assert not ortho.is_terminal
    assert _wins_by_five(pos("i8", "a2 b2 c2 d2 e4", to_move=1), "e4-e2")
    anti = pos("g3 f4 e5 d6 b7", "i9")
    assert _wins_by_five(anti, "b7-c7") and not _wins_by_five(anti, "b7-b8")
    assert _wins_by_five(pos("g3 f4 e5 d6 c3", "i9"), "c3-c7")


def test_case_18_five_must_survive_a_reply():
    options = {"five_must_survive_reply": True}
    s = pos("c5 d5 e5 f5 g3 a1", "f6 a4", options=options).play("g3-g5")
    assert not s.is_terminal
    replies = s.legal_moves()
    assert "a4-f4" in [str(m) for m in replies]
    for move in replies:
        after = s.apply(move)
        if str(move) == "a4-f4":
            assert not after.is_terminal and "f5" not in pieces(after)[0]
        else:
            assert after.outcome.winners == (0,), move
            assert after.outcome.termination is Termination.FIVE_IN_ROW


def test_too_few_men_draws():
    s = pos("d5 f3 a1", "e5 a9 i9 h9 g9").play("f3-f5")
    assert s.outcome.is_draw and s.outcome.termination is Termination.TOO_FEW_MEN


def test_no_moves_loses_and_safeguards():
    s = pos("a2 b1 a3 c1", "a1", to_move=1)
    assert s.outcome.winners == (0,) and s.outcome.termination is Termination.NO_MOVES
    cycle = ["a2-a3", "a8-a7", "a3-a2", "a7-a8"]
    assert GAME.replay(moves=cycle * 3).outcome.termination is Termination.REPETITION
    assert not GAME.replay(moves=cycle * 3, options={"repetition": 0}).is_terminal
    limited = GAME.replay(moves=cycle[:2], options={"no_capture_limit": 2})
    assert limited.outcome.termination is Termination.NO_CAPTURE_LIMIT


def test_options_and_round_trip():
    assert GAME.normalize_options() == {
        "repetition": 4, "no_capture_limit": 100, "line_dirs": "ortho_diag",
        "five_must_survive_reply": False, "custodial_max": "any"}
    for bad in ({"custodial_max": 2}, {"line_dirs": "diag"}, {"capture_goal": 5}):
        with pytest.raises(InvalidOptionsError):
            GAME.new_state(options=bad)
    s = GAME.replay(moves=["e1-e3", "e9-e7", "a2-a6"], options={"custodial_max": "1"})
    assert GAME.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert s.render_svg().startswith("<svg")
