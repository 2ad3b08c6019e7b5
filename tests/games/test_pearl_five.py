"""Pearl Five — docs/rules/pearl.md §4 and its test cases §9.9–9.12."""
import json

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, Termination, perft

GAME = games.get_game("pearl-five")


def _moves(state):
    return set(state.legal_notations())


# §9.9 Five start -------------------------------------------------------------------------------
@pytest.mark.parametrize("size,centre", [(19, "j10"), (15, "h8")])
def test_start_perft_and_first_moves(size, centre):
    state = GAME.new_state(options={"size": size})
    assert state.legal_notations() == [centre]
    after = state.play(centre)
    assert _moves(after) == {centre + d for d in "NESW"}
    assert [perft(state, d) for d in range(1, 6)] == [1, 4, 24, 192, 1856]


def test_start_perft_push_single():
    state = GAME.new_state(options={"push": "single"})
    assert [perft(state, d) for d in range(1, 6)] == [1, 4, 16, 64, 128]


# §9.10 Five edge --------------------------------------------------------------------------------
def test_edge_nothing_leaves_or_enters_the_board():
    state = GAME.position(black=["s10"], white=["r10"], to_move=0)
    assert _moves(state) == {"r10N", "r10S", "s10N", "s10S"}
    with pytest.raises(IllegalMoveError):
        state.play("r10E")   # would push s10 off
    with pytest.raises(IllegalMoveError):
        state.play("s10W")   # would enter from off the board


# §9.11 Five handicap ----------------------------------------------------------------------------
DIAGONAL = dict(black=["b3", "c3", "d4", "e5", "f6"], white=["c4", "d5", "e6", "f7", "g7"])
OVERLINE = dict(black=["c5", "d5", "e5", "f5", "h5", "g4"], white=["b5", "c6", "e6", "f4", "i5"])


def test_handicap_black_diagonal_does_not_count():
    on = GAME.position(**DIAGONAL, to_move=0).play("g7S")
    assert not on.is_terminal
    assert {"c3", "d4", "e5", "f6", "g7"} <= set(on.view(None)["black"])
    assert "g6" in on.view(None)["white"]
    off = GAME.position(**DIAGONAL, to_move=0, options={"handicap": "off"}).play("g7S")
    assert off.outcome.winners == (0,) and off.outcome.termination is Termination.LINE
    assert off.view(1)["counts"] == {"black": 6, "white": 5}


def test_handicap_black_overline_made_by_white_does_not_count():
    on = GAME.position(**OVERLINE, to_move=1).play("g4N")
    assert not on.is_terminal
    assert {"c5", "d5", "e5", "f5", "g5", "h5"} <= set(on.view(None)["black"])
    off = GAME.position(**OVERLINE, to_move=1, options={"handicap": "off"}).play("g4N")
    assert off.outcome.winners == (0,) and off.outcome.termination is Termination.LINE


# §9.12 Five both / opponent's -------------------------------------------------------------------
def test_both_colours_lined_up_is_a_draw():
    state = GAME.position(black=["b2", "c2", "d2", "e2", "e3", "e4"],
                          white=["f2", "f4", "f5", "f6", "f7", "g7"], to_move=0)
    after = state.play("f2N")
    assert after.outcome.is_draw and after.outcome.termination is Termination.BOTH_LINES
    assert after.current_player is None and after.legal_moves() == []


def test_line_made_by_the_opponent_wins_for_its_owner():
    state = GAME.position(black=["c5", "d5", "e5", "f5", "g4"], white=["b5", "c6", "e6", "f4"],
                          to_move=1)
    after = state.play("g4N")
    assert after.outcome.winners == (0,) and after.outcome.scores == (1.0, 0.0)
    assert after.outcome.termination is Termination.LINE


def test_white_diagonal_counts_even_with_handicap():
    state = GAME.position(black=["f6", "a1"], white=["b2", "c3", "d4", "e5"], to_move=1)
    after = state.play("f6N")   # Black f6 -> f7, White on f6: the diagonal b2-f6
    assert after.outcome.winners == (1,) and after.outcome.termination is Termination.LINE


# Rules §4.2–4.3 beyond the numbered cases --------------------------------------------------------
def test_push_single_needs_an_empty_point_ahead():
    state = GAME.position(black=["j10"], white=["j11"], to_move=1, options={"push": "single"})
    assert "j10N" not in _moves(state)          # j11 is occupied
    assert "j10E" in _moves(state)
    run = GAME.position(black=["j10"], white=["j11"], to_move=1)
    after = run.play("j10N")
    assert after.view(None)["white"] == ["j10", "j12"] and after.view(None)["black"] == ["j11"]


def test_invariant_connected_and_one_pearl_per_ply():
    from random import Random
    state, rng = GAME.new_state(), Random(4)
    for ply in range(60):
        if state.is_terminal:
            break
        state = state.play(rng.choice(state.legal_notations()))
        view = state.view(None)
        points = set(view["black"]) | set(view["white"])
        assert len(points) == state.ply == ply + 1
        seen, todo = set(), [next(iter(points))]
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            x, y = ord(p[0]), int(p[1:])
            todo += [q for q in (f"{chr(x + 1)}{y}", f"{chr(x - 1)}{y}", f"{p[0]}{y + 1}",
                                 f"{p[0]}{y - 1}") if q in points]
        assert seen == points


def test_full_board_is_a_draw_by_no_moves():
    # Every point but a1 filled, no five anywhere: neither colour can push in (§4.3).
    points = [(x, y) for x in range(15) for y in range(15) if (x, y) != (0, 0)]
    black = [f"{chr(97 + x)}{y + 1}" for x, y in points if (x // 2 + y) % 2 == 0]
    white = [f"{chr(97 + x)}{y + 1}" for x, y in points if (x // 2 + y) % 2 == 1]
    state = GAME.position(black=black, white=white, to_move=0, options={"size": 15})
    assert state.outcome.is_draw and state.outcome.termination is Termination.NO_MOVES
    assert state.legal_moves() == []


def test_notation_round_trip_and_errors():
    state = GAME.new_state().play("j10").play("j10e")
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
    assert state.parse_move("K10n") == state.parse_move("k10N")
    for bad in ("", "j10X", "z10N", "j20N", "j10-j11", "pass"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError):
        state.parse_move("a1N")  # a1 is empty
    with pytest.raises(IllegalMoveError):
        state.parse_move("j10")  # placements only on ply 1


def test_options_and_round_trip():
    assert GAME.normalize_options() == {"size": 19, "handicap": "on", "push": "run"}
    with pytest.raises(InvalidOptionsError):
        GAME.normalize_options({"size": 13})
    with pytest.raises(InvalidOptionsError):
        GAME.normalize_options({"handicap": "maybe"})
    state = GAME.replay(options={"size": 15, "handicap": "off", "push": "single"},
                        moves=["h8", "h8N", "h9E"])
    data = json.loads(json.dumps(state.to_dict()))
    assert GAME.state_from_dict(data) == state and state.view(0)["last_move"] == "h9E"
    assert "B" in state.render_text() and state.render_svg().startswith("<svg")
