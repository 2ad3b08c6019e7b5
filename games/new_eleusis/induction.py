"""An Eleusis scientist for engines: which secret rules fit the public evidence (docs/rules/eleusis.md).

It reads only what every seat sees (§2.2): the mainline with positions, the sidelines with the
card each group tried to follow (a group of several cards is a failed string, whose failing card is
never named, §3.1), and No-Play displays (every shown card was wrong there, §3.2). Hypotheses come
from a generated space: the machine God's bank plus enumerated simple rules (one property of `cur`,
one relation to `prev`, a property chosen by `prev`, two of them joined, a position parity).
Rules with the same verdict table are one hypothesis.

The posterior is a simplicity prior times a likelihood with noise tolerance: each judged card (or
string) agrees with a hypothesis with probability 1 - noise, so a single mistaken verdict (a human
God's slip) lowers a rule instead of ruling it out. Judging under a hypothesis is a table lookup.

    belief = analyse(Evidence.from_view(state.view(seat)))
    belief.consistent_rules()[:3]; belief.probability_right(kind, belief.context)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from .cards import kinds_mask, mask_kinds, parse_card
from .rulelang import Rule, RuleError, compile_rule

NOISE = 0.02                # chance that a verdict disagrees with the true rule
BANK_WEIGHT = 0.5           # prior mass on the machine God's bank (the rule is one of them there)
NODE_COST = 0.35            # simplicity prior: log-weight lost per AST node
SHORT_MEMORY = 0.05         # prior factor for a rule without prev2 in a round with 2 starters:
                            # an expression rule's L is 2 only if it uses prev2 (§2 set-up)

Context = tuple             # (prev, prev2 or None, n): what a rule judges `cur` against


# ---------------------------------------------------------------------------------------------
# Evidence
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Evidence:
    """The public record of one round: mainline kinds (starters first), and the sideline groups
    and No-Play displays as (mainline index they followed, kinds). `judged` flags the mainline
    cards that are evidence (played or God-placed; starters and set-up cards are not)."""

    lookback: int
    mainline: tuple[int, ...]
    sidelines: tuple[tuple[int, tuple[int, ...]], ...] = ()
    noplays: tuple[tuple[int, tuple[int, ...]], ...] = ()
    judged: tuple[bool, ...] | None = None

    def context(self, index: int) -> Context:
        """The context of a card played after mainline[index]: prev, prev2 and its position."""
        prev2 = self.mainline[index - 1] if self.lookback == 2 and index >= 1 else None
        return self.mainline[index], prev2, index + 2

    @property
    def next_context(self) -> Context:
        """The context of the next play."""
        if not self.mainline:
            raise ValueError("no mainline yet: the starters are not turned up")
        return self.context(len(self.mainline) - 1)

    def is_judged(self, index: int) -> bool:
        if self.judged is not None:
            return self.judged[index]
        return index >= self.lookback

    @classmethod
    def from_view(cls, view: Mapping) -> "Evidence":
        """Read a New Eleusis `view(seat)` (any seat, or a spectator's)."""
        main = view["mainline"]
        return cls(
            lookback=int(view["lookback"]),
            mainline=tuple(parse_card(entry["card"]) for entry in main),
            sidelines=tuple((g["after"], tuple(parse_card(c) for c in g["cards"]))
                            for g in view.get("sidelines", ())),
            noplays=tuple((g["after"], tuple(parse_card(c) for c in g["cards"]))
                          for g in view.get("noplays", ())),
            judged=tuple(not e.get("starter") and (e.get("seat") is not None
                                                   or bool(e.get("god_placed")))
                         for e in main),
        )


@dataclass(frozen=True)
class _Facts:
    """Evidence folded for fast scoring: per context, the kinds seen right and seen wrong."""

    right: tuple[tuple[Context, int], ...]
    wrong: tuple[tuple[Context, int], ...]
    strings: tuple[tuple[Context, tuple[int, ...]], ...]
    count: int


def _fold(evidence: Evidence) -> _Facts:
    right: dict[Context, int] = {}
    wrong: dict[Context, int] = {}
    strings = []
    count = 0
    for j in range(1, len(evidence.mainline)):
        if evidence.is_judged(j):
            ctx = evidence.context(j - 1)
            right[ctx] = right.get(ctx, 0) | 1 << evidence.mainline[j]
            count += 1
    for after, cards in evidence.sidelines:
        if len(cards) > 1:
            strings.append((evidence.context(after), cards))
            count += 1
            continue
        ctx = evidence.context(after)
        wrong[ctx] = wrong.get(ctx, 0) | 1 << cards[0]
        count += 1
    for after, cards in evidence.noplays:
        ctx = evidence.context(after)
        for kind in cards:
            wrong[ctx] = wrong.get(ctx, 0) | 1 << kind
        count += len(cards)
    return _Facts(tuple(right.items()), tuple(wrong.items()), tuple(strings), count)


def string_right(rule: Rule, cards: Iterable[int], context: Context) -> bool:
    """Whether a whole string is right: each card judged as if the earlier ones were accepted."""
    prev, prev2, n = context
    for kind in cards:
        if not rule.accepts(kind, prev, prev2, n):
            return False
        prev, prev2, n = kind, prev, n + 1
    return True


def mismatches(rule: Rule, facts: _Facts) -> int:
    """How many judged cards (a string counts once) disagree with `rule`."""
    bad = 0
    for context, kinds in facts.right:
        bad += (kinds & ~rule.mask(*context)).bit_count()
    for context, kinds in facts.wrong:
        bad += (kinds & rule.mask(*context)).bit_count()
    for context, cards in facts.strings:
        bad += string_right(rule, cards, context)
    return bad


# ---------------------------------------------------------------------------------------------
# The hypothesis space
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hypothesis:
    rule: Rule
    log_prior: float
    sources: tuple[str, ...] = field(default=(), compare=False)


_CUR_ATOMS = ("color(cur) == red", "color(cur) == black", "odd(cur)", "even(cur)", "face(cur)",
              "not face(cur)", "prime(cur)", "rank(cur) <= 7", "rank(cur) >= 7",
              "suit(cur) in {S, H}", "suit(cur) in {S, D}", "suit(cur) == S", "suit(cur) == H",
              "suit(cur) == D", "suit(cur) == C")
_RELATIONS = ("color(cur) == color(prev)", "color(cur) != color(prev)",
              "suit(cur) == suit(prev)", "suit(cur) != suit(prev)",
              "suit(cur) == next_suit(suit(prev))", "rank(cur) > rank(prev)",
              "rank(cur) >= rank(prev)", "rank(cur) < rank(prev)", "rank(cur) <= rank(prev)",
              "rank(cur) == rank(prev)", "rank(cur) != rank(prev)", "odd(cur) == odd(prev)",
              "odd(cur) != odd(prev)", "face(cur) != face(prev)", "prime(cur) != prime(prev)",
              "abs(rank(cur) - rank(prev)) <= 1", "abs(rank(cur) - rank(prev)) <= 2",
              "abs(rank(cur) - rank(prev)) >= 3", "rank(cur) == mod(rank(prev), 13) + 1",
              "odd(rank(cur) + rank(prev))", "rank(cur) + rank(prev) > 13",
              "mod(rank(cur) + rank(prev), 3) == 0")
_CONDITIONS = ("odd(prev)", "face(prev)", "color(prev) == red", "rank(prev) <= 7")
_BRANCHES = ("color(cur) == red", "color(cur) == black", "odd(cur)", "even(cur)", "face(cur)",
             "not face(cur)", "rank(cur) > rank(prev)", "rank(cur) < rank(prev)",
             "rank(cur) <= rank(prev)", "rank(cur) >= rank(prev)")
_MEMORY = ("color(cur) == color(prev2)", "color(cur) != color(prev2)", "suit(cur) == suit(prev2)",
           "suit(cur) != suit(prev2)", "rank(cur) > rank(prev2)", "rank(cur) <= rank(prev2)",
           "odd(cur) == odd(prev2)", "odd(cur) != odd(prev2)")
_PERIODIC = ("color(cur) == red", "color(cur) == black", "odd(cur)", "even(cur)",
             "suit(cur) in {C, S}")


def enumerated_sources() -> list[str]:
    """The simple rules, as text: atoms, relations, conditionals, pairs, position parities and
    relations to `prev2`."""
    out = list(_CUR_ATOMS) + list(_RELATIONS)
    out += [f"if {c} then {a} else {b}" for c in _CONDITIONS for a in _BRANCHES
            for b in _BRANCHES if a != b]
    pairs = [(a, r) for a in _CUR_ATOMS[:9] for r in _RELATIONS]
    out += [f"{a} and {r}" for a, r in pairs] + [f"{a} or {r}" for a, r in pairs]
    out += [f"if even(n) then {a} else {b}" for a in _PERIODIC for b in _PERIODIC if a != b]
    return out + list(_MEMORY)


def build_space(enumerated: Sequence[Rule], with_bank: bool = True,
                bank_weight: float = BANK_WEIGHT) -> tuple[Hypothesis, ...]:
    """Hypotheses from the bank and `enumerated` rules, one per verdict table, most probable first.

    The bank shares `bank_weight` of the prior mass (all of it without enumerated rules); an
    enumerated rule weighs exp(-NODE_COST * nodes). Rules with one table pool their mass and keep
    the smallest expression."""
    mass: dict[tuple, float] = {}
    rules: dict[tuple, Rule] = {}
    sources: dict[tuple, list[str]] = {}

    def add(rule: Rule, weight: float, source: str) -> None:
        key = (rule.lookback, rule.uses_n, rule.n_base, rule.n_period, rule.table)
        if key not in rules or rule.nodes < rules[key].nodes:
            rules[key] = rule
        mass[key] = mass.get(key, 0.0) + weight
        sources.setdefault(key, []).append(source)

    if with_bank:
        from .bank import BANK
        share = (bank_weight if enumerated else 1.0) / len(BANK)
        for entry in BANK:
            add(entry.rule, share, f"bank:{entry.name}")
    if enumerated:
        weights = [math.exp(-NODE_COST * rule.nodes) for rule in enumerated]
        scale = (1.0 - bank_weight if with_bank else 1.0) / sum(weights)
        for rule, weight in zip(enumerated, weights):
            add(rule, weight * scale, "enumerated")
    return tuple(Hypothesis(rules[k], math.log(mass[k]), tuple(sources[k]))
                 for k in sorted(rules, key=lambda k: -mass[k]))


def compiled_sources() -> list[Rule]:
    """The enumerated sources that compile to valid rules, in enumeration order."""
    compiled = []
    for text in enumerated_sources():
        try:
            compiled.append(compile_rule(text, cache=False))
        except RuleError:
            continue
    return compiled


@lru_cache(maxsize=4)
def hypothesis_space(with_bank: bool = True, with_enumerated: bool = True,
                     bank_weight: float = BANK_WEIGHT) -> tuple[Hypothesis, ...]:
    """Valid (total, live) rules, one per verdict table, with their log prior."""
    return build_space(compiled_sources() if with_enumerated else [], with_bank, bank_weight)


# ---------------------------------------------------------------------------------------------
# Belief: the posterior over hypotheses
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Belief:
    """Posterior over the hypotheses, best first: (hypothesis, probability, mismatches)."""

    ranked: tuple[tuple[Hypothesis, float, int], ...]
    context: Context
    noise: float

    def consistent_rules(self) -> list[Rule]:
        """Hypotheses that agree with every verdict, most probable first."""
        return [h.rule for h, _, bad in self.ranked if bad == 0]

    def top(self, k: int = 5) -> list[tuple[Rule, float]]:
        return [(h.rule, p) for h, p, _ in self.ranked[:k]]

    @property
    def best(self) -> Rule:
        return self.ranked[0][0].rule

    def right_probabilities(self, context: Context | None = None) -> list[float]:
        """P(kind is right) for all 52 kinds in `context` (default: the next play's)."""
        context = context or self.context
        probs = [0.0] * 52
        for h, p, _ in self.ranked:
            for kind in mask_kinds(h.rule.mask(*context)):
                probs[kind] += p
        return [self.noise + (1 - 2 * self.noise) * q for q in probs]

    def best_play(self, hand: Iterable[int], context: Context | None = None) -> tuple[int, float]:
        """The kind in `hand` most likely right (the lowest kind among equals) and its chance."""
        probs = self.right_probabilities(context)
        kind = min(set(hand), key=lambda k: (-probs[k], k))
        return kind, probs[kind]

    def best_guess(self) -> tuple[Rule, float]:
        """The most probable rule and its posterior (an Express guess when it is high)."""
        h, p, _ = self.ranked[0]
        return h.rule, p

    def probability_right(self, card: int, context: Context | None = None) -> float:
        context = context or self.context
        q = sum(p for h, p, _ in self.ranked if h.rule.accepts(card, *context))
        return self.noise + (1 - 2 * self.noise) * q

    def probability_string_right(self, cards: Iterable[int], context: Context | None = None) -> float:
        cards = tuple(cards)
        q = sum(p for h, p, _ in self.ranked if string_right(h.rule, cards, context or self.context))
        return self.noise + (1 - 2 * self.noise) * q

    def probability_no_play_right(self, hand: Iterable[int], context: Context | None = None) -> float:
        """P(no card of `hand` is right): the chance a No Play would be judged correct."""
        context, hand_mask = context or self.context, kinds_mask(hand)
        q = sum(p for h, p, _ in self.ranked if not h.rule.mask(*context) & hand_mask)
        return self.noise + (1 - 2 * self.noise) * q


def analyse(evidence: Evidence, space: tuple[Hypothesis, ...] | None = None,
            noise: float = NOISE) -> Belief:
    """The posterior after `evidence`: prior × (1 - noise)^agreements × noise^mismatches."""
    facts = _fold(evidence)
    space = hypothesis_space() if space is None else space
    agree, disagree = math.log(1 - noise), math.log(noise)
    short = math.log(SHORT_MEMORY)
    scored = []
    for h in space:
        if h.rule.lookback > evidence.lookback:
            continue
        bad = mismatches(h.rule, facts)
        score = h.log_prior + bad * disagree + (facts.count - bad) * agree
        scored.append((score + (short if h.rule.lookback < evidence.lookback else 0.0), h, bad))
    if not scored:
        raise ValueError(f"no hypothesis fits a round with lookback {evidence.lookback}")
    top = max(s for s, _, _ in scored)
    total = sum(math.exp(s - top) for s, _, _ in scored)
    ranked = sorted(((h, math.exp(s - top) / total, bad) for s, h, bad in scored),
                    key=lambda item: -item[1])
    return Belief(tuple(ranked), evidence.next_context, noise)


def consistent_rules(evidence: Evidence, space: tuple[Hypothesis, ...] | None = None) -> list[Rule]:
    """The hypotheses that agree with every verdict in `evidence`, most probable first."""
    return analyse(evidence, space).consistent_rules()


def probability_right(card: int, context: Context, evidence: Evidence,
                      space: tuple[Hypothesis, ...] | None = None) -> float:
    """The posterior chance that `card` is right in `context`, given `evidence`."""
    return analyse(evidence, space).probability_right(card, context)
