"""The Eleusis scientist: hypotheses ranked by simplicity × likelihood on public evidence."""
from __future__ import annotations

import math
from random import Random

import pytest

import games
from games.new_eleusis.cards import parse_card
from games.new_eleusis.induction import (
    Evidence, analyse, consistent_rules, hypothesis_space, mismatches, probability_right,
    string_right, _fold,
)
from games.new_eleusis.rulelang import compile_rule

R1 = "color(cur) != color(prev)"
R2 = "suit(cur) == next_suit(suit(prev))"
R4 = "case mod(rank(prev), 3) of {0: face(cur), 1: odd(cur), 2: even(cur)}"
R6 = ("if color(prev) == color(prev2) then color(cur) != color(prev) "
      "else color(cur) == color(prev)")


def cards(text):
    return tuple(parse_card(t) for t in text.split())


def simulate(rule, plays, seed, hand_size=6):
    """A round where scientists play random cards from random hands; God judges by `rule`."""
    rng = Random(seed)
    main = [rng.randrange(52) for _ in range(rule.lookback)]
    side, noplays = [], []
    for _ in range(plays):
        prev, prev2, n = Evidence(rule.lookback, tuple(main)).next_context
        mask = rule.mask(prev, prev2, n)
        hand = [rng.randrange(52) for _ in range(hand_size)]
        if not any(mask >> k & 1 for k in hand) and rng.random() < 0.5:
            noplays.append((len(main) - 1, tuple(hand)))
        elif rng.random() < 0.15:
            string = tuple(rng.sample(hand, 2))
            if string_right(rule, string, (prev, prev2, n)):
                main.extend(string)
            else:
                side.append((len(main) - 1, string))
        else:
            card = rng.choice(hand)
            if mask >> card & 1:
                main.append(card)
            else:
                side.append((len(main) - 1, (card,)))
    return Evidence(rule.lookback, tuple(main), tuple(side), tuple(noplays))


def test_space_is_valid_deduplicated_and_holds_the_bank():
    from games.new_eleusis.bank import BANK
    space = hypothesis_space()
    assert len(space) > 300
    tables = {(h.rule.lookback, h.rule.n_period, h.rule.table) for h in space}
    assert len(tables) == len(space)
    assert all(h.rule.is_total and h.rule.is_live for h in space)
    assert math.isclose(sum(math.exp(h.log_prior) for h in space), 1.0)
    canon = {h.rule.canonical for h in space}
    assert all(e.canonical in canon or any(e.rule.equivalent(h.rule) for h in space) for e in BANK)


def test_evidence_contexts_follow_positions():
    ev = Evidence(2, cards("4C 7D QC 5D"))
    assert ev.context(1) == (parse_card("7D"), parse_card("4C"), 3)
    assert ev.next_context == (parse_card("5D"), parse_card("QC"), 5)
    assert Evidence(1, cards("4C 7D")).next_context == (parse_card("7D"), None, 3)


def test_each_kind_of_evidence_counts():
    r1 = compile_rule(R1)
    ev = Evidence(1, cards("4C 7D QC"), sidelines=((0, cards("5S")), (1, cards("8S 9S"))),
                  noplays=((2, cards("2S 3C")),))
    assert mismatches(r1, _fold(ev)) == 0
    facts = _fold(Evidence(1, cards("4C 7D"), sidelines=((1, cards("8S 9H")),)))
    assert mismatches(r1, facts) == 1                      # R1 would accept that string
    assert mismatches(r1, _fold(Evidence(1, cards("4C 7S")))) == 1
    assert mismatches(r1, _fold(Evidence(1, cards("4C"), noplays=((0, cards("2S 3H")),)))) == 1


@pytest.mark.parametrize("source, seed", [(R1, 1), (R2, 2), (R4, 3), (R6, 4),
                                          ("if face(prev) then color(cur) == red else odd(cur)", 5)])
def test_a_simulated_round_finds_the_rule(source, seed):
    rule = compile_rule(source)
    ev = simulate(rule, 40, seed)
    belief = analyse(ev)
    assert any(r.equivalent(rule) for r in belief.consistent_rules()[:2])
    assert belief.ranked[0][1] > 0.4
    truth = rule.mask(*belief.context)
    probs = belief.right_probabilities()
    assert sum((p > 0.5) == bool(truth >> k & 1) for k, p in enumerate(probs)) >= 48


def test_one_false_verdict_is_tolerated():
    rule = compile_rule(R2)
    ev = simulate(rule, 40, 7)
    prev, prev2, n = ev.context(3)
    right_card = (rule.mask(prev, prev2, n) & -rule.mask(prev, prev2, n)).bit_length() - 1
    noisy = Evidence(1, ev.mainline, ev.sidelines + ((3, (right_card,)),), ev.noplays)
    belief = analyse(noisy)
    assert not any(r.equivalent(rule) for r in belief.consistent_rules())
    rank = next(i for i, (h, _, _) in enumerate(belief.ranked) if h.rule.equivalent(rule))
    assert rank < 5 and belief.ranked[rank][1] > 0.05 and belief.ranked[rank][2] == 1
    strict = analyse(noisy, noise=1e-9)
    assert next(p for h, p, _ in strict.ranked if h.rule.equivalent(rule)) < 1e-6


def test_probabilities():
    ev = simulate(compile_rule(R2), 40, 11)
    belief = analyse(ev)
    prev, prev2, n = belief.context
    wanted = "SHDC"[(prev % 4 + 1) % 4]          # R2: the suit after prev's
    heart_or_next = parse_card("5" + wanted)
    assert belief.probability_right(heart_or_next) > 0.9
    assert probability_right(heart_or_next, belief.context, ev) == pytest.approx(
        belief.probability_right(heart_or_next))
    other = parse_card("5" + "SHDC"[("SHDC".index(wanted) + 1) % 4])
    assert belief.probability_right(other) < 0.1
    assert belief.probability_no_play_right([other]) > 0.9
    assert belief.probability_no_play_right([other, heart_or_next]) < 0.1
    assert belief.probability_string_right([heart_or_next, other]) > 0.9
    assert belief.probability_string_right([heart_or_next, heart_or_next]) < 0.1
    assert consistent_rules(ev)[0] == belief.consistent_rules()[0]


def test_reads_a_real_game_view():
    game = games.get_game("new-eleusis")
    state = game.new_state(players=4, seed=3, options={"rule": R4})
    rng = Random(0)
    for _ in range(60):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    ev = Evidence.from_view(state.view(None))
    assert len(ev.mainline) > 5 and ev.sidelines
    belief = analyse(ev)
    assert any(r.equivalent(compile_rule(R4)) for r in belief.consistent_rules())


def test_best_play_and_guess():
    rule = compile_rule(R1)
    belief = analyse(simulate(rule, 40, 21))
    prev, _, _ = belief.context
    hand = cards("2S 2H 3C 3D")
    kind, p = belief.best_play(hand)
    assert rule.accepts(kind, prev, None, belief.context[2]) and p > 0.5
    guess, q = belief.best_guess()
    assert guess == belief.best and 0 < q <= 1


def test_two_starters_favour_rules_that_use_prev2():
    rule = compile_rule(R6)
    belief = analyse(simulate(rule, 30, 8))
    assert belief.best.lookback == 2 and belief.best.equivalent(rule)
    assert all(h.rule.lookback == 1 for h, _, _ in analyse(simulate(compile_rule(R1), 5, 8)).ranked)


def test_evidence_needs_a_mainline_and_a_fitting_space():
    with pytest.raises(ValueError, match="no mainline yet"):
        analyse(Evidence(1, ()))
    only_pairs = tuple(h for h in hypothesis_space() if h.rule.lookback == 2)
    with pytest.raises(ValueError, match="no hypothesis fits"):
        analyse(Evidence(1, cards("5H")), space=only_pairs)
