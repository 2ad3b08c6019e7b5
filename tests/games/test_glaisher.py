"""Glaisher (docs/rules/glaisher.md): every §6 case, perft counts, notation, options and storage."""
from __future__ import annotations

import json
import pickle
from random import Random

import pytest

import games
from games import (
    GameOverError, IllegalMoveError, InvalidMoveError, InvalidOptionsError, InvalidStateError,
    Termination, perft,
)
from games.glaisher import (
    BOARD, CELL_BY_NAME, NAMES, RED, YELLOW, GlaisherState, Move, Split, candidate_splits,
    distinct_partitions, parse_move,
)
from games.hexgrid import DIRECTIONS, E, NE, NW, SE, SW, W

GAME = games.get_game("glaisher")


def position(stacks: str, to_move: int = RED, **kwargs) -> GlaisherState:
    return GAME.position(stacks, to_move=to_move, **kwargs)


def splits(state: GlaisherState, seat: int | None = None) -> set[str]:
    return {str(s) for s in state.legal_splits(seat)}


def cell(name: str, state: GlaisherState) -> str:
    """A cell as docs/rules/glaisher.md writes it: `R3`, `Y1` or `.`."""
    value = state.cells[CELL_BY_NAME[name]]
    return "." if not value else ("R" if value > 0 else "Y") + str(abs(value))


def roundtrip(state: GlaisherState) -> GlaisherState:
    return GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))


# ---------------------------------------------------------------------------------------------
# §2 board, names, start positions, text rendering
# ---------------------------------------------------------------------------------------------
def test_cell_names_rows_and_centre():
    rows = {"a": (1, 5), "b": (1, 6), "c": (1, 7), "d": (1, 8), "e": (1, 9),
            "f": (2, 9), "g": (3, 9), "h": (4, 9), "i": (5, 9)}
    expected = {f"{letter}{n}" for letter, (lo, hi) in rows.items() for n in range(lo, hi + 1)}
    assert set(CELL_BY_NAME) == expected and len(expected) == 61
    assert BOARD.coord(CELL_BY_NAME["e5"]) == (0, 0)
    assert BOARD.coord(CELL_BY_NAME["a1"]) == (-4, 4)
    assert BOARD.coord(CELL_BY_NAME["i9"]) == (4, -4)
    assert all(CELL_BY_NAME[NAMES[i]] == i for i in NAMES)


@pytest.mark.parametrize("direction,name_after", [
    (E, "e6"), (W, "e4"), (NE, "f6"), (NW, "f5"), (SE, "d5"), (SW, "d4")])
def test_direction_effects_on_names(direction, name_after):
    """§2: E number +1, W number -1, NE letter and number +1, NW letter +1, SE letter -1,
    SW letter and number -1."""
    assert NAMES[BOARD.step(CELL_BY_NAME["e5"], direction)] == name_after


def test_sides_are_the_rule_books():
    def names(mask):
        return {NAMES[i] for i in NAMES if mask >> i & 1}
    sides = [names(m) for m in BOARD.sides]
    assert {"a1", "a2", "a3", "a4", "a5"} in sides and {"i5", "i6", "i7", "i8", "i9"} in sides
    assert {"a1", "b1", "c1", "d1", "e1"} in sides and {"e9", "f9", "g9", "h9", "i9"} in sides
    assert {"e1", "f2", "g3", "h4", "i5"} in sides and {"a5", "b6", "c7", "d8", "e9"} in sides


RING3_TEXT = """\
        .   .   .   .   .
      .   R6  .   .   Y6  .
    .   .   .   .   .   .   .
  .   .   .   .   .   .   .   .
.   Y6  .   .   .   .   .   R6  .
  .   .   .   .   .   .   .   .
    .   .   .   .   .   .   .
      .   R6  .   .   Y6  .
        .   .   .   .   ."""


RING3_TEXT_WITH_COORDINATES = """\
        i   .   .   .   .   .
      h   .   R6  .   .   Y6  .
    g   .   .   .   .   .   .   .
  f   .   .   .   .   .   .   .   .
e   .   Y6  .   .   .   .   .   R6  .
  d   .   .   .   .   .   .   .   .   9
    c   .   .   .   .   .   .   .   8
      b   .   R6  .   .   Y6  .   7
        a   .   .   .   .   .   6
              1   2   3   4   5"""


def test_ring3_start_and_its_text_rendering():
    state = GAME.new_state()
    assert "\n".join(state.grid_rows()) == RING3_TEXT and state.view(None)["rows"] == RING3_TEXT.split("\n")
    assert state.render_text() == RING3_TEXT_WITH_COORDINATES
    assert state.stacks(RED) == {"e8": 6, "b2": 6, "h5": 6}
    assert state.stacks(YELLOW) == {"b5": 6, "e2": 6, "h8": 6}
    assert state.current_player == RED and state.reserve == 39 and state.ply == 0


def test_ring2_start():
    state = GAME.new_state(variant="ring2")
    assert state.stacks(RED) == {"e7": 6, "c3": 6, "g5": 6}
    assert state.stacks(YELLOW) == {"c5": 6, "e3": 6, "g7": 6}


@pytest.mark.parametrize("setup", ["ring3", "ring2"])
def test_start_symmetry(setup):
    """§2: a 120° turn maps each colour onto itself, a 60° turn swaps them."""
    state = GAME.new_state(options={"setup": setup})

    def turned(cells, times):
        out = {}
        for q, r in cells:
            for _ in range(times):
                q, r = -r, q + r                      # 60° about the centre
            out[(q, r)] = None
        return set(out)
    red = {BOARD.coord(CELL_BY_NAME[n]) for n in state.stacks(RED)}
    yellow = {BOARD.coord(CELL_BY_NAME[n]) for n in state.stacks(YELLOW)}
    assert turned(red, 2) == red and turned(yellow, 2) == yellow
    assert turned(red, 1) == yellow


def test_free_setup_starts_empty():
    state = GAME.new_state(variant="advanced")
    assert not state.stacks(RED) and not state.stacks(YELLOW) and state.in_setup
    assert len(state.legal_moves()) == 61
    assert all(m.is_setup for m in state.legal_moves())


# ---------------------------------------------------------------------------------------------
# §3.2 partitions
# ---------------------------------------------------------------------------------------------
def test_partition_table():
    table = {
        3: ["2+1"], 4: ["3+1"], 5: ["4+1", "3+2"], 6: ["5+1", "4+2", "3+2+1"],
        7: ["6+1", "5+2", "4+3", "4+2+1"], 8: ["7+1", "6+2", "5+3", "5+2+1", "4+3+1"],
        9: ["8+1", "7+2", "6+3", "5+4", "6+2+1", "5+3+1", "4+3+2"],
    }
    for height, written in table.items():
        assert ["+".join(map(str, p)) for p in distinct_partitions(height)] == written
    assert distinct_partitions(1) == distinct_partitions(2) == []
    assert len(distinct_partitions(10, largest=10)) == 9
    assert len(distinct_partitions(11, largest=11)) == 11
    assert distinct_partitions(36) == [(8, 7, 6, 5, 4, 3, 2, 1)]
    assert distinct_partitions(37) == []


def test_known_facts_of_section_7():
    assert all(len(distinct_partitions(h)) == 0 for h in (1, 2))
    assert [len(distinct_partitions(h)) for h in (3, 4)] == [1, 1]
    assert max(len(p) for p in distinct_partitions(5)) == 2
    assert max(len(p) for p in distinct_partitions(6)) == 3
    assert max(len(p) for p in distinct_partitions(9)) == 3
    assert max(len(p) for p in distinct_partitions(10)) == 4


# ---------------------------------------------------------------------------------------------
# §6 test cases
# ---------------------------------------------------------------------------------------------
CASE1_SPLITS = {
    "e8:5+1/W", "e8:4+2/W", "e8:4+2/NW", "e8:4+2/SW", "e8:3+2+1/W", "b2:5+1/NE", "b2:4+2/E",
    "b2:4+2/NE", "b2:4+2/NW", "b2:3+2+1/NE", "h5:5+1/SE", "h5:4+2/E", "h5:4+2/SE", "h5:4+2/SW",
    "h5:3+2+1/SE",
}


def test_case1_ring3_start():
    state = GAME.new_state()
    assert splits(state) == CASE1_SPLITS and len(state.legal_splits()) == 15
    moves = state.legal_moves()
    assert len(moves) == 807 == 12 * 54 + 3 * 53
    assert len(set(moves)) == 807
    per_split = {}
    for move in moves:
        per_split[str(move.split)] = per_split.get(str(move.split), 0) + 1
    assert sorted(per_split.values()) == [53] * 3 + [54] * 12
    assert perft(state, 1) == 807


def test_case1_perft2_ring3():
    assert perft(GAME.new_state(), 2) == 658_071


def test_case2_ring2_start():
    state = GAME.new_state(variant="ring2")
    assert splits(state) == {"e7:5+1/W", "e7:3+2+1/W", "c3:5+1/NE", "c3:3+2+1/NE",
                             "g5:5+1/SE", "g5:3+2+1/SE"}
    assert len(state.legal_moves()) == 321
    assert not any("4+2" in s for s in splits(state))
    assert perft(state, 2) == 164_973


def test_case3_equal_heights_capture_and_the_vacated_cell():
    state = position("R6 e2 Y1 e3 Y6 i9")
    east = {s for s in splits(state) if s.endswith("/E")}
    assert east == {"e2:5+1/E", "e2:4+2/E", "e2:3+2+1/E"}
    after = state.play("e2:5+1/E @e2")
    assert (cell("e2", after), cell("e3", after), cell("e7", after)) == ("R1", "R2", "R5")
    assert after.reserve == 38 and after.current_player == YELLOW
    assert len(after.legal_splits()) == 7


def test_case4_a_taller_stack_blocks():
    state = position("Y6 e2 R5 e6", to_move=YELLOW)
    assert {s for s in splits(state) if s.endswith("/E")} == {"e2:5+1/E", "e2:3+2+1/E"}
    with pytest.raises(IllegalMoveError, match="blocked"):
        state.parse_move("e2:4+2/E @a1")


def test_case5_blocking_a_three_stack():
    state = position("R3 e5 Y2 e6")
    assert splits(state) == {f"e5:2+1/{d}" for d in ("W", "NE", "NW", "SE", "SW")}
    with pytest.raises(IllegalMoveError):
        state.parse_move("e5:2+1/E @a1")
    weaker = position("R3 e5 Y1 e6")
    assert "e5:2+1/E" in splits(weaker)
    after = weaker.play("e5:2+1/E @a1")
    assert (cell("e6", after), cell("e7", after), cell("a1", after)) == ("R2", "R2", "R1")
    assert after.is_terminal and after.outcome.winners == (RED,)
    assert after.outcome.termination is Termination.NO_SPLIT_MOVE


def test_case6_no_split_move_means_a_loss():
    state = position("Y3 a1 Y2 i9 Y1 e5 R2 a2 b1 b2", to_move=YELLOW)
    assert state.is_terminal and state.current_player is None and state.legal_moves() == []
    assert state.outcome.winners == (RED,)
    assert state.outcome.termination is Termination.NO_SPLIT_MOVE
    freer = position("Y3 a1 Y2 i9 Y1 e5 R2 a2 b2", to_move=YELLOW)
    assert not freer.is_terminal and splits(freer) == {"a1:2+1/NW"}


def test_case7_immobile_in_the_centre():
    ten = position("R10 e5")
    assert splits(ten) == {f"e5:4+3+2+1/{d}" for d in ("E", "W", "NE", "NW", "SE", "SW")}
    eleven = position("R11 e5")
    assert eleven.legal_splits() == [] and eleven.is_terminal
    assert eleven.outcome.winners == (YELLOW,)


CASE8 = "R1 a5 b5 c5 d5 f5 g5 g4 g3 R3 e3 Y6 b2 h8"


def test_case8_a_split_that_wins_via_a_corner():
    state = position(CASE8)
    assert "e3:2+1/E" in state.legal_notations()
    assert "e3:2+1/E @a1" not in state.legal_notations()
    after = state.play("e3:2+1/E")
    assert (cell("e5", after), cell("e4", after)) == ("R2", "R1")
    assert after.outcome.winners == (RED,)
    assert after.outcome.termination is Termination.CONNECTION
    assert after.reserve == 39 and cell("e3", after) == "."
    assert after.connection_distance(RED) == 0
    with pytest.raises(IllegalMoveError, match="split wins"):
        state.parse_move("e3:2+1/E @a1")


def test_case9_winning_by_the_placement():
    state = position(CASE8.replace(" g3", ""))
    winners = {str(m) for m in state.legal_moves()
               if state.apply(m).outcome is not None
               and state.apply(m).outcome.termination is Termination.CONNECTION}
    assert winners == {"e3:2+1/E @g3", "e3:2+1/E @h4", "e3:2+1/NW @e5"}
    assert not state.play("e3:2+1/E @a1").is_terminal          # a chain ending on g4 is not a win
    won = state.play("e3:2+1/E @h4")
    assert won.outcome.winners == (RED,) and won.reserve == 38


def test_case10_empty_reserve():
    state = GAME.new_state(options={"reserve": 0})
    notations = state.legal_notations()
    assert len(notations) == 15 and set(notations) == CASE1_SPLITS
    with pytest.raises(IllegalMoveError, match="reserve is empty"):
        state.parse_move("e8:5+1/W @e8")
    after = state.play("e8:5+1/W")
    assert after.reserve == 0 and cell("e8", after) == "."


def test_case11_free_setup():
    state = GAME.replay(variant="advanced", moves=["6@e5", "6@e6", "6@a1", "6@i9", "6@b2"])
    assert state.in_setup and state.current_player == YELLOW
    with pytest.raises(IllegalMoveError):
        state.parse_move("6@e5")                            # occupied
    with pytest.raises(IllegalMoveError):
        state.parse_move("e6:5+1/W @e6")                    # a split during setup
    state = state.play("6@h8")
    assert not state.in_setup and state.current_player == RED and state.reserve == 39
    assert state.stacks(RED) == {"e5": 6, "a1": 6, "b2": 6}
    assert state.stacks(YELLOW) == {"e6": 6, "i9": 6, "h8": 6}
    assert all(not m.is_setup for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="setup phase is over"):
        state.parse_move("6@c3")
    after = state.play(state.legal_moves()[0])
    assert after.reserve == 38


def test_case11_rule_one_waits_for_the_first_normal_turn():
    """§3.3 rule 1 applies to Red's first normal turn after a free setup, not to setup turns."""
    during = position("R2 e5 Y6 a1", ply=5, to_move=YELLOW, options={"setup": "free"})
    assert not during.is_terminal and during.in_setup
    after = during.play("6@i9")
    assert after.is_terminal and after.outcome.winners == (YELLOW,)
    assert after.outcome.termination is Termination.NO_SPLIT_MOVE


def test_case12_notation():
    state = GAME.new_state()
    move = state.parse_move("E8 : 1+5 / w @ E8")
    assert str(move) == "e8:5+1/W @e8" and move == state.parse_move("e8:5+1/W @e8")
    for text in ("a6:2+1/E", "e8:4+1+1/W", "e8:6/W"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(text)
    with pytest.raises(IllegalMoveError):
        state.parse_move("e8:4+1/W @e8")


@pytest.mark.parametrize("text", [
    "", "e8", "e8:5+1", "e8:5+1/", "e8:5+1/X @e8", "e8:5+1/N", "e8:0+6/W", "e8:5+1/W @", "6@",
    "e8:5+1/W @a6", "z1:5+1/W", "5@e5", "e8:5+1/W e8", "e8-5+1/W", "@e8", "e8:5++1/W"])
def test_invalid_notation(text):
    with pytest.raises(InvalidMoveError):
        GAME.new_state().parse_move(text)


@pytest.mark.parametrize("text,reason", [
    ("b5:5+1/W @e8", "no stack of Red"),            # Yellow's stack
    ("e5:2+1/W @e8", "no stack of Red"),            # empty cell
    ("e8:3+2/W @e8", "add up to 5"),                # parts do not add up
    ("e8:5+1/E @e8", "leave the board"),            # off the board
    ("e8:9+1/W @e8", "add up to 10"),
    ("e8:3+2+1/NW @e8", "blocked"),                 # the 3-part lands on Y6 h8
    ("e8:5+1/W @b5", "occupied"),                   # placement on an enemy stack
    ("e8:5+1/W @e7", "occupied after the split"),   # placement on a part's landing cell
    ("e8:5+1/W", "must place"),                     # missing placement
    ("6@e5", "setup phase is over"),
])
def test_illegal_turns_name_the_reason(text, reason):
    state = GAME.new_state()
    with pytest.raises(IllegalMoveError, match=reason):
        state.parse_move(text)
    assert state == GAME.new_state()


def test_notation_round_trips_and_spelling_variants():
    state = GAME.new_state()
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
        assert parse_move(str(move).upper()) == move
        assert parse_move(str(move).replace(" ", "")) == move
    assert str(parse_move("b2 : 1 + 3 + 2 / ne @ h7")) == "b2:3+2+1/NE @h7"
    assert str(parse_move("e3:2+1/E")) == "e3:2+1/E"
    assert str(parse_move(" 6 @ E5 ")) == "6@e5"
    move = parse_move("e8:5+1/W @e8")
    assert move == Move(Split(CELL_BY_NAME["e8"], (5, 1), W), CELL_BY_NAME["e8"])


def test_case13_ply_limit():
    state = GAME.new_state(options={"max_plies": 2})
    state = state.apply(state.legal_moves()[0])
    assert not state.is_terminal
    state = state.apply(state.legal_moves()[0])
    assert state.is_terminal and state.outcome.is_draw
    assert state.outcome.termination is Termination.MAX_PLIES
    with pytest.raises(GameOverError):
        state.play("e8:5+1/W @e8")


CASE13 = "R5 f5 R4 g5 R3 f4 Y5 d5 Y4 c5 Y3 d6"
CASE13_CYCLE = ["f5:3+2/W", "d5:3+2/E", "f4:2+1/W", "d6:2+1/E",
                "f2:3+2/E", "d8:3+2/W", "f3:2+1/E", "d7:2+1/W"]


def test_case13_repetition():
    start = position(CASE13, options={"reserve": 0})
    state = start
    for ply, text in enumerate(CASE13_CYCLE * 2, start=1):
        assert not state.is_terminal, ply
        state = state.play(text)
        if ply == 8:
            assert state.key == start.key and not state.is_terminal
            assert roundtrip(state) == state
    assert state.ply == 16 and state.is_terminal and state.outcome.is_draw
    assert state.outcome.termination is Termination.REPETITION


@pytest.mark.parametrize("repetition,ends_at", [(2, 8), (3, 16), (4, 24), (0, None)])
def test_repetition_option(repetition, ends_at):
    state = position(CASE13, options={"reserve": 0, "repetition": repetition})
    for ply, text in enumerate(CASE13_CYCLE * 4, start=1):
        state = state.play(text)
        if ply == ends_at:
            assert state.outcome.termination is Termination.REPETITION
            return
        assert not state.is_terminal
    assert ends_at is None and state.history == ()


def test_a_placement_restarts_the_repetition_count():
    state = position(CASE13, options={"reserve": 1, "repetition": 2})
    state = state.play("f5:3+2/W @a1")
    assert state.reserve == 0 and len(state.history) == 1
    for text in CASE13_CYCLE[1:]:
        state = state.play(text)
    assert not state.is_terminal and len(state.history) == 8


# ---------------------------------------------------------------------------------------------
# Options, variants, safeguards
# ---------------------------------------------------------------------------------------------
def test_options_and_variants_are_the_rule_books():
    assert set(GAME.options) == {"setup", "reserve", "repetition", "max_plies"}
    assert GAME.normalize_options() == {"setup": "ring3", "reserve": 39, "repetition": 3,
                                        "max_plies": 400}
    assert GAME.options["setup"].choices == ("ring3", "ring2", "free")
    assert GAME.normalize_options(None, "ring2")["setup"] == "ring2"
    assert GAME.normalize_options(None, "advanced")["setup"] == "free"
    assert set(GAME.variants) == {"standard", "ring2", "advanced"}
    assert GAME.normalize_options({"reserve": "unlimited"})["reserve"] == "unlimited"
    assert GAME.normalize_options({"reserve": 200, "max_plies": 10000})["reserve"] == 200
    for bad in ({"reserve": 201}, {"reserve": -1}, {"reserve": "lots"}, {"repetition": 1},
                {"repetition": 10}, {"max_plies": 10001}, {"max_plies": -1}, {"setup": "ring4"}):
        with pytest.raises(InvalidOptionsError):
            GAME.new_state(options=bad)


def test_unlimited_reserve_always_places():
    state = GAME.new_state(options={"reserve": "unlimited"})
    assert state.reserve_left is None and len(state.legal_moves()) == 807
    rng = Random(4)
    for _ in range(30):
        if state.is_terminal:
            break
        move = rng.choice(state.legal_moves())
        assert move.place is not None or state.apply(move).outcome.termination is \
            Termination.CONNECTION
        state = state.apply(move)
    assert state.reserve_left is None and state.view(None)["reserve"] == "unlimited"
    assert roundtrip(state) == state


def test_a_small_reserve_runs_out():
    state = GAME.new_state(options={"reserve": 1})
    state = state.play("e8:5+1/W @e8")
    assert state.reserve == 0
    assert all(m.place is None for m in state.legal_moves())
    assert len(state.legal_moves()) == len(state.legal_splits())


def test_max_plies_off_and_setup_turns_count():
    state = GAME.replay(variant="advanced", options={"max_plies": 3},
                        moves=["6@e5", "6@e6", "6@a1"])
    assert state.outcome.termination is Termination.MAX_PLIES
    capped = position(CASE13, options={"reserve": 0, "repetition": 0})
    endless = position(CASE13, options={"reserve": 0, "repetition": 0, "max_plies": 0})
    for text in CASE13_CYCLE * 60:
        endless = endless.play(text)
        if not capped.is_terminal:
            capped = capped.play(text)
    assert capped.ply == 400 and capped.outcome.termination is Termination.MAX_PLIES
    assert endless.ply == 480 and not endless.is_terminal


# ---------------------------------------------------------------------------------------------
# Storage, views, renderings, accessors
# ---------------------------------------------------------------------------------------------
def test_to_dict_round_trip_through_a_game():
    rng = Random(9)
    for variant in GAME.variants:
        state = GAME.new_state(variant=variant)
        for _ in range(60):
            assert roundtrip(state) == state
            if state.is_terminal:
                break
            state = state.apply(rng.choice(state.legal_moves()))
        again = roundtrip(state)
        assert again == state and again.history == state.history
        assert again.last_move == state.last_move and again.masks == state.masks


def test_state_from_dict_rejects_junk():
    good = GAME.new_state().to_dict()
    for broken in ({}, {**good, "cells": "1,2"}, {**good, "to_move": 2},
                   {**good, "options": {"setup": "ring9"}}, {**good, "history": [[0]]},
                   {**good, "cells": "x" + good["cells"]}):
        with pytest.raises(InvalidStateError):
            GAME.state_from_dict(broken)


def test_view_is_public_and_json():
    state = GAME.new_state().play("e8:5+1/W @e8")
    view = state.view(None)
    assert json.loads(json.dumps(view)) == view
    assert view == state.view(RED) == state.view(YELLOW)
    assert view["to_move"] == YELLOW and view["ply"] == 1 and view["reserve"] == 38
    assert view["last_move"] == "e8:5+1/W @e8" and view["phase"] == "play"
    assert view["stack_counts"] == [5, 3] and view["disc_counts"] == [19, 18]
    assert ["e3", RED, 5] in view["board"] and ["e7", RED, 1] in view["board"]
    assert ["e8", RED, 1] in view["board"]
    assert "cells" not in view and "history" not in view


def test_svg_rendering():
    state = GAME.new_state()
    picture = state.render_svg()
    assert picture.startswith("<svg") and picture.count("<polygon") == 61
    assert picture.count("<circle") == 6 and "Red to move" in picture


def test_hash_and_equality():
    a = GAME.new_state().play("e8:5+1/W @e8")
    b = GAME.new_state().play("e8:5+1/W @e8")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != GAME.new_state().play("e8:5+1/W @e5")


def test_evaluator_accessors():
    state = GAME.new_state()
    assert state.mask(RED).bit_count() == 3 and state.height(CELL_BY_NAME["e8"]) == 6
    assert state.owner(CELL_BY_NAME["b5"]) == YELLOW and state.owner(CELL_BY_NAME["e5"]) is None
    split = state.legal_splits()[0]
    assert len(state.placements(split)) in (53, 54)
    assert state.connection_distance(RED) == state.connection_distance(YELLOW) == 7
    assert state.key == (state.cells, 39, RED)
    assert len(candidate_splits(CELL_BY_NAME["e5"], 37)) == 0


def _reference_distance(state: GlaisherState, seat: int) -> int | None:
    """Plain Dijkstra over cells with the documented costs (own 0, empty 1, enemy <= 8: 2)."""
    def cost(i):
        owner = state.owner(i)
        if owner is None:
            return 1
        return 0 if owner == seat else (2 if state.height(i) <= 8 else None)
    best = None
    for one, other in BOARD.side_pairs:
        dist = {i: cost(i) for i in NAMES if one >> i & 1 and cost(i) is not None}
        todo = dict(dist)
        while todo:
            here = min(todo, key=todo.get)
            del todo[here]
            for nb in BOARD.neighbours[here]:
                step = cost(nb)
                if step is not None and dist[here] + step < dist.get(nb, 999):
                    dist[nb] = todo[nb] = dist[here] + step
        ends = [d for i, d in dist.items() if other >> i & 1]
        if ends and (best is None or min(ends) < best):
            best = min(ends)
    return best


def test_connection_distance():
    row = position("R1 e1 e2 e3 e4 e6 e7 e8 e9 Y6 a1 i9", to_move=YELLOW)
    assert row.connection_distance(RED) == 1
    walled = position("R1 e1 e2 e3 e4 Y9 e5 R1 e6 e7 e8 e9 Y6 a1 i9", to_move=YELLOW)
    assert walled.connection_distance(RED) == 2          # round the tall stack: d4 d5 or f5 f6
    assert position("R6 e5").connection_distance(YELLOW) == 9
    assert position("R6 e5").connection_distance(RED) == 8
    rng = Random(3)
    for _ in range(150):
        stacks = {name: rng.choice([0, 0, 1, 2, 9, -1, -3, -9, -12]) for name in CELL_BY_NAME}
        state = GAME.position({n: v for n, v in stacks.items() if v}, to_move=rng.choice((0, 1)))
        for seat in (RED, YELLOW):
            assert state.connection_distance(seat) == _reference_distance(state, seat)


def test_random_games_keep_their_invariants():
    rng = Random(2)
    for game_no in range(6):
        state = GAME.new_state(seed=game_no, variant=("standard", "ring2", "advanced")[game_no % 3])
        while not state.is_terminal:
            moves = state.legal_moves()
            assert len(moves) == len(set(moves))
            move = rng.choice(moves)
            assert state.is_legal(move)
            total = sum(abs(v) for v in state.cells)
            nxt = state.apply(move)
            added = 6 if move.is_setup else (1 if move.place is not None else 0)
            assert sum(abs(v) for v in nxt.cells) == total + added
            assert nxt.masks == (sum(1 << i for i in NAMES if nxt.cells[i] > 0),
                                 sum(1 << i for i in NAMES if nxt.cells[i] < 0))
            state = nxt
        assert state.outcome.termination in (Termination.CONNECTION, Termination.NO_SPLIT_MOVE,
                                             Termination.MAX_PLIES, Termination.REPETITION)


def test_split_geometry():
    split = Split(CELL_BY_NAME["e8"], (5, 1), W)
    assert [NAMES[t] for t, _ in split.targets] == ["e3", "e7"]
    assert Split(CELL_BY_NAME["e8"], (5, 1), E).targets is None
    assert DIRECTIONS[NE] == (1, -1) and DIRECTIONS[SE] == (0, 1) and DIRECTIONS[SW] == (-1, 1)
    assert DIRECTIONS[NW] == (0, -1)


def test_is_legal_agrees_with_the_move_list():
    """`is_legal` decides without building the list; both must agree on every candidate turn."""
    rng = Random(6)
    for variant in ("standard", "ring2"):
        state = GAME.new_state(variant=variant, options={"reserve": 12})
        for _ in range(24):
            if state.is_terminal:
                break
            legal = set(state.legal_moves())
            seat = state.to_move
            for name, height in state.stacks(seat).items():
                for parts in distinct_partitions(height + rng.choice((0, 0, 1))):
                    for direction in range(6):
                        split = Split(CELL_BY_NAME[name], parts, direction)
                        for place in [None, *NAMES]:
                            move = Move(split, place)
                            assert state.is_legal(move) == (move in legal), str(move)
            state = state.apply(rng.choice(sorted(legal, key=str)))


def test_states_and_moves_pickle_without_their_caches():
    state = GAME.new_state()
    state = state.apply(state.legal_moves()[3])
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.last_move == state.last_move
    assert again.last_move.split.targets == state.last_move.split.targets
    assert again.legal_moves() == state.legal_moves()


# ---------------------------------------------------------------------------------------------
# An independent, deliberately plain model of §3.2/§3.3 to cross-check the fast generator
# ---------------------------------------------------------------------------------------------
_AXIAL = {name: BOARD.coord(i) for name, i in CELL_BY_NAME.items()}
_NAME_AT = {coord: name for name, coord in _AXIAL.items()}
_DIRS = {"E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1)}


def _plain_partitions(h):
    out = []
    for size in range(2, 9):
        def rec(prefix, rest, cap):
            if len(prefix) == size:
                if rest == 0:
                    out.append(prefix)
                return
            for p in range(min(cap, rest), 0, -1):
                rec(prefix + [p], rest - p, p - 1)
        rec([], h, h)
    return out


def _plain_connected(board, sign):
    own = {c for c, v in board.items() if v * sign > 0}
    sides = [lambda q, r, s: r == 4, lambda q, r, s: r == -4, lambda q, r, s: q == -4,
             lambda q, r, s: q == 4, lambda q, r, s: s == 4, lambda q, r, s: s == -4]
    for a, b in ((0, 1), (2, 3), (4, 5)):
        todo = [c for c in own if sides[a](c[0], c[1], -c[0] - c[1])]
        seen = set(todo)
        while todo:
            q, r = todo.pop()
            if sides[b](q, r, -q - r):
                return True
            for dq, dr in _DIRS.values():
                nb = (q + dq, r + dr)
                if nb in own and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
    return False


def _plain_turns(state):
    sign = 1 if state.to_move == RED else -1
    board = {coord: state.cells[CELL_BY_NAME[name]] for name, coord in _AXIAL.items()}
    turns = set()
    for (q, r), value in board.items():
        for parts in _plain_partitions(value * sign) if value * sign >= 3 else []:
            for dname, (dq, dr) in _DIRS.items():
                targets = [((q + p * dq, r + p * dr), p) for p in parts]
                if any(t not in board or board[t] * sign < -p for t, p in targets):
                    continue
                after = dict(board)
                after[(q, r)] = 0
                for t, p in targets:
                    after[t] = sign * (abs(after[t]) + p)
                text = f"{_NAME_AT[(q, r)]}:{'+'.join(map(str, parts))}/{dname}"
                if state.reserve == 0 or _plain_connected(after, sign):
                    turns.add(text)
                else:
                    turns |= {f"{text} @{_NAME_AT[c]}" for c, v in after.items() if not v}
    return turns


def test_generator_matches_a_plain_model_of_the_rules():
    rng = Random(8)
    seen = {"positions": 0, "winning splits": 0, "empty reserve": 0}
    for game_no, reserve in enumerate((39, 6, "unlimited", 0, 39, 6)):
        state = GAME.new_state(variant=("standard", "ring2")[game_no % 2],
                               options={"reserve": reserve})
        for _ in range(30):
            if state.is_terminal:
                break
            notations = state.legal_notations()
            assert set(notations) == _plain_turns(state) and len(set(notations)) == len(notations)
            seen["positions"] += 1
            seen["winning splits"] += bool(state.reserve and any("@" not in n for n in notations))
            seen["empty reserve"] += state.reserve == 0
            state = state.apply(rng.choice(state.legal_moves()))
    assert seen["positions"] > 120 and seen["winning splits"] and seen["empty reserve"] > 30, seen


def test_text_coordinates_name_every_cell():
    """Each cell's row letter starts its row and its number ends its line, two columns to the
    right per row down (the lower-right end of the line)."""
    lines = GAME.new_state().render_text().split("\n")
    for name, cell in CELL_BY_NAME.items():
        q, r = BOARD.coord(cell)
        row = lines[4 + r]
        column = 4 * q + 2 * r + 20
        assert row.strip()[0] == name[0] and row[column] in ".RY", name
        below = lines[4 + r + 1]
        last_of_line = not BOARD.on_board(q, r + 1)
        if last_of_line:
            assert below[column + 2] == name[1:], name
