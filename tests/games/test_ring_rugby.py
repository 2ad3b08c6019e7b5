"""Ring Rugby: every test case of docs/rules/ring-rugby.md §7, plus each rule's parts separately, perft,
notation and the options of §5."""
from __future__ import annotations

import json

import pytest

import games
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, InvalidStateError, perft
from games.core import Termination
from games.ring_rugby import position

GAME = games.get_game("ring-rugby")

# §7: "each side has further pieces, and the rings not shown, far away from the action". Filler
# goes to far corners chosen per test; a side whose ring is not shown carries it there.
FAR_BLACK, FAR_WHITE = "a1", "f12"


def setup(pieces: dict, *, far_black: str = FAR_BLACK, far_white: str = FAR_WHITE, **kwargs):
    pieces = dict(pieces)
    carriers = [code for code in pieces.values() if code.endswith("*")]
    spare = 2 - len(carriers)
    for name, colour, shown in ((far_black, "B", "B*"), (far_white, "W", "W*")):
        if name is None:
            continue
        has_own = shown in carriers
        pieces[name] = colour + ("*" if spare > 0 and not has_own else "")
        if pieces[name].endswith("*"):
            spare -= 1
    return position(pieces, **kwargs)


def moves_from(state, cell: str, sep: str = "") -> set[str]:
    return {m for m in state.legal_notations() if m.startswith(cell) and
            m[len(cell)] in (sep or "-x>=")}


def step_targets(state, cell: str) -> set[str]:
    return {m.split("-")[1] for m in moves_from(state, cell, "-") if not m.endswith("-G")}


def pieces_of(state) -> dict:
    return state.to_dict()["pieces"]


def off_of(state) -> list:
    return state.to_dict()["off"]


def quiet(state, *moves):
    for m in moves:
        state = state.play(m)
    return state


# ---------------------------------------------------------------------------------------------
# §7 case 1, 2 and perft
# ---------------------------------------------------------------------------------------------
def test_case_1_start_ring_plies():
    s = GAME.new_state()
    assert s.legal_notations() == [f"ring {f}2" for f in "abcdef"]
    with pytest.raises(IllegalMoveError):
        s.parse_move("c2-c3")
    s = s.play("ring c2")
    assert s.current_player == 1
    assert s.legal_notations() == [f"ring {f}11" for f in "abcdef"]
    with pytest.raises(IllegalMoveError):
        s.parse_move("ring c2")


def test_case_2_first_move_count():
    s = GAME.replay(moves=["ring c2", "ring c11"])
    moves = s.legal_notations()
    assert len(moves) == 55
    per_piece = {f: len([m for m in moves if m.startswith(f + "2")]) for f in "abcdef"}
    assert per_piece == {"a": 7, "b": 10, "c": 10, "d": 11, "e": 10, "f": 7}
    assert moves_from(s, "c2", ">") == {"c2>a2", "c2>b2", "c2>d2", "c2>e2"}
    assert step_targets(s, "c2") == {"b1", "c1", "d1", "b3", "c3", "d3"}


def test_perft_from_the_start():
    s = GAME.new_state()
    assert [perft(s, d) for d in (1, 2, 3)] == [6, 36, 1980]
    basic = GAME.new_state(variant="basic")
    assert [perft(basic, d) for d in (1, 2, 3)] == [6, 36, 1980]


def test_perft_after_the_rings():
    s = GAME.replay(moves=["ring c2", "ring c11"])
    assert perft(s, 1) == 55
    assert perft(s, 2) == 55 * 55


# ---------------------------------------------------------------------------------------------
# §3.1 steps and blocking (case 3)
# ---------------------------------------------------------------------------------------------
def test_case_3_lone_piece_has_24_steps():
    s = setup({"c5": "B"})
    assert len(step_targets(s, "c5")) == 24


@pytest.mark.parametrize("blocker", ["B", "W"])
def test_case_3_piece_straight_ahead_shadows_three(blocker):
    s = setup({"c5": "B", "c6": blocker})
    lost = {"c6", "c7", "b7", "d7"}
    assert len(step_targets(s, "c5")) == 20
    assert not step_targets(s, "c5") & lost


@pytest.mark.parametrize("mode,count", [("either", 20), ("orth_leg", 22), ("both", 22)])
def test_case_3_piece_on_a_diagonal(mode, count):
    s = setup({"c5": "B", "d6": "W"}, options={"knight_block": mode})
    targets = step_targets(s, "c5")
    assert len(targets) == count
    assert not {"d6", "e7"} & targets
    assert ({"d7", "e6"} <= targets) == (mode != "either")


def test_knight_block_both_needs_both_legs():
    # offset (-1,+2) from c5 is b7: legs c6 (orthogonal) and b6 (diagonal).
    one_leg = setup({"c5": "B", "c6": "W"}, options={"knight_block": "both"})
    assert "b7" in step_targets(one_leg, "c5") and "c7" not in step_targets(one_leg, "c5")
    two_legs = setup({"c5": "B", "c6": "W", "b6": "W"}, options={"knight_block": "both"})
    assert "b7" not in step_targets(two_legs, "c5")
    orth_only = setup({"c5": "B", "b6": "W"}, options={"knight_block": "orth_leg"})
    assert "b7" in step_targets(orth_only, "c5")


def test_carrier_steps_one_king_step_only():
    s = setup({"c5": "B*", "c6": "W"})
    assert step_targets(s, "c5") == {"b4", "c4", "d4", "b5", "d5", "b6", "d6"}
    assert not moves_from(s, "c5", "x")            # carriers never attack (⑥3)


def test_steps_never_leave_the_field():
    s = setup({"a12": "B"}, far_white="f1")
    assert step_targets(s, "a12") == {"a11", "a10", "b12", "b11", "b10", "c12", "c11", "c10"}


# ---------------------------------------------------------------------------------------------
# §3.3 passes (case 4)
# ---------------------------------------------------------------------------------------------
CASE_4 = {"c5": "B*", "c6": "B", "b4": "B", "e5": "B", "c3": "B", "a3": "B", "d3": "B", "c4": "W"}


def test_case_4_passes():
    s = setup(CASE_4)
    assert moves_from(s, "c5", ">") == {"c5>b4", "c5>e5", "c5>c3", "c5>a3"}
    fwd = setup(CASE_4, options={"pass_forward": True})
    assert moves_from(fwd, "c5", ">") == {"c5>b4", "c5>e5", "c5>c3", "c5>a3", "c5>c6"}


def test_pass_range_option():
    assert moves_from(setup(CASE_4, options={"pass_range": 1}), "c5", ">") == {"c5>b4"}
    wide = setup({**CASE_4, "c2": "B", "f5": "B", "f2": "B"}, options={"pass_range": 3})
    assert moves_from(wide, "c5", ">") == {"c5>b4", "c5>e5", "c5>c3", "c5>a3", "c5>c2", "c5>f2",
                                           "c5>f5"}


def test_pass_never_to_enemy_carrier_or_off_board():
    s = setup({"c5": "B*", "b5": "W", "d5": "B*", "c4": "B"}, off=[("L5", "B")], far_black=None)
    assert moves_from(s, "c5", ">") == {"c5>c4"}


def test_white_passes_backwards_towards_rank_12():
    s = setup({"c8": "W*", "c9": "W", "c7": "W"}, to_move=1)
    assert moves_from(s, "c8", ">") == {"c8>c9"}
    s2 = s.play("c8>c9")
    assert pieces_of(s2)["c9"] == "W*" and pieces_of(s2)["c8"] == "W"


# ---------------------------------------------------------------------------------------------
# §3.4 attacks (cases 5, 6, 7, 8, 9) and each restriction separately
# ---------------------------------------------------------------------------------------------
def test_case_5_attack_and_knock_back():
    s = setup({"c4": "B", "c6": "W"}).play("c4xc6")
    assert pieces_of(s)["c6"] == "B" and pieces_of(s)["c8"] == "W"
    assert "c4" not in pieces_of(s) and "c7" not in pieces_of(s)
    stopped = setup({"c4": "B", "c6": "W", "c8": "W"}).play("c4xc6")
    assert pieces_of(stopped)["c7"] == "W" and pieces_of(stopped)["c6"] == "B"
    with pytest.raises(IllegalMoveError):
        setup({"c4": "B", "c6": "W", "c7": "B"}).parse_move("c4xc6")


def test_case_6_carrier_targets():
    with pytest.raises(IllegalMoveError):
        setup({"c4": "B", "c6": "W*"}).parse_move("c4xc6")
    s = setup({"c5": "B", "c6": "W*"}).play("c5xc6")
    assert pieces_of(s)["c6"] == "B*" and pieces_of(s)["c8"] == "W"


def test_case_7_no_immediate_retaliation():
    s = setup({"c4": "B", "c6": "W"}).play("c4xc6")
    assert s.view(None)["retaliation"] == {"attacker": "c6", "victim": "c8"}
    with pytest.raises(IllegalMoveError):
        s.parse_move("c8xc6")
    s = quiet(s, "f12-f11", "a1-a2")
    assert s.view(None)["retaliation"] is None
    after = s.play("c8xc6")
    assert pieces_of(after)["c6"] == "W" and pieces_of(after)["c4"] == "B"


def test_retaliation_bars_only_the_struck_piece():
    s = setup({"c4": "B", "c6": "W", "b6": "W"}).play("c4xc6")
    assert "b6xc6" in s.legal_notations()          # another piece may attack the attacker
    assert "c8xc6" not in s.legal_notations()


def test_case_8_edge_knock_out():
    s = setup({"c11": "B", "c12": "W"}, far_white="f1").play("c11xc12")
    assert off_of(s) == [["c13", "W"]] and pieces_of(s)["c12"] == "B"
    s = quiet(s, "f1-f2", "c12-b12")          # B leaves c12 but stays on a yellow cell
    assert off_of(s) == [["c13", "W"]]
    basic = setup({"c11": "B", "c12": "W"}, far_white="f1", variant="basic").play("c11xc12")
    assert off_of(basic) == [] and "c13" not in json.dumps(basic.view(None)["pieces"])
    assert basic.view(None)["counts"]["white"] == {"on_board": 1, "off_board": 0}


def test_case_9_knock_back_shortened_by_an_off_board_piece():
    s = setup({"c9": "B", "c11": "W"}, off=[("c13", "W")], far_white="f1").play("c9xc11")
    assert pieces_of(s)["c12"] == "W" and pieces_of(s)["c11"] == "B"
    s = setup({"c9": "B", "c11": "W"}, far_white="f1").play("c9xc11")
    assert off_of(s) == [["c13", "W"]]


def test_knock_back_cases_a_b_c():
    # (a) T on the edge, struck outwards: K = T+d off the field.
    s = setup({"d5": "B", "f5": "W"}).play("d5xf5")
    assert off_of(s) == [["R5", "W"]] and pieces_of(s)["f5"] == "B"
    # (b) T+2d on the field and empty: K = T+2d; occupied: K = T+d (test 5).
    s = setup({"b5": "B", "c5": "W"}).play("b5xc5")
    assert pieces_of(s)["e5"] == "W"
    # (c) T+2d off the field: without a piece there, T goes off-board to T+2d (basic: removed).
    s = setup({"c5": "B", "e5": "W"}).play("c5xe5")
    assert off_of(s) == [["R5", "W"]]
    s = setup({"c5": "B", "e5": "W"}, off=[("R5", "B")]).play("c5xe5")
    assert pieces_of(s)["f5"] == "W" and off_of(s) == [["R5", "B"]]
    s = setup({"c5": "B", "e5": "W"}, variant="basic").play("c5xe5")
    assert off_of(s) == [] and "f5" not in pieces_of(s) and "e5" in pieces_of(s)


def test_attack_range_two_needs_the_middle_cell_empty():
    s = setup({"c4": "B", "c5": "B", "c6": "W"})
    assert "c4xc6" not in s.legal_notations()
    s = setup({"c4": "B", "c5": "W", "c6": "W"})
    assert not moves_from(s, "c4", "x")            # c5 is line-blocked by c6, c6 is beyond c5


def test_attack_line_block_by_any_piece():
    for behind in ("B", "W"):
        s = setup({"c4": "B", "c5": "W", "c6": behind})
        assert "c4xc5" not in s.legal_notations()


def test_attack_line_block_by_an_off_board_piece():
    s = setup({"c11": "B", "c12": "W"}, off=[("c13", "B")], far_white="f1")
    assert "c11xc12" not in s.legal_notations()
    s = setup({"c11": "B", "c12": "W"}, far_white="f1")
    assert "c11xc12" in s.legal_notations()


def test_attacks_are_orthogonal_and_only_at_enemies():
    s = setup({"c4": "B", "d5": "W", "c5": "B", "b4": "B", "c3": "B", "c2": "W"})
    assert not moves_from(s, "c4", "x")      # a diagonal enemy, friends around, c2 behind a friend
    assert "c4xc2" in setup({"c4": "B", "c2": "W"}).legal_notations()


def test_off_board_pieces_cannot_be_attacked_or_act():
    s = setup({"c12": "B", "b12": "W"}, off=[("c13", "W")], far_white="f1")
    assert not any("c13" in m for m in s.legal_notations())
    s = setup({"c12": "W"}, off=[("c13", "B")], far_white="f1")
    assert not any(m.startswith("c13") for m in s.legal_notations())


def test_attacker_takes_the_targets_cell_and_its_ring():
    s = setup({"c5": "B", "d5": "W*"}).play("c5xd5")
    assert pieces_of(s)["d5"] == "B*" and pieces_of(s)["f5"] == "W"
    assert sum(code.endswith("*") for code in pieces_of(s).values()) == 2


# ---------------------------------------------------------------------------------------------
# §3.7 revival and re-entry (case 10), each condition separately
# ---------------------------------------------------------------------------------------------
def test_case_10_re_entry_after_the_enemy_leaves_the_yellow_cells():
    s = setup({"c5": "W"}, off=[("L5", "B")], to_move=1, far_black="f1", far_white="f12", ply=7)
    s2 = s.play("c5-d5")
    assert pieces_of(s2)["a5"] == "B" and off_of(s2) == []
    assert s2.current_player == 0 and s2.ply == 8


def test_case_10_oldest_first_and_the_entering_piece_blocks():
    s = setup({"f6": "W"}, off=[("a0", "B"), ("L1", "B")], to_move=1, far_black="f1")
    s2 = s.play("f6-f7")
    assert pieces_of(s2)["a1"] == "B" and off_of(s2) == [["L1", "B"]]
    flipped = setup({"f6": "W"}, off=[("L1", "B"), ("a0", "B")], to_move=1, far_black="f1")
    assert off_of(flipped.play("f6-f7")) == [["a0", "B"]]


@pytest.mark.parametrize("cell", ["a3", "a4", "a5", "a6", "a7", "b5", "c5"])
def test_re_entry_waits_while_an_enemy_is_on_a_yellow_cell(cell):
    s = setup({cell: "W"}, off=[("L5", "B")], to_move=1, far_black="f1")
    mover = "f12-f11"
    s2 = s.play(mover)
    assert off_of(s2) == [["L5", "B"]]
    if cell != "a5":
        assert "a5" not in pieces_of(s2)


def test_re_entry_ignores_enemies_off_the_yellow_cells():
    s = setup({"b4": "W", "d5": "W", "a2": "W", "b6": "W"}, off=[("L5", "B")], to_move=1,
              far_black="f1")
    assert pieces_of(s.play("f12-f11"))["a5"] == "B"


def test_re_entry_waits_while_a_friend_holds_the_entry_cell():
    s = setup({"a5": "B"}, off=[("L5", "B")], to_move=0, far_black="f1")
    assert off_of(s.play("f1-f2")) == [["L5", "B"]]
    s2 = s.play("a5-b6")                       # a friend on a yellow cell does not stop it
    assert pieces_of(s2)["a5"] == "B" and pieces_of(s2)["b6"] == "B" and off_of(s2) == []


def test_re_entry_is_compulsory_after_the_owners_own_ply():
    s = setup({"a7": "W"}, off=[("L5", "B")], to_move=1, far_black="f1")
    s2 = s.play("a7-b8")
    assert pieces_of(s2)["a5"] == "B"


def test_re_entry_corner_cell_serves_both_off_cells():
    s = setup({}, off=[("L1", "W")], to_move=0, far_black="f6")
    assert pieces_of(s.play("f6-f5"))["a1"] == "W"


def test_off_board_pieces_never_hold_a_ring_and_do_not_receive_passes():
    s = setup({"c11": "B", "c12": "W*"}, far_white="f1").play("c11xc12")
    assert pieces_of(s)["c12"] == "B*" and off_of(s) == [["c13", "W"]]


# ---------------------------------------------------------------------------------------------
# §3.5 big move (case 11)
# ---------------------------------------------------------------------------------------------
def test_case_11_big_move():
    s = setup({"c3": "B", "c8": "B"})
    legal = set(s.legal_notations())
    assert {"c3=c7", "c8=c4"} <= legal
    for text in ("c3=c8", "c3=c6"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
    moved = s.play("c3=c7")
    assert pieces_of(moved)["c7"] == "B" and "c3" not in pieces_of(moved)


def test_case_11_a_step_is_not_a_big_move():
    s = setup({"c3": "B", "c6": "B"})
    with pytest.raises(IllegalMoveError):
        s.parse_move("c3=c5")
    assert "c3-c5" in s.legal_notations()


def test_case_11_carriers():
    s = setup({"c3": "B*", "c6": "B"})
    assert "c3=c5" in s.legal_notations()
    after = s.play("c3=c5")
    assert pieces_of(after)["c5"] == "B*"
    off = setup({"c3": "B*", "c6": "B"}, options={"big_move_carriers": False})
    with pytest.raises(IllegalMoveError):
        off.parse_move("c3=c5")


def test_case_11_basic_has_no_big_moves():
    s = setup({"c3": "B", "c8": "B"}, variant="basic")
    assert not any("=" in m for m in s.legal_notations())
    with pytest.raises(IllegalMoveError):
        s.parse_move("c3=c7")


def test_big_move_needs_an_empty_lane_and_a_friend():
    assert not moves_from(setup({"c3": "B", "c8": "W"}), "c3", "=")
    assert not moves_from(setup({"c3": "B", "c5": "W", "c8": "B"}), "c3", "=")
    assert not moves_from(setup({"b3": "B", "f3": "B"}), "b3", "=")     # never along a rank


# ---------------------------------------------------------------------------------------------
# §3.2 goal-in (case 12)
# ---------------------------------------------------------------------------------------------
def test_case_12_goal_in():
    s = setup({"b12": "B*"}, far_white="f1").play("b12-G")
    assert s.is_terminal and s.outcome.winners == (0,)
    assert s.outcome.termination == Termination.GOAL
    assert s.legal_moves() == [] and s.current_player is None
    no_goal = setup({"a12": "B*"}, far_white="f1")
    assert not any(m.endswith("-G") for m in no_goal.legal_notations())
    blocked = setup({"d12": "B*"}, off=[("c13", "W"), ("d13", "W")], far_white="f1")
    assert blocked.play("d12-G").outcome.winners == (0,)


SCORED_RECORD = ("a2-b3 b11-b10 b3-c4 e11-c9 c4-c5 b10-a9 c5-b6 a9-b8 b6-b7 b8-a7 b7-a8 a7-a6 a8-a9 d11-d9 "
                 "a9-b10 a6-a5 b10-b11 a5-a4 b11-b12 d9-f9 b12-G")


def test_the_scoring_carrier_ends_in_the_goal():
    """§3.2: the carrier moves into the goal: the stored, shown and drawn positions have it there."""
    final = GAME.replay(variant="advanced", moves=["ring a2", "ring b11", *SCORED_RECORD.split()])
    assert final.outcome.winners == (0,) and final.outcome.termination == Termination.GOAL
    pieces = {p["cell"]: p for p in final.view(None)["pieces"]}
    assert "b12" not in pieces and pieces["c13"] == {"cell": "c13", "colour": "black", "ring": True}
    assert final.view(None)["counts"]["black"] == {"on_board": 5, "off_board": 0}
    assert final.to_dict()["pieces"]["c13"] == "B*" and "b12" not in final.to_dict()["pieces"]
    assert GAME.state_from_dict(json.loads(json.dumps(final.to_dict()))) == final
    rank_13, rank_12 = final.render_text().splitlines()[1:3]
    assert rank_13.split() == ["13", ".", ".", "B*", "[G]", ".", "."] and "B" not in rank_12
    assert 'data-cell="c13"' in final.render_svg() and final.render_svg().count('stroke="#d4a017"') == 2


def test_a_goal_in_takes_the_goal_cell_ahead_or_a_free_one():
    straight = setup({"d12": "B*"}, far_white="f1").play("d12-G")
    assert {p["cell"] for p in straight.view(None)["pieces"] if p["ring"]} == {"d13", "f1"}
    waiting = setup({"d12": "B*"}, off=[("d13", "W")], far_white="f1").play("d12-G")
    assert [p["cell"] for p in waiting.view(None)["pieces"] if p["colour"] == "black" and p["ring"]] == ["c13"]
    assert waiting.view(None)["off_board"] == [{"cell": "d13", "colour": "white", "order": 1}]
    landed = setup({"b12": "B*"}, off=[("c13", "W")], far_white="f1").play("b12-G")
    assert [p["cell"] for p in landed.view(None)["pieces"] if p["colour"] == "black" and p["ring"]] == ["c13"]
    assert landed.view(None)["off_board"] == []          # the knocked-off piece it landed on left
    assert GAME.state_from_dict(json.loads(json.dumps(landed.to_dict()))) == landed
    white = setup({"e1": "W*"}, to_move=1, far_black="f6", far_white="a12").play("e1-G")
    assert [p["cell"] for p in white.view(None)["pieces"] if p["colour"] == "white" and p["ring"]] == ["d0"]


def test_goal_in_for_white_and_only_for_carriers():
    s = setup({"e1": "W*", "c1": "W"}, to_move=1, far_black="f6", far_white="a12")
    legal = s.legal_notations()
    assert "e1-G" in legal and "c1-G" not in legal
    assert s.play("e1-G").outcome.winners == (1,)
    black_at_own_end = setup({"c1": "B*"}, far_black="f6")
    assert not any(m.endswith("-G") for m in black_at_own_end.legal_notations())


# ---------------------------------------------------------------------------------------------
# §4.3 fortress ban (case 13)
# ---------------------------------------------------------------------------------------------
CASE_13 = {"c5": "B*", "d5": "B*", "c6": "B", "e7": "B"}


def test_case_13_fortress_ban():
    s = setup(CASE_13)
    with pytest.raises(IllegalMoveError, match="fortress"):
        s.parse_move("e7-d6")
    allowed = setup(CASE_13, options={"forbid_two_ring_fortress": False})
    assert "e7-d6" in allowed.legal_notations()


def test_fortress_ban_applies_to_both_sides_moves():
    s = setup({**CASE_13, "d8": "B", "d9": "W"}, to_move=1)
    assert "d9xd8" not in s.legal_notations()      # it would knock d8 onto d6
    assert "d9xd8" in setup({**CASE_13, "d8": "B", "d9": "W"}, to_move=1,
                            options={"forbid_two_ring_fortress": False}).legal_notations()


def test_a_single_ring_in_a_fortress_is_fine():
    s = setup({"c5": "B*", "d5": "B", "c6": "B", "e7": "B"})
    assert "e7-d6" in s.legal_notations()


def test_off_board_pieces_complete_a_wall_at_the_edge():
    # b1 is immune downward only while b0 holds a piece (Fig. 13).
    pieces = {"a1": "B*", "b1": "B*", "a2": "B", "c3": "B"}
    with_wall = setup(pieces, off=[("b0", "W")], far_black=None, far_white="f12")
    assert "c3-b2" not in with_wall.legal_notations()
    assert "c3-c2" not in with_wall.legal_notations()
    without = setup(pieces, far_black=None, far_white="f12")
    assert "c3-c2" in without.legal_notations()


# ---------------------------------------------------------------------------------------------
# §4.2 goal closure (case 14)
# ---------------------------------------------------------------------------------------------
CASE_14 = {"b1": "B", "c1": "B", "d1": "B", "e1": "B", "d2": "B", "c3": "B"}


def test_case_14_goal_closure_attacker():
    s = setup(CASE_14, off=[("b0", "W"), ("e0", "W")], far_black="f6").play("c3-c2")
    assert s.outcome.termination == Termination.GOAL_CLOSED and s.outcome.winners == (1,)


def test_case_14_goal_closure_closer():
    s = setup(CASE_14, off=[("b0", "W"), ("e0", "W")], far_black="f6",
              options={"goal_closure_winner": "closer"}).play("c3-c2")
    assert s.outcome.termination == Termination.GOAL_CLOSED and s.outcome.winners == (0,)


def test_case_14_basic_has_no_goal_closure():
    shape = {**CASE_14, "b2": "B", "e2": "B"}        # all four immune without off-board pieces
    assert setup(shape, far_black="f6").play("c3-c2").outcome.termination == Termination.GOAL_CLOSED
    s = setup(shape, far_black="f6", variant="basic").play("c3-c2")
    assert not s.is_terminal


def test_goal_closure_needs_all_four_immune():
    s = setup(CASE_14, off=[("b0", "W")], far_black="f6").play("c3-c2")     # e1 open downward
    assert not s.is_terminal


def test_both_goals_closing_on_one_ply_is_a_draw():
    white = {"b12": "W", "c12": "W", "d12": "W", "e12": "W", "b11": "W", "c11": "W", "d11": "W",
             "e11": "W"}
    pieces = {**CASE_14, "b2": "B", "e2": "B", **white}
    s = setup(pieces, far_black="f6", far_white="f9").play("c3-c2")
    assert s.outcome.termination == Termination.GOAL_CLOSED and s.outcome.is_draw


# ---------------------------------------------------------------------------------------------
# §4.4 repetition (cases 15, 16)
# ---------------------------------------------------------------------------------------------
CYCLE_15 = ["a2-a3", "a11-a10", "a3-a2", "a10-a11"]


def test_case_15_mixed_repetition_draws():
    s = GAME.replay(moves=["ring c2", "ring c11"] + CYCLE_15 * 3)
    assert s.ply == 14 and s.outcome.termination == Termination.REPETITION and s.outcome.is_draw
    before = GAME.replay(moves=["ring c2", "ring c11"] + CYCLE_15 * 2 + CYCLE_15[:3])
    assert not before.is_terminal


def test_repetition_count_option():
    s = GAME.replay(moves=["ring c2", "ring c11"] + CYCLE_15, options={"repetition_count": 2})
    assert s.ply == 6 and s.outcome.termination == Termination.REPETITION


CASE_16 = {"c2": "B*", "a2": "B", "b2": "B", "e2": "B", "f2": "B", "d8": "B",
           "f11": "W*", "a11": "W", "b11": "W", "c11": "W", "d11": "W", "e11": "W"}
CYCLE_16 = ["d8-d9", "a11-a10", "d9-d8", "a10-a11"]


def test_case_16_one_board_repetition():
    start = position(CASE_16)
    s = quiet(start, *CYCLE_16 * 3)
    assert not s.is_terminal and s.ply == start.ply + 12
    with pytest.raises(IllegalMoveError, match="repetition"):
        s.parse_move("d8-d9")
    assert set(s.legal_notations()) == set(start.legal_notations()) - {"d8-d9"}


def test_black_board_cycle_makes_white_vary():
    pieces = {"c2": "B*", "a2": "B", "f2": "B", "d5": "W", "f11": "W*", "a11": "W"}
    start = position(pieces, to_move=1)
    s = quiet(start, *["d5-d4", "a2-a3", "d4-d5", "a3-a2"] * 3)
    assert not s.is_terminal
    assert "d5-d4" not in s.legal_notations() and "d5-d3" in s.legal_notations()


def test_repetition_survives_storage():
    s = quiet(position(CASE_16), *CYCLE_16 * 3)
    back = GAME.state_from_dict(json.loads(json.dumps(s.to_dict())))
    assert back == s and "d8-d9" not in back.legal_notations()


# ---------------------------------------------------------------------------------------------
# §6 notation, §4.6 cap, §4.5 no moves (case 17)
# ---------------------------------------------------------------------------------------------
def test_case_17_notation():
    s = GAME.replay(moves=["ring a2", "ring a11"])
    move = s.parse_move("c2-d4")
    assert str(move) == "c2-d4" and s.parse_move(str(move)) == move
    assert s.parse_move("  c2-d4 ") == move
    for text in ("C2-D4", "c2 - d4", "c13-d12"):
        with pytest.raises(InvalidMoveError):
            s.parse_move(text)
    with pytest.raises(IllegalMoveError):
        setup({"a12": "B*"}, far_white="f1").parse_move("a12-G")


@pytest.mark.parametrize("text", ["ring  c2", "ring c02", "c2d4", "c2-d4 x", "c0-c1", "L5-a5",
                                  "g2-f2", "c2-g", "C2-G", "ring", "c2x", "c2-", "c2~c3"])
def test_notation_rejects_junk(text):
    with pytest.raises(InvalidMoveError):
        GAME.replay(moves=["ring a2", "ring a11"]).parse_move(text)


def test_every_move_kind_round_trips():
    s = setup({**CASE_4, "c8": "B", "b6": "W", "e12": "B"}, far_white="f1", far_black=None)
    texts = s.legal_notations()
    seps = {"-", "x", ">", "="}
    assert all(any(sep in t for t in texts) for sep in seps)
    for text in texts:
        assert str(s.parse_move(text)) == text
    ring = GAME.new_state()
    assert [str(ring.parse_move(t)) for t in ring.legal_notations()] == ring.legal_notations()


def test_case_17_ply_cap():
    moves = ["ring c2", "ring c11", "a2-a3", "a11-a10", "b2-b3", "b11-b10", "e2-e3", "e11-e10",
             "f2-f3", "f11-f10"]
    s = GAME.replay(moves=moves, options={"max_plies": 10})
    assert s.ply == 10 and s.outcome.termination == Termination.MAX_PLIES and s.outcome.is_draw
    assert not GAME.replay(moves=moves[:9], options={"max_plies": 10}).is_terminal


def test_no_legal_move_loses():
    s = setup({"c11": "B", "c12": "W*"}, far_white=None, variant="basic").play("c11xc12")
    assert s.outcome.termination == Termination.NO_MOVES and s.outcome.winners == (0,)
    assert s.current_player is None and s.legal_moves() == []


# ---------------------------------------------------------------------------------------------
# Options and variants (§5)
# ---------------------------------------------------------------------------------------------
def test_declaration():
    assert GAME.title == "Ring Rugby" and GAME.rules_page == "docs/rules/ring-rugby.md"
    assert list(GAME.variants) == ["standard", "basic"] and GAME.variant_aliases == {"advanced": "standard"}
    assert GAME.variant_of(GAME.normalize_options()) == "standard"
    assert GAME.normalize_options(None, "advanced") == GAME.normalize_options(None, "standard")
    assert GAME.normalize_options(None, "basic")["advanced"] is False
    defaults = GAME.normalize_options()
    assert defaults == {"width": 6, "half_depth": 6, "start_rank": 2, "advanced": True,
                        "knight_block": "either", "pass_forward": False, "pass_range": 2,
                        "big_move_carriers": True, "forbid_two_ring_fortress": True,
                        "goal_closure_winner": "attacker", "repetition_count": 4,
                        "max_plies": 400}


@pytest.mark.parametrize("bad", [{"width": 5}, {"width": 12}, {"half_depth": 3},
                                 {"half_depth": 11}, {"start_rank": 0}, {"start_rank": 6},
                                 {"half_depth": 4, "start_rank": 4}, {"knight_block": "none"},
                                 {"pass_range": 4}, {"goal_closure_winner": "owner"},
                                 {"repetition_count": 1}, {"max_plies": 9}])
def test_bad_options(bad):
    with pytest.raises(InvalidOptionsError):
        GAME.new_state(options=bad)


@pytest.mark.parametrize("width", [4, 6, 8, 10])
def test_general_field_size(width):
    s = GAME.new_state(options={"width": width, "half_depth": 8, "start_rank": 3})
    files = "abcdefghij"[:width]
    assert s.legal_notations() == sorted(f"ring {f}3" for f in files)
    s = s.play(f"ring {files[0]}3")
    assert s.legal_notations() == sorted(f"ring {f}14" for f in files)
    view = s.view(None)
    assert view["goals"]["white"] == [f"{files[width // 2 - 1]}17", f"{files[width // 2]}17"]
    assert view["goals"]["black"] == [f"{files[width // 2 - 1]}0", f"{files[width // 2]}0"]
    assert len(view["pieces"]) == 2 * width


def test_general_field_entry_cells_and_board_halves():
    opts = {"width": 8, "half_depth": 4}
    for cell in ("c8", "d8", "e8", "f8"):
        assert setup({cell: "B*"}, far_white="h1", options=opts).play(f"{cell}-G").is_terminal
    for cell in ("b8", "g8"):
        s = setup({cell: "B*"}, far_white="h1", options=opts)
        assert f"{cell}-G" not in s.legal_notations()
    # a cycle on ranks 5-8 is a white-board cycle when half_depth is 4
    pieces = {"c2": "B*", "a2": "B", "d5": "B", "h8": "W*", "a7": "W"}
    start = position(pieces, options=opts)
    s = quiet(start, *["d5-d6", "a7-a6", "d6-d5", "a6-a7"] * 3)
    assert "d5-d6" not in s.legal_notations() and not s.is_terminal


# ---------------------------------------------------------------------------------------------
# Storage, views, rendering
# ---------------------------------------------------------------------------------------------
def test_to_dict_round_trip_with_everything():
    s = setup({"c11": "B", "c12": "W", "c4": "B", "a7": "W"}, off=[("L5", "B")], far_white="f1")
    s = s.play("c11xc12")
    d = json.loads(json.dumps(s.to_dict()))
    back = GAME.state_from_dict(d)
    assert back == s and hash(back) == hash(s)
    assert back.legal_notations() == s.legal_notations()
    assert d["off"] == [["L5", "B"], ["c13", "W"]] and d["retaliation"] == ["c12", "c13"]


def test_state_from_dict_rejects_junk():
    d = GAME.replay(moves=["ring c2"]).to_dict()
    for broken in ({**d, "pieces": {"z9": "B"}}, {**d, "to_move": 0}, {**d, "history": []},
                   {**d, "regions": "9"}, {k: v for k, v in d.items() if k != "off"}, {}):
        with pytest.raises(InvalidStateError):
            GAME.state_from_dict(broken)


def test_view_hides_nothing():
    s = setup({"c11": "B", "c12": "W"}, far_white="f1").play("c11xc12")
    v = s.view(None)
    assert s.view(0) == v == s.view(1)
    assert json.loads(json.dumps(v)) == v
    assert v["off_board"] == [{"cell": "c13", "colour": "white", "order": 1}]
    assert v["last_move"] == "c11xc12" and v["to_move"] == 1 and v["ply"] == 3
    assert {"cell": "c12", "colour": "black", "ring": False} in v["pieces"]


def test_render_text_matches_the_diagram():
    s = setup({"c11": "B", "c12": "W", "a7": "W"}, off=[("L5", "B")], far_white="f1")
    text = s.play("c11xc12").render_text()
    lines = text.splitlines()
    assert lines[0].split() == ["L", "a", "b", "c", "d", "e", "f", "R"]
    assert lines[1].split() == ["13", ".", ".", "W2", "[G]", ".", "."]
    assert lines[10].split()[:2] == ["5", "B1"]
    assert "B1" in text and "-----" in text and "white to move" in text


def test_render_svg():
    s = setup({"c11": "B", "c12": "W"}, far_white="f1").play("c11xc12")
    pic = s.render_svg()
    assert pic.startswith("<svg") and pic.rstrip().endswith("</svg>")
    assert "#9fd39f" in pic and "#b9b9cc" in pic and "#f1ead8" in pic and "#d4a017" in pic


def test_hand_set_positions_are_checked():
    with pytest.raises(InvalidStateError):
        position({"c2": "B*"})                                   # one ring
    with pytest.raises(InvalidStateError):
        position({"c2": "B*", "c11": "W*"}, off=[("c5", "B")])   # not an off-board cell
    with pytest.raises(InvalidStateError):
        position({"c2": "B*", "c11": "W*"}, off=[("L5", "B")], variant="basic")
    with pytest.raises(InvalidStateError):
        position({"c2": "X", "c11": "W*"})


# ---------------------------------------------------------------------------------------------
# Cross-check against a plain coordinate reading of §3 (no bitboards), on random positions
# ---------------------------------------------------------------------------------------------
class Plain:
    """§3 read literally on (file, rank) pairs: files 1..W (0 = L, W+1 = R), ranks 0..2H+1."""

    def __init__(self, d: dict):
        self.o = d["options"]
        self.w, self.depth = self.o["width"], 2 * self.o["half_depth"]
        self.pieces = {self.xy(c): (v[0], v.endswith("*")) for c, v in d["pieces"].items()}
        self.off = [(self.xy(c), colour) for c, colour in d["off"]]
        self.side = "BW"[d["to_move"]]
        self.retal = tuple(self.xy(c) for c in d["retaliation"]) if d["retaliation"] else None

    def xy(self, name):
        head = name[0]
        x = 0 if head == "L" else self.w + 1 if head == "R" else "abcdefghij".index(head) + 1
        return x, int(name[1:])

    def name(self, xy):
        x, y = xy
        return ("L" if x == 0 else "R" if x == self.w + 1 else "abcdefghij"[x - 1]) + str(y)

    def on(self, xy):
        return 1 <= xy[0] <= self.w and 1 <= xy[1] <= self.depth

    def occupied(self, xy):
        return xy in self.pieces or any(c == xy for c, _ in self.off)

    def moves(self):
        own = [xy for xy, (col, _) in self.pieces.items() if col == self.side]
        if sum(r for _, r in self.pieces.values()) < 2:
            return {f"ring {self.name(xy)}" for xy in own}
        out = set()
        for p in own:
            if self.pieces[p][1]:
                out |= self.carrier_moves(p)
            else:
                out |= self.piece_moves(p)
        return out

    def empty_on(self, xy):
        return self.on(xy) and not self.occupied(xy)

    def carrier_moves(self, p):
        x, y = p
        out = {f"{self.name(p)}-{self.name((x + dx, y + dy))}" for dx in (-1, 0, 1)
               for dy in (-1, 0, 1) if self.empty_on((x + dx, y + dy))}
        end = self.depth if self.side == "B" else 1
        if y == end and self.w // 2 - 1 <= x <= self.w // 2 + 2:
            out.add(f"{self.name(p)}-G")
        f = 1 if self.side == "B" else -1
        rays = [(-1, 0), (1, 0), (0, -f), (-1, -f), (1, -f)]
        if self.o["pass_forward"]:
            rays += [(0, f), (-1, f), (1, f)]
        for dx, dy in rays:
            for k in range(1, self.o["pass_range"] + 1):
                q = (x + k * dx, y + k * dy)
                if self.on(q) and self.pieces.get(q) == (self.side, False):
                    out.add(f"{self.name(p)}>{self.name(q)}")
        if self.o["advanced"] and self.o["big_move_carriers"]:
            out |= self.big_moves(p, 2)
        return out

    def piece_moves(self, p):
        x, y = p
        out = set()
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                if ((dx, dy) != (0, 0) and self.empty_on((x + dx, y + dy))
                        and not self.blocked(p, dx, dy)):
                    out.add(f"{self.name(p)}-{self.name((x + dx, y + dy))}")
        return out | self.attacks(p) | (self.big_moves(p, 3) if self.o["advanced"] else set())

    def blocked(self, p, dx, dy):
        x, y = p
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if max(abs(dx), abs(dy)) == 1:
            return False
        if abs(dx) != 1 and abs(dy) != 1:
            return self.occupied((x + sx, y + sy))
        orth = (x, y + sy) if abs(dy) == 2 else (x + sx, y)
        legs = [self.occupied(orth), self.occupied((x + sx, y + sy))]
        mode = self.o["knight_block"]
        return legs[0] if mode == "orth_leg" else all(legs) if mode == "both" else any(legs)

    def attacks(self, p):
        out = set()
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near, far = (p[0] + d[0], p[1] + d[1]), (p[0] + 2 * d[0], p[1] + 2 * d[1])
            def enemy(q):
                return self.on(q) and q in self.pieces and self.pieces[q][0] != self.side
            if enemy(near):
                t = near
            elif self.empty_on(near) and enemy(far) and not self.pieces[far][1]:
                t = far
            else:
                continue
            if self.occupied((t[0] + d[0], t[1] + d[1])):
                continue
            if self.retal and self.retal == (t, p):
                continue
            out.add(f"{self.name(p)}x{self.name(t)}")
        return out

    def big_moves(self, p, min_len):
        out = set()
        for dy in (1, -1):
            q, n = (p[0], p[1] + dy), 0
            while self.empty_on(q):
                q, n = (q[0], q[1] + dy), n + 1
            if self.on(q) and self.pieces[q][0] == self.side and n >= min_len:
                out.add(f"{self.name(p)}={self.name((q[0], q[1] - dy))}")
        return out

    def after(self, text):
        """Pieces and off-board list after a non-goal move (§3.4 resolution, §3.8.1 re-entry)."""
        pieces, off = dict(self.pieces), list(self.off)
        if text.startswith("ring "):
            q = self.xy(text[5:])
            pieces[q] = (self.side, True)
        else:
            sep = next(c for c in text[1:] if c in "-x>=")
            a, b = (self.xy(part) for part in text.split(sep))
            if sep == ">":
                pieces[a], pieces[b] = (self.side, False), (self.side, True)
            elif sep in "-=":
                pieces[b] = pieces.pop(a)
            else:
                self.knock(a, b, pieces, off)
        self.reenter(pieces, off)
        return ({self.name(q): v[0] + ("*" if v[1] else "") for q, v in pieces.items()},
                [[self.name(q), c] for q, c in off])

    def knock(self, a, t, pieces, off):
        d = ((t[0] > a[0]) - (t[0] < a[0]), (t[1] > a[1]) - (t[1] < a[1]))
        t1, t2 = (t[0] + d[0], t[1] + d[1]), (t[0] + 2 * d[0], t[1] + 2 * d[1])
        def taken(q):
            return q in pieces or any(c == q for c, _ in off)
        if not self.on(t1):
            k = t1
        elif self.on(t2):
            k = t2 if not taken(t2) else t1
        else:
            k = t1 if self.o["advanced"] and taken(t2) else t2
        colour, ring = pieces.pop(t)
        if self.on(k):
            pieces[k] = (colour, False)
        elif self.o["advanced"]:
            off.append((k, colour))
        pieces.pop(a)
        pieces[t] = (self.side, ring)

    def reenter(self, pieces, off):
        for entry in list(off):
            (x, y), colour = entry
            ex, ey = min(max(x, 1), self.w), min(max(y, 1), self.depth)
            yellow = [(ex + k, ey) for k in range(-2, 3)] + [(ex, ey + k) for k in range(-2, 3)]
            if (ex, ey) in pieces or any(pieces.get(q, (colour,))[0] != colour for q in yellow):
                continue
            off.remove(entry)
            pieces[(ex, ey)] = (colour, False)


def _random_positions(options, seeds, plies):
    from random import Random

    for seed in seeds:
        rng, s = Random(seed), GAME.new_state(options=options)
        for _ in range(plies):
            if s.is_terminal:
                break
            yield s
            s = s.apply(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("options", [
    {}, {"advanced": False}, {"knight_block": "orth_leg", "pass_forward": True, "pass_range": 3},
    {"knight_block": "both", "big_move_carriers": False, "pass_range": 1},
    {"width": 4, "half_depth": 4, "start_rank": 3}, {"width": 8, "half_depth": 5, "start_rank": 1},
])
def test_moves_and_resolution_match_a_plain_reading(options):
    for s in _random_positions(options, seeds=(11, 12), plies=150):
        plain = Plain(s.to_dict())
        pseudo = {str(m) for m in s._pseudo_legal()}
        assert pseudo == plain.moves()
        assert set(s.legal_notations()) <= pseudo
        for text in s.legal_notations()[::3]:
            if text.endswith("-G"):
                continue
            after = s.apply(s.parse_move(text)).to_dict()
            assert (after["pieces"], after["off"]) == plain.after(text), text
