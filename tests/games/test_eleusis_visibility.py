"""New Eleusis visibility (docs/rules/eleusis.md §2.2, §7 case 13): views never leak hands, the
stock order, the seed, the nonce or the rule before the round ends."""
from __future__ import annotations

import json
from random import Random

import pytest

import games
import games.new_eleusis  # noqa: F401  (registers the game)
from games.new_eleusis.cards import card_text

G = games.get_game("new-eleusis")
R1 = "color(cur) != color(prev)"
R8 = "if face(prev) then not face(cur) else rank(cur) > rank(prev)"
R9 = "if even(n) then color(cur) == red else suit(cur) in {C, S}"
COMMITS = (R1, R8, R9, "prime(cur) != prime(prev)", "suit(cur) == next_suit(suit(prev))")


def _texts(kinds):
    return json.dumps([card_text(k) for k in kinds])


def _secrets_hidden(state, history: list[str]) -> None:
    """Every view of `state` (and the public history) against the state's secrets."""
    round_open = state.phase not in ("over",)
    shown = state.pending[0] if state.pending and state.pending[1] == "noplay" else None
    rule_text = state.rule_move[5:] if state.rule_move.startswith("rule ") else ""
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        text = json.dumps(view)
        assert str(state.seed) not in text
        assert "stock" not in view or isinstance(view.get("stock"), int)
        if len(state.stock) >= 6:
            assert _texts(state.stock[-6:]) not in text and _texts(state.stock[:6]) not in text
        assert "rule" not in view["options"]
        for other in range(state.players):
            if (other in (seat, shown, state.god) or len(state.hands[other]) < 5
                    or not round_open):         # final hands are revealed at round end
                continue
            assert _texts(state.hands[other]) not in text, (seat, other)
        assert ("hand" in view) == (seat is not None and seat != state.god)
        if "hand" in view:
            assert view["hand"] == [card_text(k) for k in state.hands[seat]]
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        if round_open and state.rule_move:
            assert state.nonce not in text
            if seat != state.god or seat is None:
                assert state.rule_move not in text
                assert not rule_text or rule_text not in text
        if seat is not None and seat == state.current_player and state.phase == "turn":
            own = set(view["hand"])
            for move in view["legal_moves"]:
                if move.startswith("play "):
                    assert move[5:].split(";")[0] in own
    if round_open and state.rule_move:
        for line in history:
            assert state.nonce not in line
            assert not rule_text or rule_text not in line


def _random_game(options, seed, players, rng, with_strings=True, max_plies=400):
    state = G.new_state(players=players, seed=seed, options=options)
    moves = []
    while not state.is_terminal and len(moves) < max_plies:
        if state.phase == "commit":
            move = state.parse_move(f"rule {COMMITS[(state.round + seed) % len(COMMITS)]}")
        else:
            strings = state.string_moves(2) if with_strings and rng.random() < 0.25 else []
            move = rng.choice(strings or state.legal_moves())
        moves.append(move)
        history = [G.public_notation(m, state) for m in moves]
        state = state.play(str(move))
        _secrets_hidden(state, [G.public_notation(m, state) for m in moves] + history)
    return state, moves


@pytest.mark.parametrize("options,players,seed", [
    ({"rule": R1}, 4, 424242001),
    ({"rule": R9}, 6, 424242002),
    ({"rule": R8, "express": True}, 5, 424242003),
    ({"god": "player"}, 5, 424242004),
    ({"god": "player", "rounds": "all"}, 4, 424242005),
])
def test_random_games_never_leak(options, players, seed):
    final, moves = _random_game(options, seed, players, Random(seed))
    assert final.is_terminal
    view = final.view(None)
    assert view["commitment_ok"] is True and view["rule"] == final.records[-1].rule_move
    assert all(rec["commitment_ok"] for rec in view["rounds_done"])
    assert G.replay(players=players, seed=seed, options=options,
                    moves=[str(m) for m in moves]) == final
    for move in moves:
        if str(move).startswith("rule "):
            assert G.public_notation(move, final) == str(move)


def test_case13_visibility():
    s = G.new_state(players=4, seed=424242010, options={"rule": R1})
    views = {seat: s.view(seat) for seat in [None, 0, 1, 2, 3]}
    assert [seat for seat, v in views.items() if "hand" in v] == [0, 1, 2, 3]
    assert views[2]["hand"] == [card_text(k) for k in s.hands[2]]
    for seat, view in views.items():
        assert view["hand_sizes"] == [14, 14, 14, 14]
        assert view["commitment"] == s.commitment and "rule" not in view
        assert ("legal_moves" in view) == (seat == s.turn)
        assert "nonce" not in view and "commitment_ok" not in view
    end = s.with_position(hands={s.turn: "AH"}, mainline="KS").play("play AH")
    view = end.view(None)
    assert view["rule"] == f"rule {R1}" and view["commitment_ok"] is True
    assert view["nonce"] == s.nonce
    assert view["rounds_done"][0]["final_hands"][1] == [card_text(k) for k in end.hands[1]]


def test_god_sees_own_rule_and_report_only():
    s = G.new_state(players=4, seed=424242011, options={"god": "player"}).play(f"rule {R8}")
    assert s.view(0)["rule"] == f"rule {R8}" and s.view(0)["report"]["lookback"] == 1
    for seat in (None, 1, 2, 3):
        view = s.view(seat)
        assert "report" not in view and R8 not in json.dumps(view)
    assert s.view(0)["log"][0]["move"] == "rule committed " + s.commitment
