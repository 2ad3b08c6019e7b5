"""New Eleusis, the game (docs/rules/eleusis.md §7 cases 4-16, scoring, flows of §3)."""
from __future__ import annotations

import hashlib

import pytest

import games
import games.new_eleusis  # noqa: F401  (registers the game)
from games import IllegalMoveError, InvalidMoveError, InvalidOptionsError, NotYourTurnError
from games import Termination
from games.new_eleusis.cards import card_text, parse_card
from games.new_eleusis.game import first_player

G = games.get_game("new-eleusis")
R1 = "color(cur) != color(prev)"
R2 = "suit(cur) == next_suit(suit(prev))"
R4 = "case mod(rank(prev), 3) of {0: face(cur), 1: odd(cur), 2: even(cur)}"
FILLER = "AS 2S 3S 4S 6S 7S 10S JS QS KS AC"


def machine(rule=R1, players=4, seed=1, **options):
    return G.new_state(players=players, seed=seed, options={"rule": rule, **options})


def hand(state, seat):
    return " ".join(card_text(k) for k in state.hands[seat])


def kinds(text):
    return tuple(parse_card(t) for t in text.split())


# -- §7 case 4, judged through a played game ---------------------------------------------------
@pytest.mark.parametrize("last,right,wrong", [("QH", "JS", "2S"), ("KS", "3H", "4H"),
                                              ("JD", "10C", "9C")])
def test_case4_judging_r4_through_plays(last, right, wrong):
    s = machine(R4).with_position(mainline=last, hands={0: f"{right} {wrong} 5C 5D"}, turn=0)
    good = s.play(f"play {right}")
    assert good.mainline[-1] == parse_card(right) and good.log[-1][3] == "right"
    bad = s.play(f"play {wrong}")
    assert bad.mainline == s.mainline and bad.sidelines[-1][2] == kinds(wrong)


# -- case 5: first player -----------------------------------------------------------------------
def test_case5_first_player():
    assert first_player(5, -1, 7, False) == 1
    assert first_player(6, 0, 5, False) == 5
    assert first_player(6, 0, 13, False) == 3
    s = machine(players=5, seed=11)
    assert s.turn == first_player(5, -1, s.mainline[-1] // 4 + 1, False)
    p = G.new_state(players=6, seed=4, options={"god": "player"}).play(f"rule {R1}")
    assert p.turn == first_player(6, 0, p.mainline[-1] // 4 + 1, False) and p.turn != 0


def test_express_dealer_left_neighbour_starts():
    assert machine(express=True).turn == 0
    p = G.new_state(players=5, seed=2, options={"god": "player", "express": True})
    assert p.play(f"rule {R1}").turn == 1


# -- case 6: strings ----------------------------------------------------------------------------
def test_case6_strings():
    s = machine(R1).with_position(mainline="5H", hands={0: "8S 9D 2C 9C 2D " + FILLER}, turn=0)
    assert len(s.hands[0]) == 16
    good = s.play("play 8S 9D 2C")
    assert good.mainline[-3:] == kinds("8S 9D 2C") and good.played == 3
    s = s.with_position(hands={0: "8S 9D 2C 9C 2D AS 2S 3S 4S 6S 7S 10S JS QS"})
    assert len(s.hands[0]) == 14
    bad = s.play("play 8S 9C 2D")
    assert bad.sidelines == ((0, 0, kinds("8S 9C 2D")),) and bad.mainline == s.mainline
    assert len(bad.hands[0]) == 17
    assert bad.log[-1][3] == "wrong, drew 6"
    assert bad.view(1)["log"][-1]["result"] == "wrong, drew 6"


def test_string_moves_and_express_single_cards():
    s = machine(R1).with_position(hands={0: "5H 5H 6S"}, turn=0)
    strings = {str(m) for m in s.string_moves(3)}
    assert "play 5H 5H" in strings and "play 5H 6S 5H" in strings and "play 6S 6S" not in strings
    assert all(s.is_legal(m) for m in s.string_moves(3))
    assert all(len(getattr(m, "cards", ())) <= 1 for m in s.legal_moves())
    with pytest.raises(IllegalMoveError):
        s.play("play 6S 6S")


# -- case 7: No Play ----------------------------------------------------------------------------
def test_case7_no_play():
    base = machine(R2).with_position(mainline="KS", turn=0)
    s = base.with_position(hands={0: "2S 3D 4C 5S 9D"}).play("noplay")
    assert len(s.hands[0]) == 1 and s.noplays[-1][2] == kinds("2S 3D 4C 5S 9D")
    assert s.mainline == base.mainline and s.played == 0 and s.turn == 1
    out = base.with_position(hands={0: "2S 3D 4C 9D"}).play("noplay")
    assert out.is_terminal and out.outcome.termination is Termination.WENT_OUT
    high = max(len(h) for h in out.hands)
    assert out.outcome.scores[0] == high + 4
    wrong = base.with_position(hands={0: "2S 7H 9H"}).play("noplay")
    assert wrong.mainline[-1] == parse_card("7H") and wrong.main_by[-1] == -10
    assert len(wrong.hands[0]) == 7 and wrong.played == 1
    assert wrong.view(None)["mainline"][-1]["god_placed"] is True
    assert wrong.view(3)["log"][-1]["result"].startswith("shown 2S 7H 9H; no play wrong")


# -- case 8: sudden death -----------------------------------------------------------------------
@pytest.mark.parametrize("edition,t1", [("seed", 30), ("classic", 40)])
def test_case8_sudden_death(edition, t1):
    base = machine(R1, sudden_death=edition).with_position(
        mainline="5H", hands={0: "6H 7S 8S"}, turn=0)
    before = base.with_position(played=t1 - 1).play("play 6H")
    assert len(before.hands[0]) == 4 and not before.expelled
    at = base.with_position(played=t1).play("play 6H")
    assert at.expelled == {0} and at.hands[0] == kinds("7S 8S")
    assert at.sidelines[-1] == (0, 0, kinds("6H")) and at.turn == 1
    later = at
    for _ in range(3):                    # seats 1..3 play on; seat 0 is skipped
        later = later.play(later.legal_moves()[0])
        if later.is_terminal:
            break
        assert later.turn != 0


def test_case8_sudden_death_after_the_marker():
    base = machine(R1).with_position(mainline="5H", hands={0: "6H 7S 8S"}, turn=0)
    draw = base.with_position(played=44, prophet=3, at_marker=25)
    s = draw.play("play 6H").play("judge wrong")
    assert len(s.hands[0]) == 4 and not s.expelled and s.prophet == 3
    s = base.with_position(played=45, prophet=3, at_marker=25).play("play 6H").play("judge wrong")
    assert s.expelled == {0} and s.prophet == 3


# -- case 9: Prophet eligibility ----------------------------------------------------------------
def test_case9_prophet_eligibility():
    base = machine(R1).with_position(mainline="5S", hands={0: "5H 6H 5D 6D"}, turn=0)
    s = base.play("play 5H; prophet")
    assert s.prophet == 0 and s.marker == (0, len(s.mainline) - 1) and s.at_marker == 1
    assert s.view(0)["hand_set_aside"] is True and s.turn == 1
    ignored = base.with_position(expelled=(2, 3)).play("play 5H; prophet")
    assert ignored.prophet == -1 and "declaration ignored" in ignored.log[-1][3]
    wrong_if = base.with_position(hands={0: "5S 6H"}).play("play 5S; prophet if right")
    assert wrong_if.prophet == -1
    wrong_plain = base.with_position(hands={0: "5S 6H"}).play("play 5S; prophet")
    assert wrong_plain.prophet == 0 and wrong_plain.marker == (1, 0)
    right_if = base.play("play 5H; prophet if right")
    assert right_if.prophet == 0


def test_case9_no_second_office_after_overthrow():
    s = machine(R1).with_position(mainline="5S", hands={0: "5H 6H 7H 8H"}, turn=0)
    s = s.play("play 5H; prophet")             # seat 0 is Prophet
    s = s.with_position(hands={1: "4S 9H 9D"})
    s = s.play("play 9H").play("judge right")   # false call: overthrown
    assert s.prophet == -1 and s.overthrown == {0}
    s = s.with_position(turn=0, mainline="5S")
    s = s.play("play 6H; prophet")
    assert s.prophet == -1 and "declaration ignored" in s.log[-1][3]


# -- case 10: overthrow -------------------------------------------------------------------------
def test_case10_overthrow():
    s = machine(R1).with_position(mainline="5S", hands={1: "2S 3S 4S 5S 6S 7S 8S 9S 10S",
                                                        2: "JS QS KH"},
                                  prophet=1, turn=2)
    s = s.play("play JS")
    assert s.phase == "call" and s.current_player == 1
    assert s.legal_notations() == ["judge right", "judge wrong"]
    s = s.play("judge right")
    assert s.prophet == -1 and len(s.hands[1]) == 14 and s.hands[2] == kinds("QS KH")
    assert s.sidelines[-1] == (0, 2, kinds("JS")) and "no penalty" in s.log[-1][3]
    assert s.turn == 3


def test_true_calls_settle_with_normal_penalties():
    s = machine(R1).with_position(mainline="5S", hands={2: "JS QH KH"}, prophet=1, turn=2)
    s2 = s.play("play JS").play("judge wrong")
    assert s2.prophet == 1 and len(s2.hands[2]) == 4
    s3 = s.play("play QH").play("judge right")
    assert s3.prophet == 1 and s3.mainline[-1] == parse_card("QH")


def test_prophet_calls_on_no_play():
    s = machine(R2).with_position(mainline="KS", hands={2: "2S 7H 9H"}, prophet=1, turn=2)
    s = s.play("noplay")
    assert s.legal_notations() == ["judge right", "judge wrong 2S", "judge wrong 7H",
                                   "judge wrong 9H"]
    assert s.view(None)["pending"]["shown"] == ["2S", "7H", "9H"]
    with pytest.raises(IllegalMoveError):
        s.play("judge wrong")
    with pytest.raises(IllegalMoveError):
        s.play("judge wrong 5C")
    called = s.play("judge wrong 9H")           # true: 9H is right, placed, 5 drawn
    assert called.prophet == 1 and called.mainline[-1] == parse_card("9H")
    assert len(called.hands[2]) == 7
    false_card = s.play("judge wrong 2S")       # 2S is not right: overthrow, God places 7H
    assert false_card.prophet == -1 and false_card.mainline[-1] == parse_card("7H")
    assert len(false_card.hands[2]) == 2


# -- case 11: scoring ---------------------------------------------------------------------------
@pytest.mark.parametrize("at_marker,god_score", [(22, 30), (10, 20)])
def test_case11_scoring(at_marker, god_score):
    s = G.new_state(players=5, seed=3, options={"god": "player"}).play(f"rule {R1}")
    s = s.with_position(
        mainline="5S", turn=1, played=at_marker + 14 + 6, side_played=40,
        hands={1: "5H", 2: "2C 3C 4C 5C 6C 7C", 3: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
               4: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"},
        prophet=3, at_marker=at_marker, side_at_marker=34, expelled=(4,))
    s = s.play("play 5H").play("judge right")
    assert s.is_terminal and s.outcome.termination is Termination.WENT_OUT
    assert s.outcome.scores == (god_score, 17, 7, 30, 0)
    assert set(s.outcome.winners) == ({0, 3} if god_score == 30 else {3})


def test_machine_god_score_is_shown_not_awarded():
    s = machine(R2).with_position(mainline="KS", hands={0: "2S 3D 4C 9D"}, turn=0).play("noplay")
    record = s.view(None)["rounds_done"][0]
    assert record["god"] == "machine" and record["god_score"] == max(record["scores"])
    assert len(s.outcome.scores) == 4


# -- case 12: stock -----------------------------------------------------------------------------
def test_case12_stock():
    base = machine(R1).with_position(mainline="5H", hands={0: "6H 7H 8H 9S"}, turn=0)
    s = base.with_position(stock="2S 3S 4S 5S 6S 7S").play("play 6H 7H 8H")
    assert len(s.stock) == 52 and len(s.hands[0]) == 7 and s.decks == 3
    s = base.with_position(stock="2S 3S 4S 5S 6S").play("play 6H")
    assert len(s.stock) == 55
    assert len(machine(R1, players=8).stock) == 43


# -- case 14: free-text God ---------------------------------------------------------------------
def test_case14_free_text_god():
    s = G.new_state(players=4, seed=9, options={"god": "player"})
    assert s.phase == "commit" and s.current_player == 0
    commit = 'rule text 1 "black after odd, red after even"'
    s = s.play(commit)
    assert G.public_notation(commit, s).startswith("rule committed ")
    seat = s.turn
    s = s.with_position(hands={seat: "5H 6S"})
    s = s.play("play 6S")
    assert s.phase == "call" and s.current_player == 0
    assert s.legal_notations() == ["judge right", "judge wrong"]
    with pytest.raises(NotYourTurnError):
        s.play("judge right", seat=seat)
    s = s.play("judge wrong")
    assert len(s.hands[seat]) == 3 and s.phase == "turn"
    s = s.with_position(turn=seat, hands={seat: "5H"}).play("play 5H").play("judge right")
    assert s.is_terminal
    view = s.view(None)
    assert view["commitment_ok"] is True and view["rule"] == commit
    expected = hashlib.sha256((view["nonce"] + "\n" + commit).encode()).hexdigest()
    assert view["rounds_done"][0]["commitment"] == expected
    assert G.public_notation(commit, s) == commit
    express = G.new_state(players=4, seed=9, options={"god": "player", "express": True})
    with pytest.raises(IllegalMoveError):
        express.play(commit)


def test_free_text_review_flow():
    s = G.new_state(players=5, seed=9, options={"god": "player"}).play('rule text 2 "pairs"')
    assert len(s.mainline) == 2
    s = s.with_position(hands={2: "5H 6S 7D"}, prophet=1, turn=2)
    s = s.play("play 5H")
    assert s.current_player == 1 and s.phase == "call"
    s = s.play("judge right")
    assert s.phase == "review" and s.current_player == 0
    assert s.legal_notations() == ["approve", "disapprove"]
    kept = s.play("approve")
    assert kept.prophet == 1 and kept.mainline[-1] == parse_card("5H")
    thrown = s.play("disapprove")
    assert thrown.prophet == -1 and thrown.sidelines[-1][2] == kinds("5H")
    assert len(thrown.hands[2]) == 2 and thrown.turn == 3
    n = G.state_from_dict(s.to_dict())        # review state round-trips
    assert n == s


def test_free_text_no_play_review():
    s = G.new_state(players=5, seed=9, options={"god": "player"}).play('rule text 1 "x"')
    s = s.with_position(hands={2: "5H 6S"}, prophet=1, turn=2).play("noplay").play("judge right")
    assert s.legal_notations() == ["approve", "disapprove 5H", "disapprove 6S"]
    with pytest.raises(IllegalMoveError):
        s.play("disapprove")
    t = s.play("disapprove 6S")
    assert t.mainline[-1] == parse_card("6S") and t.hands[2] == kinds("5H") and t.prophet == -1


def test_player_god_expression_rule_and_bank_listing():
    s = G.new_state(players=4, seed=5, options={"god": "player"})
    listed = s.legal_notations()
    assert f"rule {R1}" in listed and all(m.startswith("rule ") for m in listed)
    with pytest.raises(IllegalMoveError):
        s.play("rule rank(cur) == rank(prev) + 1")      # not live
    with pytest.raises(IllegalMoveError):
        s.play("play 5H")
    s = s.play("rule color(cur)!=color(prev)")
    assert s.rule_move == f"rule {R1}" and s.current_player != 0
    assert s.view(0)["rule"] == f"rule {R1}" and s.view(0)["report"]["acceptance_pct"] == 50.0
    assert "rule" not in s.view(1) and "report" not in s.view(1)
    assert G.public_notation(f"rule {R1}", s) == "rule committed " + s.commitment
    assert s.log[-1][2] == "rule committed " + s.commitment


def test_rounds_all_rotates_god():
    s = G.new_state(players=4, seed=8, options={"god": "player", "rounds": "all"})
    for god in range(4):
        assert s.round == god + 1 and s.god == god and s.current_player == god
        s = s.play(f"rule {R2}")
        seat = s.turn
        s = s.with_position(hands={seat: "AH"}, mainline="KS")
        s = s.play("play AH")
    assert s.is_terminal and len(s.records) == 4
    assert all(rec.commitment_ok for rec in s.records)
    assert sum(s.outcome.scores) == sum(sum(rec.scores) for rec in s.records)


# -- case 15: Express ---------------------------------------------------------------------------
def express_after(seat=2):
    s = machine(R1, express=True).with_position(mainline="5S", turn=seat,
                                                hands={seat: "6H 7H 8S 9C"})
    assert len(s.hands[0]) == 12
    return s


def test_case15_express_guesses():
    s = express_after()
    good = ("play 6H; guess (color(prev) == red and color(cur) == black) or "
            "(color(prev) == black and color(cur) == red)")
    out = s.play(good)
    assert out.is_terminal and out.outcome.termination is Termination.GUESSED
    assert out.outcome.scores[2] == 12 - 3 + 4
    on = s.play("play 6H; guess suit(cur) != suit(prev)")
    assert not on.is_terminal and "guess wrong" in on.log[-1][3] and on.turn == 3
    with pytest.raises(IllegalMoveError):
        s.play("play 6H; guess color(cur) != color(prev2)")
    with pytest.raises(IllegalMoveError):
        s.play("play 6H 8S")
    with pytest.raises(IllegalMoveError):
        s.play("play 6H; prophet")
    wrong_card = s.play("play 8S; " + good.split("; ")[1])
    assert not wrong_card.is_terminal and len(wrong_card.hands[2]) == 4


def test_express_no_play_and_card_cap():
    s = machine(R2, express=True).with_position(mainline="KS", turn=0, hands={0: "2S 3D 4C"})
    assert len(s.play("noplay").hands[0]) == 2
    w = s.with_position(hands={0: "2S 7H"}).play("noplay")
    assert w.mainline[-1] == parse_card("7H") and len(w.hands[0]) == 2
    cap = s.with_position(hands={0: "AH 2S"}, played=199).play("play AH")
    assert cap.is_terminal and cap.outcome.termination is Termination.CARD_CAP


# -- case 16: notation --------------------------------------------------------------------------
def test_case16_notation():
    s = machine(R1).with_position(hands={0: "10H 5S"}, turn=0)
    assert str(s.parse_move("play 10h")) == "play 10H"
    assert str(s.parse_move("play 10h;prophet if right")) == "play 10H; prophet if right"
    with pytest.raises(InvalidMoveError):
        s.parse_move("play 5H 6S 7D 8C 9H")
    with pytest.raises(IllegalMoveError):
        s.parse_move("play 5H")
    with pytest.raises(IllegalMoveError):
        s.parse_move("judge right")
    with pytest.raises(InvalidMoveError):
        s.parse_move("play 1Z")
    for text in ("noplay", "judge wrong 7C", "disapprove 7C", "approve",
                 'rule text 2 "über \\"x\\""', f"rule {R4}"):
        assert str(G.parse_notation(text)) == text


# -- options and serialisation ------------------------------------------------------------------
def test_options():
    with pytest.raises(InvalidOptionsError):
        G.new_state(players=4, options={"rule": ""})
    with pytest.raises(InvalidOptionsError):
        G.new_state(players=4, options={"rule": "rank(cur) == rank(prev) + 1"})
    with pytest.raises(InvalidOptionsError):
        G.new_state(players=4, options={"god": "player", "rule": R1})
    with pytest.raises(InvalidOptionsError):
        G.new_state(players=4, options={"rounds": "all"})
    def color(var):
        return {"op": "call", "fn": "color", "args": [{"op": "var", "name": var}]}
    ast = {"op": "!=", "args": [color("cur"), color("prev")]}
    assert G.normalize_options({"rule": ast})["rule"] == R1
    assert G.public_options(G.normalize_options({"rule": R1})) == {
        "god": "machine", "sudden_death": "seed", "rounds": 1, "express": False}
    assert G.variant_of(G.normalize_options({"express": True})) == "express"


def test_machine_pick_is_seeded():
    a, b = G.new_state(players=4, seed=21), G.new_state(players=4, seed=21)
    assert a == b and a.rule_move.startswith("rule ") and len(a.mainline) == a.lookback
    assert a.commitment == hashlib.sha256((a.nonce + "\n" + a.rule_move).encode()).hexdigest()


def test_to_dict_round_trip_mid_game():
    s = machine(R1).with_position(mainline="5S", hands={2: "JS QH"}, prophet=1, turn=2)
    s = s.play("play JS")
    again = G.state_from_dict(s.to_dict())
    assert again == s and again.rule is not None
    assert again.play("judge right") == s.play("judge right")


# -- §9 edge cases ------------------------------------------------------------------------------
def test_wrong_play_emptying_a_hand_does_not_end_the_round():
    s = machine(R1).with_position(mainline="5H", hands={0: "6H"}, turn=0, played=30)
    s = s.play("play 6H")
    assert not s.is_terminal and s.hands[0] == () and s.expelled == {0}
    amnesty = machine(R1).with_position(mainline="5H", hands={2: "6H"}, prophet=1, turn=2)
    amnesty = amnesty.play("play 6H").play("judge right")
    assert not amnesty.is_terminal and amnesty.hands[2] == () and amnesty.prophet == -1


def test_overthrowing_play_may_declare_the_new_prophet():
    s = machine(R1).with_position(mainline="5H", hands={2: "6H 7S"}, prophet=1, turn=2)
    s = s.play("play 6H; prophet").play("judge right")
    assert s.overthrown == {1} and s.prophet == 2 and s.marker == (1, 0)
    assert s.turn == 3 and "became Prophet" in s.log[-1][3]


def test_early_stop_bonus_for_seats_never_god():
    s = G.new_state(players=4, seed=8, options={"god": "player", "rounds": "all"})
    s = s.play(f"rule {R2}")
    s = s.with_position(hands={s.turn: "AH"}, mainline="KS").play("play AH")
    assert s.round == 2 and s.god == 1
    bonus = G.early_stop_totals(s)
    assert bonus == tuple(t + (10 if seat in (2, 3) else 0) for seat, t in enumerate(s.totals))


def test_public_notation_before_and_after_the_commit():
    s = G.new_state(players=4, seed=12, options={"god": "player"})
    move = s.parse_move(f"rule {R1}")
    shown = G.public_notation(move, s)
    after = s.play(move)
    assert shown == "rule committed " + after.commitment == G.public_notation(move, after)
    assert G.public_notation("play 5H", after) == "play 5H"
