"""Pearl Survival — docs/rules/pearl.md §6, §11 and its test cases §9.14–9.16."""
import json
from dataclasses import replace

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("pearl-survival")


def _seat(state, seat):
    return state.view(None)["seats"][seat]


# §9.14 Survival start ---------------------------------------------------------------------------
def test_start_setup_points_and_first_slides():
    start = GAME.new_state(players=2)
    assert len(start.legal_moves()) == 20 and start.view(None)["phase"] == "setup"
    assert "g13" in start.legal_notations() and "h12" not in start.legal_notations()
    ready = start.play("g13").play("h13")
    assert ready.current_player == 0 and ready.view(None)["phase"] == "play"
    expected = {f"g13-{c}13" for c in "hijkl"} | {f"g13-g{r}" for r in range(8, 13)}
    assert set(ready.legal_notations()) == expected and len(expected) == 10


def test_start_perft():
    start = GAME.new_state(players=2)
    assert [perft(start, d) for d in range(1, 5)] == [20, 380, 3800, 32832]


# §9.15 Survival push-back -----------------------------------------------------------------------
def test_push_back_ban():
    state = GAME.replay(players=2, moves=["g13", "h13", "g13-h13"])
    assert _seat(state, 1)["point"] == "i13" and _seat(state, 1)["banned"] == ["W"]
    moves = state.legal_notations()
    assert len(moves) == 8 and "i13-h13" not in moves and "i13-g13" not in moves
    with pytest.raises(IllegalMoveError):
        state.play("i13-h13")
    after = state.play("i13-i12")   # B empties after the seat's own turn
    assert _seat(after, 1)["banned"] == []


# §9.16 Survival elimination ---------------------------------------------------------------------
def test_elimination_by_push_off():
    start = GAME.new_state(players=2, options={"size": 9})
    assert set(start.view(None)["whites"]) == {f"{c}{r}" for c in "bcdefg" for r in range(3, 9)}
    before = GAME.replay(players=2, options={"size": 9}, moves=["b8", "g8"])
    assert "b8-e8" in before.legal_notations()
    final = before.play("b8-e8")
    assert final.outcome.winners == (0,) and final.outcome.termination is Termination.LAST_SURVIVOR
    assert final.outcome.scores == (1.0, 0.0)
    assert _seat(final, 1)["status"] == "eliminated" and _seat(final, 1)["point"] is None


# §6.4, §11 death and scores ----------------------------------------------------------------------
def test_seat_without_a_slide_dies_and_turns_white():
    state = GAME.position(["b8", "g8", "a1"], to_move=2, options={"size": 9})
    assert state.current_player == 0
    assert _seat(state, 2)["status"] == "dead" and "a1" in state.view(None)["whites"]
    assert state.out == (-1, -1, 0)


def test_lone_pearls_die_and_the_other_survives():
    state = GAME.position(["g13", "h13"], whites=[], to_move=0)
    assert state.outcome.winners == (1,) and state.outcome.scores == (0.0, 1.0)


def test_seats_eliminated_by_one_slide_share_their_place():
    state = GAME.position(["b8", "f8", "g8", "b3"], to_move=0, options={"size": 9})
    after = state.play("b8-f8")     # g8 leaves on step 3, f8 on step 4
    assert [s["status"] for s in after.view(None)["seats"]] == ["live", "eliminated",
                                                                "eliminated", "live"]
    assert after.out == (-1, 0, 0, -1) and after.current_player == 3


def test_enter_white_and_dead_pearls_count_as_white():
    state = GAME.replay(players=2, options={"enter": "white"}, moves=["g13", "h13"])
    assert "g13-h13" not in state.legal_notations()        # h13 holds seat 1's pearl
    assert "g13-g12" in state.legal_notations()
    dead = GAME.position(["b8", "c8", "a1"], to_move=2, options={"size": 9, "enter": "white"})
    assert _seat(dead, 2)["status"] == "dead"


def test_enter_white_death_rule_before_the_first_turn():
    # Seat 0 between seat 1 and the edge: every slide would step into a seat's pearl or nowhere.
    state = GAME.position(["b8", "c8", "b7"], to_move=0, options={"size": 9, "enter": "white"})
    assert _seat(state, 0)["status"] == "dead" and state.current_player == 1


def test_max_plies_cut_off_scores():
    state = GAME.position(["g13", "l8", "g8"], to_move=0, options={"max_plies": 100})
    state = replace(state, ply=99)
    final = state.play(state.legal_notations()[0])
    assert final.outcome.termination is Termination.MAX_PLIES and final.outcome.winners == ()
    assert final.outcome.scores == (0.0, 0.0, 0.0)


def test_third_repetition_cuts_off():
    state = GAME.position(["g13", "h13"], to_move=0)
    move = state.legal_moves()[0]
    key = state.apply(move).history[-1]
    primed = replace(state, history=(key, key))
    final = primed.apply(move)
    assert final.outcome.termination is Termination.REPETITION and final.outcome.winners == ()
    assert final.outcome.scores == (0.0, 0.0)
    assert not state.apply(move).is_terminal


def test_options_notation_and_round_trip():
    assert GAME.normalize_options() == {"size": 19, "n": 6, "enter": "any", "max_plies": 300}
    for bad in ({"size": 8}, {"n": 3}, {"n": 9}, {"enter": "none"}, {"max_plies": 99}):
        with pytest.raises(InvalidOptionsError):
            GAME.normalize_options(bad)
    with pytest.raises(InvalidOptionsError):
        GAME.new_state(players=2, options={"size": 9, "n": 8})
    small = GAME.new_state(players=4, options={"size": 9, "n": 4})
    assert len(small.legal_moves()) == 12
    state = GAME.replay(players=3, moves=["g13", "l8", "g8"])
    assert state.parse_move("G13-G12") == state.parse_move("g13-g12")
    for bad in ("", "g13-h12", "g13-g13", "z1-z2", "g13-", "pass"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError):
        state.parse_move("h12")        # set-up is over
    later = state.play("g13-g12")
    data = json.loads(json.dumps(later.to_dict()))
    assert GAME.state_from_dict(data) == later
    assert "0" in later.render_text() and later.render_svg().startswith("<svg")
