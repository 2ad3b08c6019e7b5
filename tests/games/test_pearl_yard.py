"""Pearl Yard — docs/rules/pearl.md §7 and its test cases §9.17–9.20."""
import json
from functools import lru_cache

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("pearl-yard")


def _forced_win(winner: int):
    """AND/OR search: can `winner` force a win within the given plies (a pass is a ply)?"""
    @lru_cache(maxsize=None)
    def wins(state, plies):
        if state.outcome is not None:
            return state.outcome.winners == (winner,)
        if plies == 0:
            return False
        results = (wins(state.apply(m), plies - 1) for m in state.legal_moves())
        return any(results) if state.current_player == winner else all(results)
    return wins


# §9.17 Yard start ---------------------------------------------------------------------------------
def test_start_and_perft():
    police_first = GAME.new_state()
    assert police_first.legal_notations() == ["N", "E", "S", "W"]
    assert [perft(police_first, d) for d in range(1, 5)] == [4, 10, 21, 38]
    thief_first = GAME.new_state(options={"first": "thief"})
    assert thief_first.current_player == 1 and len(thief_first.legal_moves()) == 4
    assert [perft(thief_first, d) for d in range(1, 5)] == [4, 11, 21, 41]


def test_start_layout_is_the_cross():
    view = GAME.new_state().view(None)
    assert view["police"] == "e7" and view["thief"] == "e5"
    assert sorted(view["whites"]) == sorted(["e8", "e6", "d5", "f5", "e4"])
    big = GAME.new_state(options={"size": 13}).view(None)
    assert big["thief"] == "g7" and big["police"] == "g9"


# §9.18 Yard blocked Thief ------------------------------------------------------------------------
def test_blocked_thief_must_pass():
    state = GAME.new_state().play("N")
    view = state.view(None)
    assert view["thief"] == "e6" and view["police"] == "e8" and view["banned"] == "S"
    assert state.legal_notations() == ["pass"]
    for move in ("E", "W", "N", "S"):
        with pytest.raises(IllegalMoveError):
            state.play(move)
    after = state.play("pass")
    assert after.current_player == 0 and after.view(None)["banned"] is None


# §9.19 Yard solved, Police first -----------------------------------------------------------------
def test_police_first_forced_win_in_15_plies():
    start = GAME.new_state()
    assert not _forced_win(0)(start, 14)
    assert _forced_win(0)(start, 15)
    line = "N pass E pass E pass S pass S pass S pass W pass W".split()
    final = GAME.replay(moves=line)
    assert final.ply == 15 and final.outcome.winners == (0,)
    assert final.outcome.termination is Termination.CAUGHT


# §9.20 Yard solved, Thief first; larger boards ---------------------------------------------------
def test_thief_first_forced_escape_in_11_plies():
    start = GAME.new_state(options={"first": "thief"})
    assert not _forced_win(1)(start, 10)
    assert _forced_win(1)(start, 11)
    line = "S S E N E pass E pass E pass E".split()
    before = GAME.replay(options={"first": "thief"}, moves=line[:-1])
    assert before.view(None)["thief"] == "i3"
    final = before.play(line[-1])
    assert final.outcome.winners == (1,) and final.outcome.termination is Termination.ESCAPE
    assert final.view(None)["thief"] is None and final.ply == 11


@pytest.mark.parametrize("size,plies", [(11, 16), (13, 18)])
def test_larger_boards_thief_escapes_with_police_first(size, plies):
    start = GAME.new_state(options={"size": size})
    assert _forced_win(1)(start, plies)
    assert not _forced_win(1)(start, plies - 1)


# §7.3–7.4 details ------------------------------------------------------------------------------
def test_push_moves_the_run_and_the_other_piece():
    after = GAME.new_state().play("S")       # tail e8: e8 e7(P) e6 e5(T) e4 shift south
    view = after.view(None)
    assert view["police"] == "e6" and view["thief"] == "e4" and "e8" in view["whites"]
    assert "e3" in view["whites"] and view["banned"] == "N"
    assert "N" not in after.legal_notations()


def test_police_or_white_may_not_leave_the_board():
    state = GAME.position(police="e9", thief="a1", whites=["e8"], to_move=0)
    assert "N" not in state.legal_notations()      # P would leave the top edge
    state = GAME.position(police="e8", thief="a1", whites=["e9"], to_move=0)
    assert "N" not in state.legal_notations()      # the white pearl ahead would leave


def test_police_pushing_the_thief_off_lets_it_escape():
    state = GAME.position(police="g5", thief="i5", whites=["h5"], to_move=0)
    assert state.outcome is None
    after = state.play("E")
    assert after.outcome.winners == (1,) and after.outcome.termination is Termination.ESCAPE


def test_thief_walking_into_police_loses():
    state = GAME.position(police="c3", thief="e3", to_move=1)
    after = state.play("W")
    assert after.outcome.winners == (0,) and after.outcome.termination is Termination.CAUGHT


def test_no_two_by_two_block():
    state = GAME.position(police="c8", thief="e5", whites=["d6", "d5"], to_move=1)
    assert "N" not in state.legal_notations()   # e5 → e6 beside d5 d6 with the new pearl on e5


def test_mutual_block_is_a_draw():
    # An isolated Police in a corner cannot move; this Thief is boxed in by the 2×2 rule.
    # The Thief as in §9.18 (without the ban: S has no empty point behind the column).
    column = ["e4", "e5", "d5", "f5", "e7", "e8", "e9"]
    state = GAME.position(police="a1", thief="e6", whites=column, to_move=0)
    assert state.outcome.is_draw and state.outcome.termination is Termination.MUTUAL_BLOCK
    assert state.legal_moves() == []
    stuck = GAME.position(police="a1", thief="e5", to_move=0)
    assert GAME.position(police="a1", thief="i9", to_move=1).legal_notations() == ["N", "E"]
    assert stuck.legal_notations() == ["pass"] and stuck.outcome is None


def test_notation_options_and_round_trip():
    state = GAME.new_state()
    assert state.parse_move("n") == state.parse_move("N")
    for bad in ("", "NE", "x", "e5", "e5-e6"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError):
        state.parse_move("pass")
    assert GAME.normalize_options() == {"size": 9, "first": "police"}
    with pytest.raises(InvalidOptionsError):
        GAME.normalize_options({"size": 10})
    later = GAME.replay(moves=["N", "pass", "E"])
    data = json.loads(json.dumps(later.to_dict()))
    assert GAME.state_from_dict(data) == later
    assert "P" in later.render_text() and later.render_svg().startswith("<svg")
