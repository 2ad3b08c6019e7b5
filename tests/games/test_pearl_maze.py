"""Pearl Maze — docs/rules/pearl.md §5 and its test case §9.13."""
import json
from functools import lru_cache

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, Termination, perft
from games.pearl.maze import MAX_STEPS, MazeState, record_steps

GAME = games.get_game("pearl-maze")
LINE_17 = "RDLDDRUURURDDDLLL"
LINE_69 = "RDLDRRDRRRUUULLDLLULLDDDRDRURRURRRDLLLDLULLLDDRRUUURRUULLDLLLURRRRRRR"
# A longest line from the `black=outside` start, found by exhaustive search (2,493,466 positions).
LINE_77 = "RRRDRDLDRDDLUUULDLLLURRRURDRURULURRDDDLLLDDLDRRRRUUUUURULLLLDDDLLUUURRRRRURDD"


def _replay_stepwise(record, options=None):
    state = GAME.new_state(options=options)
    for i, step in enumerate(record_steps(record)):
        assert not state.is_terminal, f"stuck before step {i + 1}"
        assert step in state.legal_notations(), f"step {i + 1} ({step}) is not legal"
        state = state.play(step)
        assert state.ply == i + 1
    return state


# §9.13 Maze -------------------------------------------------------------------------------------
def test_default_start():
    state = GAME.new_state()
    assert set(state.legal_notations()) == {"R", "D"}
    view = state.view(0)
    assert view["black"] == "h12" and len(view["whites"]) == 15
    assert set(view["whites"]) == {f"{c}{r}" for c in "hijk" for r in (9, 10, 11, 12)} - {"h12"}
    assert [perft(state, d) for d in range(1, 6)] == [2, 4, 10, 22, 50]


def test_n3_line_of_17_steps_ends_stuck():
    start = GAME.new_state(options={"n": 3})
    assert start.view(None)["black"] == "i11"
    assert set(start.view(None)["whites"]) == {f"{c}{r}" for c in "ijk" for r in (9, 10, 11)} - {
        "i11"}
    final = _replay_stepwise(LINE_17, {"n": 3})
    assert final.legal_moves() == [] and final.outcome.termination is Termination.NO_MOVES
    assert final.outcome.scores == (17.0,) and final.outcome.winners == (0,)


def test_n4_line_of_69_steps_ends_stuck_on_m12():
    final = _replay_stepwise(LINE_69)
    assert final.view(None)["black"] == "m12"
    assert final.outcome.termination is Termination.NO_MOVES and final.outcome.scores == (69.0,)


def _longest(state: MazeState) -> int:
    @lru_cache(maxsize=None)
    def longest(whites, black):
        s = MazeState(state.size, state.push_off, -1, whites, black)
        return max((1 + longest(c.whites, c.black) for c in map(s.apply, s.legal_moves())),
                   default=0)
    return longest(state.whites, state.black)


def test_n3_maximum_is_17_by_exhaustive_search():
    # §10: the step graph has no cycle, so the longest path is a memoised depth-first search.
    assert _longest(GAME.new_state(options={"n": 3})) == 17


def test_outside_start_and_a_77_step_line():
    state = GAME.new_state(variant="outside")
    view = state.view(None)
    assert view["black"] == "g12" and len(view["whites"]) == 16 and "h12" in view["whites"]
    final = _replay_stepwise(LINE_77, {"black": "outside"})
    assert final.outcome.termination is Termination.NO_MOVES and final.outcome.scores == (77.0,)


# §5.3 step rules -------------------------------------------------------------------------------
def test_black_never_enters_an_empty_point():
    state = GAME.position(black="e5", whites=["f5", "f4"], options={"size": 9})
    assert state.legal_notations() == ["R"]   # N, S, W lead onto empty points


def test_push_off_option():
    whites = ["h5", "i5", "h4"]
    no = GAME.position(black="g5", whites=whites, options={"size": 9})
    assert "R" not in no.legal_notations()
    yes = GAME.position(black="g5", whites=whites, options={"size": 9, "push_off": "yes"})
    after = yes.play("R")
    assert after.view(None)["black"] == "h5" and sorted(after.view(None)["whites"]) == ["h4", "i5"]


def test_contact_counts_every_colour():
    # After R the only contact is black (now on e5) beside white e4: it counts.
    state = GAME.position(black="d5", whites=["e5", "e4"], options={"size": 9})
    assert state.legal_notations() == ["R"]
    # Nothing beside the row: no contact before the step.
    bare = GAME.position(black="d5", whites=["e5"], options={"size": 9})
    assert bare.legal_moves() == [] and bare.outcome.termination is Termination.NO_MOVES


# §5.4 end ---------------------------------------------------------------------------------------
def test_goal_mode():
    state = GAME.new_state(options={"goal": "I12"})
    solved = state.play("R")
    assert solved.outcome.winners == (0,) and solved.outcome.termination is Termination.GOAL
    assert solved.outcome.scores == (1.0,)
    missed = GAME.new_state(options={"goal": "a1", "n": 3})
    for step in record_steps(LINE_17):
        missed = missed.play(step)
    assert missed.outcome.winners == () and missed.outcome.termination is Termination.NO_MOVES


def test_step_safeguard():
    start = GAME.new_state()
    nearly = MazeState(start.size, False, -1, start.whites, start.black, MAX_STEPS - 1)
    final = nearly.play("R")
    assert final.outcome.termination is Termination.MAX_STEPS
    assert final.outcome.scores == (float(MAX_STEPS),) and final.outcome.winners == (0,)


def test_options_are_validated():
    assert GAME.normalize_options() == {"size": 19, "n": 4, "black": "corner", "goal": "none",
                                        "push_off": "no"}
    for bad in ({"size": 8}, {"size": 20}, {"n": 2}, {"n": 9}, {"black": "inside"},
                {"goal": "middle"}, {"push_off": "maybe"}):
        with pytest.raises(InvalidOptionsError):
            GAME.normalize_options(bad)
    for bad in ({"size": 9, "n": 8}, {"goal": "h12"}, {"goal": "t1"}):
        with pytest.raises(InvalidOptionsError):
            GAME.new_state(options=bad)
    small = GAME.new_state(options={"size": 9, "n": 7})
    assert small.view(None)["black"] == "b8"


def test_notation_and_round_trip():
    state = GAME.new_state()
    assert state.parse_move("r") == state.parse_move("E") == state.legal_moves()[0]
    for bad in ("", "RD", "X", "h12-i12", "pass"):
        with pytest.raises(InvalidMoveError):
            state.parse_move(bad)
    with pytest.raises(IllegalMoveError):
        state.parse_move("U")
    later = GAME.replay(options={"goal": "m12"}, moves=record_steps("RDLD"))
    data = json.loads(json.dumps(later.to_dict()))
    assert GAME.state_from_dict(data) == later and later.view(0)["steps"] == 4
    assert "B" in later.render_text() and later.render_svg().startswith("<svg")
