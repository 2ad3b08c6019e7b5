"""New Eleusis engines (docs/rules/eleusis.md §8): a scientist that induces the secret rule, the
Prophet's calls, and a player God's commit from the bank.

Hidden information (design §2b, docs/rules/eleusis.md §2.2): every decision is built from
`state.view(seat)` for the seat to move and that seat's own `legal_moves()`; the engine never reads
`to_dict`, other hands, the stock or the rule. Induction is `games.new_eleusis.induction`: the
evidence of the whole round (mainline, sidelines with failed strings, No-Play displays) gives a
posterior over candidate rules, and the scientist picks the move with the best expected change of
its hand size (scores are `high - hand`, §4):

- one card: right sheds 1, wrong draws 2 (net +1); Express: wrong is net 0 (§5);
- a string of 2-4 cards (judged as if accepted in order, §3.1): right sheds L, wrong nets +L;
- No Play (§3.2): right sheds 4 (Express 1), wrong nets +4 (Express 0);
- in sudden death (§3.4) a wrong play expels instead, which costs the cards one could still shed;
- emptying the hand earns +4 (§4).

Declarations ride on a single card (§3): the Prophet (`; prophet if right`, strong level) when the
best rule is near certain, and in Express a `; guess <expr>` with the best rule when it is likely
(a wrong guess costs nothing, §5). As Prophet the engine calls each play by its probability.

Levels (Limit.nodes caps the enumerated candidate rules considered besides the bank):

| level  | candidate rules            | moves                                    | God's pick |
|--------|----------------------------|------------------------------------------|------------|
| random | -                          | uniform over legal moves                 | any        |
| easy   | bank + 40 simplest         | single cards                             | easy       |
| medium | bank + 400                 | + strings of 2-3, No Play                | medium     |
| strong | bank + all (~820)          | + strings of 4, Prophet, Express guesses | hard       |

Candidate rules are compiled lazily, simplest families first, once per process; a search stops
compiling when a share of its time is used, so the first search of a process keeps its budget.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random
from typing import Iterable, Mapping

from games import State
from games.new_eleusis import bank
from games.new_eleusis.cards import card_text, parse_card
from games.new_eleusis.moves import CommitRule, Judge, NoPlay, Play, parse_notation
from games.new_eleusis.induction import (
    Belief, Evidence, Hypothesis, analyse, build_space, enumerated_sources,
)
from games.new_eleusis.rulelang import Rule, RuleError, compile_rule

from .base import Budget, Engine, Limit, SearchResult
from .table import per_level, register_levels

SLUG = "new-eleusis"
GO_OUT = 4.0                # the +4 for an empty hand (docs/rules/eleusis.md §4)
EXPEL_COST = 3.0            # hand-size worth of the turns an expelled player loses (§3.4)
PROPHET_CONFIDENCE = 0.93   # posterior of the best rule needed to declare Prophet
PROPHET_CARD = 0.9          # and the chance the card carrying the declaration is right
PROPHET_MIN_HAND = 3        # a nearly empty hand is better played out than set aside
GUESS_CONFIDENCE = 0.5      # posterior of the best rule needed for an Express guess
MIN_STRING = 0.55           # a string is considered only when all-right is at least this likely
STRING_RULES = 64           # most probable rules followed through a string search
COMPILE_SHARE = 0.6         # share of the time budget that may go to compiling candidate rules


class HumanJudgmentError(ValueError):
    """The seat to move judges a free-text rule: only the person who wrote it can (§3)."""


# ---------------------------------------------------------------------------------------------
# Candidate rules, compiled lazily
# ---------------------------------------------------------------------------------------------
class HypothesisPool:
    """induction.py's hypothesis space built in source order (atoms and relations first), so a
    search can stop compiling when its time runs out. Priors follow `hypothesis_space`: the bank
    holds BANK_WEIGHT, the enumerated rules the rest by simplicity; equal verdict tables merge."""

    def __init__(self) -> None:
        self.sources = tuple(enumerated_sources())
        self._compiled: list[Rule | None] = []
        self._spaces: dict[int, tuple[Hypothesis, ...]] = {}

    @property
    def ready(self) -> int:
        """How many enumerated sources are compiled."""
        return len(self._compiled)

    def grow(self, count: int, deadline: float | None) -> int:
        """Compile up to `count` sources (stopping at `deadline`, on `Budget.clock`); the number now available."""
        count = min(count, len(self.sources))
        while len(self._compiled) < count:
            if deadline is not None and Budget.clock() >= deadline:
                break
            try:
                rule: Rule | None = compile_rule(self.sources[len(self._compiled)], cache=False)
            except RuleError:
                rule = None
            self._compiled.append(rule)
        return min(count, len(self._compiled))

    def space(self, count: int) -> tuple[Hypothesis, ...]:
        """The bank plus the first `count` compiled sources, most probable first."""
        if count not in self._spaces:
            if len(self._spaces) >= 4:
                self._spaces.clear()
            self._spaces[count] = build_space([r for r in self._compiled[:count] if r is not None])
        return self._spaces[count]


POOL = HypothesisPool()


# ---------------------------------------------------------------------------------------------
# Expected change of the hand size (lower is better; docs/rules/eleusis.md §3.1-§3.4, §5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Situation:
    """What the payoffs depend on: the own hand size, Express, and sudden death."""

    hand: int
    express: bool
    sudden: bool

    def cards(self, length: int, q: float) -> float:
        """Playing `length` cards that are all right with chance `q`."""
        bonus = GO_OUT if length == self.hand else 0.0
        if self.express:
            return -q * (1.0 + bonus)                       # wrong: the card out, one drawn
        if self.sudden:                                     # wrong: expelled, nothing drawn
            return -length - q * bonus + (1.0 - q) * min(self.hand - length, EXPEL_COST)
        return q * (-length - bonus) + (1.0 - q) * length

    def no_play(self, q: float) -> float:
        """A No Play that is correct with chance `q`."""
        shed = min(1 if self.express else 4, self.hand)
        bonus = GO_OUT if shed == self.hand else 0.0
        if self.express:
            return -q * (shed + bonus)                      # wrong: God places one, draw 1
        wrong = min(self.hand, EXPEL_COST) if self.sudden else 4.0
        return q * (-shed - bonus) + (1.0 - q) * wrong


def standing(view: Mapping, seat: int, hand: float) -> float:
    """A value in [-1, 1]: how the expected own hand compares with the other scientists'."""
    god = view.get("god")
    others = [size for s, size in enumerate(view["hand_sizes"]) if s != seat and s != god]
    if not others:
        return 0.0
    return sum(math.tanh((size - hand) / 4.0) for size in others) / len(others)


def leads_after_guess(view: Mapping, seat: int) -> bool:
    """Whether a right card with a correct Express guess (+4, the round ends, §5) would leave
    the seat strictly first; a guess that ends the round behind the leader is not worth making."""
    god = view.get("god")
    own = len(view.get("hand", ())) - 1 - GO_OUT
    others = [size for s, size in enumerate(view["hand_sizes"]) if s != seat and s != god]
    return not others or own < min(others)


# ---------------------------------------------------------------------------------------------
# Strings: a beam over the hand, following the most probable rules card by card (§3.1)
# ---------------------------------------------------------------------------------------------
def string_candidates(belief: Belief, hand: Iterable[int], max_len: int, beam: int,
                      budget: Budget) -> list[tuple[tuple[int, ...], float]]:
    """Strings of 2..max_len cards from `hand` with their chance of being right, the likeliest
    `beam` of each length; strings below MIN_STRING are left out."""
    counts: dict[int, int] = {}
    for kind in hand:
        counts[kind] = counts.get(kind, 0) + 1
    alive = [(h.rule, p, belief.context) for h, p, _ in belief.ranked[:STRING_RULES] if p > 1e-6]
    noise = belief.noise
    floor = (MIN_STRING - noise) / (1 - 2 * noise)
    frontier = [((), alive)]
    found: list[tuple[tuple[int, ...], float]] = []
    for depth in range(1, max_len + 1):
        children = []
        for prefix, rules in frontier:
            for kind in sorted(counts):
                if prefix.count(kind) >= counts[kind]:
                    continue
                survivors = _survivors(rules, kind)
                mass = sum(p for _, p, _ in survivors)
                if mass >= floor:
                    children.append((mass, prefix + (kind,), survivors))
        children.sort(key=lambda child: (-child[0], child[1]))
        frontier = [(prefix, rules) for _, prefix, rules in children[:beam]]
        if depth >= 2:
            found += [(prefix, noise + (1 - 2 * noise) * mass)
                      for mass, prefix, _ in children[:beam]]
        if not frontier or budget.out_of_time():
            break
    return found


def _survivors(rules: list, kind: int) -> list:
    out = []
    for rule, p, (prev, prev2, n) in rules:
        if rule.accepts(kind, prev, prev2 if rule.lookback == 2 else None, n):
            out.append((rule, p, (kind, prev, n + 1)))
    return out


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """What a level may do: its candidate-rule budget, moves, declarations and God's pick."""

    hypotheses: int            # enumerated candidate rules besides the bank
    max_string: int            # 1 = single cards only
    beam: int
    no_play: bool
    prophet: bool
    guess: bool
    god_difficulty: str


STYLES: Mapping[str, Style] = {
    "easy": Style(40, 1, 0, False, False, False, "easy"),
    "medium": Style(400, 3, 8, True, False, False, "medium"),
    "strong": Style(10 ** 6, 4, 16, True, True, True, "hard"),
}


class EleusisEngine(Engine):
    """A New Eleusis seat: scientist, Prophet or player God, from the own view only."""

    def __init__(self, level: str, default_limit: Limit, style: Style,
                 pool: HypothesisPool | None = None) -> None:
        super().__init__(level, default_limit)
        self.style = style
        self.pool = POOL if pool is None else pool

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        seat = state.current_player
        view = state.view(seat)
        phase = view["phase"]
        if phase == "commit":
            return self._commit(state.legal_moves(), rng)
        if phase == "call" and view.get("prophet") == seat:
            return self._call(view, state.legal_moves(), limit, budget)
        if phase == "turn":
            return self._turn(view, seat, state.legal_moves(), limit, budget)
        raise HumanJudgmentError(
            f"seat {seat} judges a free-text rule in the {phase} phase; only its author can")

    # -- God ------------------------------------------------------------------------------------
    def _commit(self, legal: list, rng: Random) -> SearchResult:
        """A bank rule of the level's difficulty (§3 commit); an expression rule needs nothing
        more from God, the server judges it."""
        wanted = {CommitRule(entry.canonical) for entry in bank.entries(self.style.god_difficulty)}
        choices = [m for m in legal if m in wanted] or list(legal)
        move = choices[rng.randrange(len(choices))]
        return SearchResult(move=move, value=0.0, pv=[move], nodes=len(choices))

    # -- induction ------------------------------------------------------------------------------
    def _belief(self, view: Mapping, limit: Limit, budget: Budget) -> Belief:
        count = self.style.hypotheses
        if limit.nodes is not None:
            count = min(count, limit.nodes)
        deadline = None
        if budget.deadline is not None:
            deadline = budget.start + COMPILE_SHARE * (budget.deadline - budget.start)
        count = self.pool.grow(count, deadline)
        space = self.pool.space(count)
        budget.nodes += len(space)
        return analyse(Evidence.from_view(view), space)

    # -- the Prophet ----------------------------------------------------------------------------
    def _call(self, view: Mapping, legal: list, limit: Limit, budget: Budget) -> SearchResult:
        """Call the pending play by its probability (§3.3): the call most likely true."""
        belief = self._belief(view, limit, budget)
        pending = view["pending"]
        play = parse_notation(pending["move"])
        if isinstance(play, NoPlay):
            shown = [parse_card(c) for c in pending.get("shown", ())]
            probs = belief.right_probabilities()
            options = [(belief.probability_no_play_right(shown), Judge(True))]
            options += [(probs[k], Judge(False, k)) for k in sorted(set(shown))]
        else:
            if len(play.cards) == 1:
                q = belief.probability_right(play.cards[0])
            else:
                q = belief.probability_string_right(play.cards)
            options = [(q, Judge(True)), (1.0 - q, Judge(False))]
        options = [(p, m) for p, m in options if m in legal] or [(0.5, legal[0])]
        chance, move = max(options, key=lambda option: option[0])
        return SearchResult(move=move, value=2.0 * chance - 1.0, pv=[move], nodes=budget.nodes)

    # -- a scientist's turn ---------------------------------------------------------------------
    def _turn(self, view: Mapping, seat: int, legal: list, limit: Limit,
              budget: Budget) -> SearchResult:
        hand = sorted(parse_card(c) for c in view.get("hand", ()))
        express = bool(view["options"]["express"])
        sudden = bool(view["sudden_death"] and view["sudden_death"]["active"])
        where = Situation(len(hand), express, sudden)
        belief = self._belief(view, limit, budget)
        probs = belief.right_probabilities()
        options: list[tuple[float, int, object, float]] = []     # (ev, order, move, chance)
        for kind in sorted(set(hand)):
            options.append((where.cards(1, probs[kind]), 0, Play((kind,)), probs[kind]))
        if self.style.max_string > 1 and not express and not budget.out_of_time():
            for cards, q in string_candidates(belief, hand, self.style.max_string,
                                              self.style.beam, budget):
                options.append((where.cards(len(cards), q), 1, Play(cards), q))
        if self.style.no_play or not options:
            q = belief.probability_no_play_right(hand)
            options.append((where.no_play(q), 2, NoPlay(), q))
        ev, _, move, chance = min(options, key=lambda option: option[:2])
        move = self._declare(view, seat, legal, belief, move, chance, express)
        value = standing(view, seat, len(hand) + ev)
        return SearchResult(move=move, value=value, pv=[move], nodes=budget.nodes)

    def _declare(self, view: Mapping, seat: int, legal: list, belief: Belief, move,
                 chance: float, express: bool):
        """Add a declaration to a single card when the level allows it and it is worth it."""
        if not isinstance(move, Play) or len(move.cards) != 1:
            return move
        rule, posterior = belief.best_guess()
        if (express and self.style.guess and posterior >= GUESS_CONFIDENCE
                and leads_after_guess(view, seat)):
            try:
                guessed = parse_notation(f"play {card_text(move.cards[0])}; guess {rule.canonical}")
            except ValueError:
                return move
            return guessed
        if (self.style.prophet and not express and posterior >= PROPHET_CONFIDENCE
                and chance >= PROPHET_CARD and len(view.get("hand", ())) >= PROPHET_MIN_HAND
                and view.get("prophet") is None):
            declared = Play(move.cards, "prophet if right")
            if declared in legal:
                return declared
        return move


register_levels(SLUG, per_level(lambda level, limit: EleusisEngine(level, limit, STYLES[level])))
