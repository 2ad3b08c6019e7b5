"""Pearl War — docs/rules/pearl.md §3, §11 and its test cases §9.1–9.8.

The depth-3 perft (9,363,480) runs in the benchmark: `python -m bench.perft pearl-war --depth 3`.
"""
import json
from dataclasses import replace

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("pearl-war")
BLACK, WHITE = 0, 1


def _moves(state):
    return set(state.legal_notations())


def _white(*points, black=(), to_move=WHITE):
    return GAME.position(white=points, black=black, to_move=to_move)


# §9.1 War start ---------------------------------------------------------------------------------
@pytest.mark.parametrize("army,count,longest", [("staircase", 210, 7), ("square", 180, 5)])
@pytest.mark.parametrize("first", ["black", "white"])
def test_start_moves(army, count, longest, first):
    state = GAME.new_state(options={"army": army, "first": first})
    assert state.current_player == (BLACK if first == "black" else WHITE)
    moves = state.legal_moves()
    assert len(moves) == count and max(m.k for m in moves) == longest


def test_start_perft_black_first():
    state = GAME.new_state()
    assert perft(state, 1) == 210
    assert perft(state, 2) == 44_100


def test_start_layout():
    view = GAME.new_state().view(None)
    assert len(view["white"]) == len(view["black"]) == 36
    assert view["counts"] == {"black": 36, "white": 36} and view["to_move"] == BLACK
    assert "a1" in view["white"] and "h1" in view["white"] and "a8" in view["white"]
    assert "s19" in view["black"] and "l19" in view["black"] and "s12" in view["black"]
    square = GAME.new_state(options={"army": "square", "size": 13}).view(None)
    assert {"a1", "f6"} <= set(square["white"]) and {"h8", "m13"} <= set(square["black"])


# §9.2 Contact a ---------------------------------------------------------------------------------
def test_contact_a_isolated_line():
    alone = _white("c3", "d3", "e3")
    assert "c3-c4" not in alone.legal_notations() and alone.legal_moves() == []
    with_black = _white("c3", "d3", "e3", black=["p17", "q17", "q16"])
    assert with_black.legal_notations() == ["pass"]
    black_turn = with_black.play("pass")
    assert _moves(black_turn) == {"p17-p16", "q16-p16"}
    blocked = _white("c3", "d3", "e3", black=["q17", "r17", "s17"])
    assert blocked.outcome.is_draw and blocked.outcome.termination is Termination.MUTUAL_BLOCK
    assert blocked.legal_moves() == [] and blocked.current_player is None


# §9.3–9.6 Contact b–e ---------------------------------------------------------------------------
def test_contact_b_after_check():
    state = _white("c3", "d3", "d4")
    assert _moves(state) == {"c3-c4", "c3-d3"}
    with pytest.raises(IllegalMoveError):
        state.play("c3-c5")


def test_contact_c_friend_in_the_path_never_counts():
    assert _white("c3", "d3", "c5").legal_moves() == []


def test_contact_d_enemy_row_pearl_does_not_count():
    assert _white("c3", "d4", black=["c4"]).legal_moves() == []
    state = _white("c3", "d4", "d3", black=["c4"])
    assert _moves(state) == {"c3-c4", "c3-d3"}
    after = state.play("c3-c4")
    assert after.view(None)["black"] == ["c5"] and set(after.view(None)["white"]) == {
        "c4", "d3", "d4"}


def test_contact_e_any_row_pearl_suffices():
    assert _moves(_white("c3", "c4", "c5", "d5")) == {"c3-c4", "c3-c5", "c4-c5", "c4-d4"}


# §9.7 Push-back ---------------------------------------------------------------------------------
def test_push_back_ban():
    state = GAME.position(white=["e4", "f4", "f5", "g5"], black=["g6", "h5", "h6"], to_move=BLACK)
    assert _moves(state) == {"g6-g5", "h5-g5"}
    after = state.play("h5-g5")
    assert set(after.view(None)["white"]) == {"e4", "f4", "e5", "f5"}
    assert after.view(None)["no_push_back"] == {"direction": "E", "points": ["e5", "f5"]}
    assert _moves(after) == {"e4-e5", "e4-f4", "f4-f5"}
    with pytest.raises(IllegalMoveError):
        after.play("e5-f5")
    # Without the ban (the same pearls, no previous slide) e5-f5 would be legal.
    free = GAME.position(white=["e4", "f4", "e5", "f5"], black=["g5", "g6", "h6"], to_move=WHITE)
    assert "e5-f5" in free.legal_notations()


def test_ban_lasts_one_ply_and_pass_clears_it():
    state = GAME.position(white=["e4", "f4", "f5", "g5"], black=["g6", "h5", "h6"], to_move=BLACK)
    after = state.play("h5-g5").play("e4-e5")
    assert after.current_player == BLACK and after.view(None)["no_push_back"] is None
    assert state.play("h5-g5").play("e4-e5").ban == 0


# §9.8 Home --------------------------------------------------------------------------------------
def test_home():
    state = _white("q18", "q19", "r18", "r19", black=["s19"])
    assert _moves(state) == {"q18-q19", "q18-r18", "q19-r19", "r18-r19"}
    pushed_own = state.play("q18-q19")
    assert "q19" in pushed_own.view(None)["white"] and len(pushed_own.view(None)["white"]) == 3
    final = state.play("q19-r19")
    assert final.outcome.winners == (WHITE,) and final.outcome.termination is Termination.HOME
    assert final.view(None)["black"] == [] and "s19" in final.view(None)["white"]


# §3.5, §11 safeguards ----------------------------------------------------------------------------
def test_third_repetition_is_a_draw():
    state = GAME.new_state()
    move = state.legal_moves()[0]
    key = state.apply(move).history[-1]
    primed = replace(state, history=state.history + (key, key))
    final = primed.apply(move)
    assert final.outcome.is_draw and final.outcome.termination is Termination.REPETITION
    assert not state.apply(move).is_terminal


def test_repetition_key_includes_the_ban():
    state = GAME.position(white=["e4", "f4", "f5", "g5"], black=["g6", "h5", "h6"], to_move=BLACK)
    after = state.play("h5-g5")
    assert after.history[-1].endswith("/" + format(after.ban, "x")) and after.ban


def test_ply_cap():
    state = replace(GAME.new_state(options={"max_plies": 100}), ply=99)
    final = state.play(state.legal_notations()[0])
    assert final.outcome.is_draw and final.outcome.termination is Termination.MAX_PLIES


def test_win_comes_before_the_ply_cap():
    state = replace(_white("q18", "q19", "r18", "r19", black=["s19"]), ply=599)
    assert state.play("q19-r19").outcome.termination is Termination.HOME


# options, notation, storage -------------------------------------------------------------------
def test_options():
    assert GAME.normalize_options() == {"size": 19, "army": "staircase", "first": "black",
                                        "max_plies": 600}
    for bad in ({"size": 17}, {"army": "wedge"}, {"first": "red"}, {"max_plies": 2001}):
        with pytest.raises(InvalidOptionsError):
            GAME.normalize_options(bad)
    small = GAME.new_state(options={"size": 13})
    assert "m13" in small.view(None)["black"] and len(small.legal_moves()) == 210
    assert len(GAME.new_state(options={"size": 15}).legal_moves()) == 210


def test_notation_and_round_trip():
    state = GAME.new_state()
    for move in state.legal_moves()[:20]:
        assert state.parse_move(str(move)) == move
    first = state.legal_notations()[0]
    assert state.parse_move(first.upper()) == state.parse_move(first)
    assert {"m19-m18", "l19-l18", "s12-r12", "r13-r12"} <= set(state.legal_notations())
    for bad in ("", "l19", "l19-l19", "l19-k18", "l19-t19", "l19-k19-j19", "x"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(bad)
    for illegal in ("pass", "l19-m19", "a1-a2", "s12-s11"):
        with pytest.raises(IllegalMoveError):
            state.parse_move(illegal)
    later = GAME.replay(moves=["m19-m17", "h1-h2"])
    data = json.loads(json.dumps(later.to_dict()))
    assert GAME.state_from_dict(data) == later
    assert "B" in later.render_text() and later.render_svg().startswith("<svg")
