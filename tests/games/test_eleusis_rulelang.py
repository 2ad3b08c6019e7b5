"""The New Eleusis rule language (docs/rules/eleusis.md §2.1, §7 cases 1-4 and 15, §9)."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.new_eleusis.cards import parse_card
from games.new_eleusis.rulelang import (
    FUNCTIONS, RuleError, check_expression, compile_rule, decode_ast, parse_ast, parse_guess,
    print_ast,
)

TABLE = {   # §2.1: (canonical expression, L, acceptance)
    "R1": ("color(cur) != color(prev)", 1, Fraction(1, 2)),
    "R2": ("suit(cur) == next_suit(suit(prev))", 1, Fraction(1, 4)),
    "R3": ("if odd(prev) then color(cur) == black else color(cur) == red", 1, Fraction(1, 2)),
    "R4": ("case mod(rank(prev), 3) of {0: face(cur), 1: odd(cur), 2: even(cur)}", 1,
           Fraction(71, 169)),
    "R5": ("if odd(prev) then rank(cur) <= rank(prev) else rank(cur) >= rank(prev)", 1,
           Fraction(7, 13)),
    "R6": ("if color(prev) == color(prev2) then color(cur) != color(prev) "
           "else color(cur) == color(prev)", 2, Fraction(1, 2)),
    "R7": ("prime(cur) != prime(prev)", 1, Fraction(84, 169)),
    "R8": ("if face(prev) then not face(cur) else rank(cur) > rank(prev)", 1, Fraction(105, 169)),
    "R9": ("if even(n) then color(cur) == red else suit(cur) in {C, S}", 1, Fraction(1, 2)),
    "R10": ("rank(cur) == mod(rank(prev), 13) + 1", 1, Fraction(1, 13)),
}


def card(text):
    return parse_card(text)


# -- case 1: canonical printing and the exact AST --------------------------------------------------
def test_case1_canonical_printing_and_ast():
    canonical, lookback = check_expression("rank(cur)>J and not face(prev)")
    assert canonical == "rank(cur) > 11 and not face(prev)" and lookback == 1
    assert check_expression(canonical)[0] == canonical
    expected = json.loads(
        '{"op":"and","args":[{"op":">","args":[{"op":"call","fn":"rank","args":[{"op":"var",'
        '"name":"cur"}]},{"op":"int","value":11}]},{"op":"not","args":[{"op":"call","fn":"face",'
        '"args":[{"op":"var","name":"prev"}]}]}]}')
    assert parse_ast("rank(cur)>J and not face(prev)") == expected
    assert print_ast(expected) == canonical


def test_canonical_text_and_ast_of_a_compiled_rule():
    rule = compile_rule("suit( cur )==next_suit(suit(prev))")
    assert rule.canonical == str(rule) == TABLE["R2"][0]
    assert rule.ast == parse_ast(rule.canonical)
    assert compile_rule(rule.ast) == rule and hash(compile_rule(rule.ast)) == hash(rule)


# -- case 2: rejected rules, each with its reason ---------------------------------------------------
@pytest.mark.parametrize("source, reason", [
    ("rank(cur) == red", "type error: == compares values of one type, not Int with Color"),
    ("suit(cur) < suit(prev)", "type error: < works on Ints only"),
    ("rank(cur) + 1", "a rule must be Bool, not an Int"),
    ("mod(rank(cur), rank(prev)) == 0", "integer literal 2..13"),
    ("n + 1 == rank(cur)", "use of n"),
    ("1 < rank(cur) < 5", "chained comparison"),
    ("case mod(rank(prev), 3) of {0: face(cur), 1: odd(cur)}",
     "not total: case mod(rank(prev), 3) has no arm for 2"),
    ("rank(cur) == rank(prev) + 1",
     "not live: no card is right in 4 of 52 contexts (prev = KS; prev = KH; prev = KD; prev = KC)"),
])
def test_case2_rejected_rules_name_the_reason(source, reason):
    with pytest.raises(RuleError) as err:
        compile_rule(source)
    assert reason in str(err.value)


@pytest.mark.parametrize("source, reason", [
    ("", "empty rule"),
    ("rank(cur) ==", "syntax error at column 13: expected a value"),
    ("(rank(cur) == 5", "expected ')'"),
    ("rank(cur) == 5)", "expected end of rule"),
    ("Rank(cur) == 5", "unknown name 'Rank'"),
    ("rank(cur) == 100", "integer 100 at column 14 is out of range 0..99"),
    ("rank(cur) == 5 & true", "unexpected character '&'"),
    ("rank(cur) == if face(prev) then 1 else 2", "an if used as an operand needs parentheses"),
    ("face(cur) or case suit(cur) of {S: true}", "a case used as an operand needs parentheses"),
    ("rank(cur, prev) == 5", "rank takes 1 argument, not 2"),
    ("mod(rank(cur), 14) == 0", "integer literal 2..13"),
    ("rank(5) == 5", "rank needs a Card, not an Int"),
    ("next_suit(cur) == S", "next_suit needs a Suit, not a Card"),
    ("odd(suit(cur))", "odd needs an Int or Card, not a Suit"),
    ("not rank(cur)", "not needs Bool operands, not Int"),
    ("if rank(cur) then true else false", "if condition must be Bool"),
    ("(if face(cur) then 1 else red) == 1", "if branches must have one type"),
    ("suit(cur) in {S, red}", "in on a Suit lists red, a Color"),
    ("suit(cur) in {S, S}", "duplicate literal S in in"),
    ("cur in {1}", "in needs an Int, Suit, Color or Bool, not a Card"),
    ("case rank(cur) of {1: true, A: false, else: true}", "duplicate literal 1 in case"),
    ("case suit(cur) of {S: true, H: 1, else: true}", "case branches must have one type"),
    ("case cur of {1: true}", "case needs an Int, Suit, Color or Bool, not a Card"),
    ("n in {2, 3} and face(cur)", "use of n"),
    ("case n of {2: true, else: false}", "use of n"),
    ("prime(n)", "use of n"),
    ("n == rank(prev)", "use of n"),
    ("mod(n, 7) == 0 or mod(n, 9) == 0 or face(cur)", "lcm 63 (at most 60)"),
    ("case suit(cur) of {else: true}", "expected a literal"),
])
def test_more_rejections_name_the_reason(source, reason):
    with pytest.raises(RuleError) as err:
        compile_rule(source)
    assert reason in str(err.value)


# -- case 3: acceptance of R1-R10 --------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(TABLE))
def test_case3_acceptance_fractions(name):
    source, lookback, rate = TABLE[name]
    rule = compile_rule(source)
    report = rule.report
    assert rule.canonical == source
    assert (report["acceptance_num"], report["acceptance_den"]) == (rate.numerator, rate.denominator)
    assert report["lookback"] == rule.lookback == lookback
    assert report["acceptance_pct"] == round(float(rate) * 100, 1)
    assert report["nodes"] == rule.nodes and json.loads(json.dumps(report)) == report
    assert (report["warning"] is None) == (Fraction(15, 100) <= rate <= Fraction(60, 100))


def test_report_details():
    r4 = compile_rule(TABLE["R4"][0]).report
    assert r4["acceptance_pct"] == 42.0 and (r4["min_accepted"], r4["max_accepted"]) == (12, 28)
    assert compile_rule(TABLE["R10"][0]).report["warning"] == "acceptance 7.7% is outside 15-60%"
    assert compile_rule(TABLE["R6"][0]).report["lookback"] == 2
    assert compile_rule("color(cur) != color(prev)").report["nodes"] == 5


# -- case 4: judging R4 -------------------------------------------------------------------------------
@pytest.mark.parametrize("prev, right, wrong", [("QH", "JS", "2S"), ("KS", "3H", "4H"),
                                                 ("JD", "10C", "9C")])
def test_case4_judging_r4(prev, right, wrong):
    rule = compile_rule(TABLE["R4"][0])
    assert rule.accepts(card(right), card(prev), None, 2)
    assert not rule.accepts(card(wrong), card(prev), None, 2)
    mask = rule.mask(card(prev), None, 7)
    assert mask >> card(right) & 1 and not mask >> card(wrong) & 1


def test_judging_with_two_starters_and_positions():
    r6 = compile_rule(TABLE["R6"][0])
    assert r6.accepts(card("3C"), card("2S"), card("5H"), 3)       # a pair starts: same colour
    assert not r6.accepts(card("3C"), card("2S"), card("5S"), 3)   # pair done: change colour
    r9 = compile_rule(TABLE["R9"][0])
    assert list(r9.n_values) == [2, 3]
    for n in range(2, 40):
        assert r9.accepts(card("5H"), card("2S"), None, n) == (n % 2 == 0)
        assert r9.accepts(card("5C"), card("2S"), None, n) == (n % 2 == 1)
    with pytest.raises(ValueError):
        r9.mask(card("2S"), None, 1)


def test_positions_beyond_the_literal_repeat_with_the_period():
    rule = compile_rule("if n <= 5 then face(cur) else mod(n, 3) == 0 and red == color(cur) "
                        "or mod(n, 3) != 0")
    assert (rule.n_base, rule.n_period, list(rule.n_values)) == (5, 3, [2, 3, 4, 5, 6, 7, 8])
    for n in range(2, 60):
        assert rule.accepts(card("5H"), card("AS"), None, n) == (n > 5)
        assert rule.accepts(card("5S"), card("AS"), None, n) == (n > 5 and n % 3 != 0)
        assert rule.accepts(card("QS"), card("AS"), None, n) == (n <= 5 or n % 3 != 0)
    mirrored = compile_rule("if 5 >= n then face(cur) else mod(n, 3) == 0 and red == color(cur) "
                            "or mod(n, 3) != 0")
    assert mirrored.equivalent(rule) and mirrored != rule


# -- evaluation order and functions (§9) --------------------------------------------------------------
def test_short_circuit_decides_totality():
    guarded = compile_rule("not face(cur) or (case rank(cur) of {11: true, 12: false, 13: true})")
    assert guarded.accepts(card("JS"), card("2S"), None, 2)
    assert not guarded.accepts(card("QS"), card("2S"), None, 2)
    compile_rule("if face(cur) then case rank(cur) of {J: true, Q: true, K: false} else true")
    with pytest.raises(RuleError, match="not total"):
        compile_rule("(case rank(cur) of {11: true, 12: false, 13: true}) or not face(cur)")


def test_functions():
    prime_sum = compile_rule("prime(rank(cur) + rank(prev))")
    assert prime_sum.accepts(card("10S"), card("AH"), None, 2)          # 11
    assert not prime_sum.accepts(card("10S"), card("5H"), None, 2)      # 15
    assert prime_sum.accepts(card("KS"), card("10H"), None, 2)          # 23
    distance = compile_rule("abs(rank(cur) - rank(prev)) <= 1")
    assert distance.accepts(card("4S"), card("5H"), None, 2)
    assert not distance.accepts(card("7S"), card("5H"), None, 2)
    cards_equal = compile_rule("cur != prev and rank(cur) == rank(prev) or face(cur)")
    assert not cards_equal.accepts(card("5H"), card("5H"), None, 2)
    assert cards_equal.accepts(card("5S"), card("5H"), None, 2)
    assert compile_rule("next_suit(suit(prev)) == suit(cur)").equivalent(compile_rule(TABLE["R2"][0]))
    assert compile_rule("suit(cur) == next_suit(suit(prev))").accepts(card("2S"), card("KC"), None, 2)
    assert compile_rule("case odd(cur) of {true: red == color(cur), false: true}").accepts(
        card("4S"), card("4S"), None, 2)


def test_rules_are_cached_values():
    rule = compile_rule("color(cur) != color(prev)")
    assert compile_rule("color(cur)!=color(prev)") is rule
    assert {rule, compile_rule(TABLE["R1"][0])} == {rule}
    with pytest.raises(AttributeError):
        rule.canonical = "true"


# -- JSON AST codec ------------------------------------------------------------------------------------
def test_json_reader_flattens_and_checks():
    nested = {"op": "or", "args": [
        {"op": "or", "args": [{"op": "call", "fn": "face", "args": [{"op": "var", "name": "cur"}]},
                               {"op": "bool", "value": True}]},
        {"op": "call", "fn": "odd", "args": [{"op": "var", "name": "prev"}]}]}
    flat = decode_ast(nested)
    assert [a["op"] for a in flat["args"]] == ["call", "bool", "call"]
    assert compile_rule(nested).canonical == "face(cur) or true or odd(prev)"
    assert parse_ast("face(cur) or (true or odd(prev))") == flat
    assert parse_ast("(face(cur) or true) or odd(prev)")["args"][2]["fn"] == "odd"


_CUR = {"op": "var", "name": "cur"}
_TRUE = {"op": "bool", "value": True}


@pytest.mark.parametrize("node, reason", [
    ([1, 2], "root is not a node object"),
    ({"value": 3}, "not a node object"),
    ({"op": "xor", "args": [_TRUE, _TRUE]}, "unknown op 'xor'"),
    ({"op": "var", "name": "next"}, "unknown variable 'next'"),
    ({"op": "var", "name": "cur", "extra": 1}, "has keys"),
    ({"op": "int", "value": 100}, "100 is not a valid int"),
    ({"op": "int", "value": True}, "not a valid int"),
    ({"op": "int", "value": "7"}, "not a valid int"),
    ({"op": "suit", "value": "X"}, "not a valid suit"),
    ({"op": "color", "value": "blue"}, "not a valid color"),
    ({"op": "bool", "value": 1}, "not a valid bool"),
    ({"op": "call", "fn": "eval", "args": [_CUR]}, "unknown function 'eval'"),
    ({"op": "call", "fn": "face", "args": []}, "non-empty list"),
    ({"op": "call", "fn": "face", "args": _CUR}, "non-empty list"),
    ({"op": "==", "args": [_CUR]}, "takes 2 args, not 1"),
    ({"op": "and", "args": [_TRUE]}, "at least 2 args"),
    ({"op": "not", "args": [_TRUE, _TRUE]}, "takes 1 args, not 2"),
    ({"op": "in", "args": [{"op": "call", "fn": "suit", "args": [_CUR]}], "set": []},
     "non-empty list of literals"),
    ({"op": "in", "args": [{"op": "call", "fn": "suit", "args": [_CUR]}], "set": [_CUR]},
     "must be a literal"),
    ({"op": "case", "args": [_TRUE], "arms": [[_TRUE]], "else": None}, "must be [literal, expr]"),
    ({"op": "case", "args": [_TRUE], "arms": [[_TRUE, _TRUE]]}, "has keys"),
    ({"op": "case", "args": [_TRUE], "arms": [], "else": _TRUE}, "non-empty list"),
    ({"op": "if", "args": [_TRUE, _TRUE]}, "takes 3 args"),
])
def test_json_codec_rejects_malformed_nodes(node, reason):
    with pytest.raises(RuleError) as err:
        compile_rule(node)
    assert "malformed AST" in str(err.value) and reason in str(err.value)


def test_json_ast_is_type_checked_like_text():
    with pytest.raises(RuleError, match="type error"):
        compile_rule({"op": "==", "args": [{"op": "call", "fn": "rank", "args": [_CUR]},
                                           {"op": "color", "value": "red"}]})


# -- limits (§2.1, §9) ----------------------------------------------------------------------------------
def test_character_limit_applies_to_the_text_as_submitted():
    text = "color(cur) != color(prev)"
    assert compile_rule(text + " " * (500 - len(text))).canonical == text
    with pytest.raises(RuleError, match="too long: 501 characters"):
        compile_rule(text + " " * (501 - len(text)))
    assert check_expression("rank(cur) == 07")[0] == "rank(cur) == 7"


def test_character_limit_for_a_json_ast_uses_its_canonical_text():
    ast = parse_ast(" or ".join(["next_suit(suit(prev2)) != next_suit(suit(prev))"] * 11))
    assert len(print_ast(ast)) > 500
    with pytest.raises(RuleError, match="too long"):
        compile_rule(ast)


def test_node_limit_counts_set_literals():
    def rule(k):
        return "rank(cur) + rank(prev) in {" + ", ".join(str(i) for i in range(k)) + "}"
    assert compile_rule(rule(94)).nodes == 100      # in, +, 2 calls, 2 vars and 94 literals
    with pytest.raises(RuleError, match="too large: 101 nodes"):
        compile_rule(rule(95))
    with pytest.raises(RuleError, match="too large"):
        compile_rule(parse_ast(rule(95)))


def test_nesting_is_capped():
    deep = "(" * 60 + "true" + ")" * 60
    with pytest.raises(RuleError, match="too deeply nested"):
        compile_rule(deep)
    with pytest.raises(RuleError, match="too deeply nested"):
        compile_rule("not " * 80 + "true")
    assert compile_rule("(" * 10 + "face(cur)" + ")" * 10).canonical == "face(cur)"


# -- printing round trips -----------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "rank(cur) - (rank(prev) - 1) == 3",
    "rank(cur) - rank(prev) - 1 == 3",
    "(face(cur) == face(prev)) == odd(cur)",
    "not (face(cur) or odd(cur)) and (even(prev) or red == color(cur))",
    "not not face(cur)",
    "if if face(prev) then odd(cur) else even(cur) then true else false",
    "case if face(prev) then 1 else 2 of {1: face(cur), 2: odd(cur), else: false}",
    "(if face(prev) then 1 else 2) == rank(cur) or (case suit(cur) of {S: true, else: false})",
    "case suit(cur) of {S: case color(prev) of {red: true}, else: false}",
    "odd(if face(prev) then rank(cur) else rank(prev))",
    "(suit(cur) in {S, H}) == (rank(cur) in {1, 12})",
    "if face(prev) then odd(cur) else if odd(prev) then even(cur) else face(cur) or odd(cur)",
])
def test_print_parse_round_trip(text):
    ast = parse_ast(text)
    assert print_ast(ast) == text
    assert parse_ast(print_ast(ast)) == ast


_LITERALS = st.one_of(
    st.integers(0, 99).map(lambda v: {"op": "int", "value": v}),
    st.sampled_from("SHDC").map(lambda v: {"op": "suit", "value": v}),
    st.sampled_from(["red", "black"]).map(lambda v: {"op": "color", "value": v}),
    st.booleans().map(lambda v: {"op": "bool", "value": v}),
)
_LEAVES = st.one_of(_LITERALS,
                    st.sampled_from(["cur", "prev", "prev2", "n"]).map(lambda v: {"op": "var",
                                                                                  "name": v}))


def _flat(op, items):
    args = []
    for item in items:
        args.extend(item["args"] if item["op"] == op else [item])
    return {"op": op, "args": args}


def _extend(children):
    binary = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "+", "-"])
    return st.one_of(
        st.builds(lambda fn, args: {"op": "call", "fn": fn, "args": args},
                  st.sampled_from(sorted(FUNCTIONS)), st.lists(children, min_size=1, max_size=2)),
        st.builds(lambda op, a, b: {"op": op, "args": [a, b]}, binary, children, children),
        st.builds(_flat, st.sampled_from(["and", "or"]), st.lists(children, min_size=2, max_size=3)),
        children.map(lambda a: {"op": "not", "args": [a]}),
        st.builds(lambda a, s: {"op": "in", "args": [a], "set": s}, children,
                  st.lists(_LITERALS, min_size=1, max_size=3)),
        st.builds(lambda c, t, e: {"op": "if", "args": [c, t, e]}, children, children, children),
        st.builds(lambda e, arms, d: {"op": "case", "args": [e], "arms": arms, "else": d},
                  children, st.lists(st.tuples(_LITERALS, children).map(list), min_size=1,
                                     max_size=3), st.none() | children),
    )


@settings(max_examples=150, deadline=None)
@given(st.recursive(_LEAVES, _extend, max_leaves=14))
def test_parse_print_round_trip_property(ast):
    text = print_ast(ast)
    assert parse_ast(text) == ast
    assert decode_ast(json.loads(json.dumps(ast))) == ast


# -- Express guesses (case 15) -------------------------------------------------------------------------
def test_case15_guess_equivalence():
    r1 = compile_rule(TABLE["R1"][0])
    right = parse_guess("(color(prev) == red and color(cur) == black) or "
                        "(color(prev) == black and color(cur) == red)", lookback=1)
    assert right.equivalent(r1) and r1.equivalent(right)
    assert right.canonical == ("color(prev) == red and color(cur) == black or "
                               "color(prev) == black and color(cur) == red")
    assert not parse_guess("suit(cur) != suit(prev)", 1).equivalent(r1)
    with pytest.raises(RuleError, match="prev2"):
        parse_guess("color(cur) != color(prev2)", 1)


def test_a_guess_is_judged_without_building_its_table():
    import time
    slow = "n > 90 and color(cur) != color(prev2) or mod(n, 12) == 0 and mod(n, 5) == 0 or cur == prev"
    r6 = compile_rule(TABLE["R6"][0])
    start = time.perf_counter()
    guess = parse_guess(slow, 2)
    assert not r6.equivalent(guess) and not guess.equivalent(r6)
    assert time.perf_counter() - start < 1.0
    assert guess == parse_guess(slow, 2) and str(guess) == guess.canonical and hash(guess)


def test_guesses_need_not_be_total_or_live():
    partial = parse_guess("case suit(cur) of {S: true, C: true, H: false}", 1)
    diamonds = sum(1 << k for k in range(52) if k % 4 == 2)
    assert not partial.is_total and partial.is_live
    assert partial.fail_mask(card("2S"), None, 2) == diamonds
    total_twin = compile_rule("suit(cur) in {S, C}")
    assert not partial.equivalent(total_twin) and not total_twin.equivalent(partial)
    dead = parse_guess("rank(cur) == rank(prev) + 1", 1)
    assert not dead.is_live and not dead.equivalent(compile_rule(TABLE["R10"][0]))
    with pytest.raises(RuleError, match="not a Bool|must be Bool"):
        parse_guess("rank(cur)", 1)
    with pytest.raises(RuleError, match="lcm"):
        parse_guess("mod(n, 11) == 0 and mod(n, 7) == 0", 2)


def test_guess_equivalence_over_a_common_range_of_positions():
    r9 = compile_rule(TABLE["R9"][0])
    assert parse_guess("if odd(n) then color(cur) == black else red == color(cur)", 1).equivalent(r9)
    assert not parse_guess("if mod(n, 4) == 0 then color(cur) == red "
                           "else color(cur) == black", 1).equivalent(r9)
    early = parse_guess("if n < 9 then (if even(n) then color(cur) == red else color(cur) == black)"
                        " else color(cur) == red", 1)
    assert not early.equivalent(r9)
    r6 = compile_rule(TABLE["R6"][0])
    same_colour_pairs = parse_guess(
        "if color(prev2) != color(prev) then color(prev) == color(cur) "
        "else color(prev) != color(cur)", 2)
    assert same_colour_pairs.equivalent(r6)
    assert not compile_rule(TABLE["R1"][0]).equivalent(r6)


# -- the machine God's bank ------------------------------------------------------------------------------
def test_bank_holds_the_rule_book_table_first():
    from games.new_eleusis.bank import BANK
    assert [(e.name, e.canonical) for e in BANK[:10]] == [(k, TABLE[k][0]) for k in
                                                           [f"R{i}" for i in range(1, 11)]]
    assert len(BANK) >= 30


def test_bank_rules_are_valid_distinct_and_labelled():
    from games.new_eleusis.bank import BANK, DIFFICULTIES
    assert len({e.name for e in BANK}) == len(BANK)
    for i, entry in enumerate(BANK):
        assert entry.difficulty in DIFFICULTIES and entry.origin
        assert compile_rule(entry.canonical) == entry.rule
        assert entry.rule.is_total and entry.rule.is_live
        if entry.name not in ("R8", "R10"):
            assert entry.rule.report["warning"] is None, entry.name
        for other in BANK[:i]:
            assert not entry.rule.equivalent(other.rule), (entry.name, other.name)
    assert {e.difficulty for e in BANK} == set(DIFFICULTIES)


def test_pick_rule_is_seeded_and_filters_by_difficulty():
    from random import Random

    from games import seeded_rng
    from games.new_eleusis.bank import BANK, entries, pick_rule
    assert pick_rule(seeded_rng(7, 1, "rule")) == pick_rule(seeded_rng(7, 1, "rule"))
    picks = {pick_rule(Random(seed)) for seed in range(200)}
    assert len(picks) > 20 and picks <= {e.rule for e in BANK}
    hard = {e.rule for e in entries("hard")}
    assert all(pick_rule(Random(seed), "hard") in hard for seed in range(30))
    with pytest.raises(ValueError, match="unknown difficulty 'brutal'"):
        pick_rule(Random(0), "brutal")


# -- the staged compiler agrees with the reference evaluator ---------------------------------------------
def _typed(draw, typ, depth):
    """A random well-typed expression of `typ` (text), for the oracle test."""
    deeper = depth > 0 and draw(st.booleans())
    choice = draw(st.integers(0, 4 if deeper else 1))
    if typ == "Card":
        if choice <= 1 or not deeper:
            return draw(st.sampled_from(["cur", "prev", "prev2", "cur"]))
        return f"(if {_typed(draw, 'Bool', depth - 1)} then {_typed(draw, 'Card', depth - 1)} " \
               f"else {_typed(draw, 'Card', depth - 1)})"
    if typ == "Suit":
        return draw(st.sampled_from(["S", "D"])) if choice == 0 else \
            f"suit({_typed(draw, 'Card', depth - 1)})" if choice < 3 or not deeper else \
            f"next_suit({_typed(draw, 'Suit', depth - 1)})"
    if typ == "Color":
        return "red" if choice == 0 else f"color({_typed(draw, 'Card', depth - 1)})"
    if typ == "Int":
        if choice == 0:
            return str(draw(st.integers(0, 14)))
        if choice == 1 or not deeper:
            return f"rank({_typed(draw, 'Card', depth - 1)})"
        return draw(st.sampled_from([
            f"mod({_typed(draw, 'Int', depth - 1)}, {draw(st.integers(2, 13))})",
            f"abs({_typed(draw, 'Int', depth - 1)} - {_typed(draw, 'Int', depth - 1)})",
            f"({_typed(draw, 'Int', depth - 1)} + {_typed(draw, 'Int', depth - 1)})",
            _case_text(draw, "Int", depth)]))
    if choice == 0:
        return draw(st.sampled_from(["true", "odd(n)", "(n < 4)", "(mod(n, 3) == 1)", "(5 <= n)"]))
    if choice == 1 or not deeper:
        return f"{draw(st.sampled_from(['face', 'odd', 'prime']))}({_typed(draw, 'Card', depth - 1)})"
    sub = draw(st.sampled_from(["Int", "Suit", "Color", "Bool", "Card"]))
    return draw(st.sampled_from([
        f"({_typed(draw, sub, depth - 1)} == {_typed(draw, sub, depth - 1)})",
        f"({_typed(draw, 'Int', depth - 1)} < {_typed(draw, 'Int', depth - 1)})",
        f"({_typed(draw, 'Bool', depth - 1)} and {_typed(draw, 'Bool', depth - 1)})",
        f"({_typed(draw, 'Bool', depth - 1)} or {_typed(draw, 'Bool', depth - 1)})",
        f"(not {_typed(draw, 'Bool', depth - 1)})",
        f"(suit({_typed(draw, 'Card', depth - 1)}) in {{H, C}})",
        f"even({_typed(draw, 'Int', depth - 1)})",
        _case_text(draw, "Bool", depth)]))


def _case_text(draw, typ, depth):
    scrutinee, lits = draw(st.sampled_from([("Suit", "SHDC"), ("Color", ["red", "black"]),
                                            ("Bool", ["true", "false"])]))
    arms = draw(st.lists(st.sampled_from(list(lits)), min_size=1, max_size=len(lits),
                         unique=True))
    text = ", ".join(f"{lit}: {_typed(draw, typ, depth - 1)}" for lit in arms)
    if draw(st.booleans()):
        text += f", else: {_typed(draw, typ, depth - 1)}"
    return f"(case {_typed(draw, scrutinee, depth - 1)} of {{{text}}})"


@st.composite
def _typed_rules(draw):
    return _typed(draw, "Bool", 4)


@settings(max_examples=40, deadline=None)
@given(_typed_rules(), st.lists(st.tuples(st.integers(0, 51), st.integers(0, 51),
                                          st.integers(3, 150)), min_size=4, max_size=4))
def test_verdict_tables_agree_with_the_reference_evaluator(text, contexts):
    from games.new_eleusis.rulelang import CaseMiss, evaluate
    from games.new_eleusis.rulelang.tables import verdict_table
    try:
        guess = parse_guess(text, 2)
    except RuleError as err:
        assert "lcm" in str(err)
        return
    table = verdict_table(guess.canonical)         # the full verdict table, n reduced to its class
    ast = guess.ast
    for prev, prev2, n in contexts:
        for rule in (guess, table):
            accepted, failed = rule.mask(prev, prev2, n), rule.fail_mask(prev, prev2, n)
            for cur in range(52):
                try:
                    verdict = evaluate(ast, cur, prev, prev2, n)
                except CaseMiss:
                    assert failed >> cur & 1, (text, cur, prev, prev2, n)
                    continue
                assert not failed >> cur & 1 and bool(accepted >> cur & 1) == verdict, \
                    (text, cur, prev, prev2, n)
    assert guess.equivalent(table) == (table.fail_table is None)
    assert (guess.is_total, guess.is_live) == (table.is_total, table.is_live)


def test_json_ast_is_held_to_the_same_nesting_cap_as_text():
    deep = {"op": "call", "fn": "face", "args": [{"op": "var", "name": "cur"}]}
    for _ in range(60):
        deep = {"op": "not", "args": [deep]}
    with pytest.raises(RuleError, match="too deeply nested"):
        compile_rule(deep)
    with pytest.raises(RuleError, match="unexpected character"):
        compile_rule("rank(cur) == \u0663")          # only ASCII digits are integers


def test_a_large_position_range_builds_fast_and_right():
    import time

    from games.new_eleusis.rulelang import evaluate
    text = ("n > 90 and color(cur) != color(prev2) or mod(n, 12) == 0 and mod(n, 5) == 0 "
            "or cur == prev")
    start = time.perf_counter()
    rule = compile_rule(text)
    assert time.perf_counter() - start < 3.0
    assert (rule.lookback, rule.n_base, rule.n_period, len(rule.table)) == (2, 90, 60, 148 * 2704)
    ast = rule.ast
    for n in (3, 60, 61, 90, 91, 120, 151, 200):
        for prev, prev2 in ((card("5H"), card("7S")), (card("5H"), card("7D"))):
            mask = rule.mask(prev, prev2, n)
            assert [bool(mask >> c & 1) for c in range(52)] == \
                [evaluate(ast, c, prev, prev2, n) for c in range(52)], n
