"""Verdict tables (docs/rules/eleusis.md §2.1 steps 2-5, §5, §8): what a checked rule accepts, context
by context.

A rule is reduced to one 52-bit mask of accepted kinds per context (prev, prev2, n-class), so
judging a card is a table lookup. An Express guess is checked but not tabulated: its verdicts are
computed per context when it is compared with the rule, which stops at the first difference.
`Rule` and `Guess` share one base, `Verdicts`, for everything but where a mask comes from.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any, Callable, Iterable, Iterator

from ..cards import FULL_MASK, card_text
from .compiler import CONST, CTX, CUR, MISS, CaseMiss, Checked, Staged, check, evaluate
from .syntax import RuleError, parse_ast, to_ast

WARN_LOW, WARN_HIGH = Fraction(15, 100), Fraction(60, 100)

Context = tuple[int, "int | None", int]     # (prev, prev2 or None, n)


def contexts(lookback: int, n_values: Iterable[int]) -> Iterator[Context]:
    """Every (prev, prev2, n) over `n_values`, n outermost; prev2 is None unless `lookback` is 2."""
    prevs2 = range(52) if lookback == 2 else (None,)
    for n in n_values:
        for prev2 in prevs2:
            for prev in range(52):
                yield prev, prev2, n


def context_text(prev: int, prev2: int | None, n: int, uses_n: bool) -> str:
    parts = [f"prev = {card_text(prev)}"]
    if prev2 is not None:
        parts.append(f"prev2 = {card_text(prev2)}")
    if uses_n:
        parts.append(f"n = {n}")
    return ", ".join(parts)


class Verdicts(ABC):
    """What a rule and a guess share: their contexts, verdicts and comparison.

    Positions n run from lookback + 1; beyond `n_base` the verdicts repeat with period `n_period`
    (§2.1 step 2). A subclass says where masks come from (`mask`, `fail_mask`) and whether the
    expression is total and live (`_facts`).
    """

    __slots__ = ()
    canonical: str
    lookback: int
    n_base: int
    n_period: int
    uses_n: bool
    ast_json: str

    def __str__(self) -> str:
        return self.canonical

    @property
    def ast(self) -> dict:
        return json.loads(self.ast_json)

    @property
    def n_values(self) -> range:
        """The positions N of §2.1 step 2: one per n-class."""
        return range(self.lookback + 1, self.n_base + self.n_period + 1)

    def contexts(self, n_values: Iterable[int] | None = None) -> Iterator[Context]:
        """Every (prev, prev2, n) context over `n_values` (default: this expression's N)."""
        return contexts(self.lookback, self.n_values if n_values is None else n_values)

    @abstractmethod
    def mask(self, prev: int, prev2: int | None, n: int) -> int:
        """The 52-bit set of kinds accepted after `prev2`, `prev` at position `n`."""

    @abstractmethod
    def fail_mask(self, prev: int, prev2: int | None, n: int) -> int:
        """Kinds on which the expression has no value (a guess's `case` without `else`)."""

    def accepts(self, cur: int, prev: int, prev2: int | None, n: int) -> bool:
        return bool(self.mask(prev, prev2, n) >> cur & 1)

    def equivalent(self, other: Verdicts) -> bool:
        """Same verdict for all 52 kinds in every context over a common N (§5 Express guess):
        L and T the larger of both, P the lcm of both periods."""
        lookback = max(self.lookback, other.lookback)
        ns = range(lookback + 1, max(self.n_base, other.n_base)
                   + lcm(self.n_period, other.n_period) + 1)
        for prev, prev2, n in contexts(lookback, ns):
            if (self.mask(prev, prev2, n) != other.mask(prev, prev2, n)
                    or self.fail_mask(prev, prev2, n) or other.fail_mask(prev, prev2, n)):
                return False
        return True

    @abstractmethod
    def _facts(self) -> tuple[bool, bool]:
        """(total, live): a value in every context, and some card right in every context."""

    @property
    def is_total(self) -> bool:
        return self._facts()[0]

    @property
    def is_live(self) -> bool:
        return self._facts()[1]


@dataclass(frozen=True)
class Rule(Verdicts):
    """A checked rule and its verdict table; equal when canonically equal."""

    canonical: str
    lookback: int = field(compare=False)
    n_base: int = field(compare=False)
    n_period: int = field(compare=False)
    uses_n: bool = field(compare=False)
    nodes: int = field(compare=False)
    ast_json: str = field(compare=False, repr=False)
    table: tuple = field(compare=False, repr=False)
    fail_table: tuple | None = field(compare=False, repr=False)
    not_total: str | None = field(compare=False, repr=False)
    not_live: str | None = field(compare=False, repr=False)

    __str__ = Verdicts.__str__

    def n_index(self, n: int) -> int:
        first = self.lookback + 1
        if n < first:
            raise ValueError(f"position n={n} comes before the first play (n >= {first})")
        if n <= self.n_base:
            return n - first
        return self.n_base - first + 1 + (n - self.n_base - 1) % self.n_period

    def _index(self, prev: int, prev2: int | None, n: int) -> int:
        i = self.n_index(n) if self.uses_n else 0
        if self.lookback == 2:
            i = i * 52 + prev2
        return i * 52 + prev

    def mask(self, prev: int, prev2: int | None, n: int) -> int:
        return self.table[self._index(prev, prev2, n)]

    def fail_mask(self, prev: int, prev2: int | None, n: int) -> int:
        return 0 if self.fail_table is None else self.fail_table[self._index(prev, prev2, n)]

    def _facts(self) -> tuple[bool, bool]:
        return self.not_total is None, self.not_live is None

    @property
    def acceptance(self) -> Fraction:
        return Fraction(sum(m.bit_count() for m in self.table), 52 * len(self.table))

    @property
    def report(self) -> dict:
        """§2.1 step 5: shown to the rule's author only."""
        rate = self.acceptance
        counts = [m.bit_count() for m in self.table]
        pct = round(float(rate) * 100, 1)
        warning = None
        if rate < WARN_LOW or rate > WARN_HIGH:
            warning = f"acceptance {pct}% is outside 15-60%"
        return {"lookback": self.lookback, "acceptance_num": rate.numerator,
                "acceptance_den": rate.denominator, "acceptance_pct": pct,
                "min_accepted": min(counts), "max_accepted": max(counts), "nodes": self.nodes,
                "warning": warning}


class Guess(Verdicts):
    """An Express guess (§5): checked (steps 1-2) but not tabulated; its masks are computed per
    context on demand."""

    __slots__ = ("canonical", "lookback", "n_base", "n_period", "uses_n", "nodes", "ast_json",
                 "_masks", "_scanned")

    def __init__(self, checked: Checked):
        self.canonical, self.lookback, self.nodes = checked.canonical, checked.lookback, checked.nodes
        self.uses_n, self.n_base, self.n_period = checked.uses_n, checked.n_base, checked.n_period
        self.ast_json = checked.ast_json
        self._masks = root_masks(checked.staged)
        self._scanned: tuple[bool, bool] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Guess) and other.canonical == self.canonical

    def __hash__(self) -> int:
        return hash(("guess", self.canonical))

    def __repr__(self) -> str:
        return f"Guess({self.canonical!r})"

    def mask(self, prev: int, prev2: int | None, n: int) -> int:
        return self._masks(prev, prev2 if self.lookback == 2 else None, n)[0]

    def fail_mask(self, prev: int, prev2: int | None, n: int) -> int:
        return self._masks(prev, prev2 if self.lookback == 2 else None, n)[1]

    def _facts(self) -> tuple[bool, bool]:
        if self._scanned is None:
            total = live = True
            for context in self.contexts():
                accepted, failed = self._masks(*context)
                total, live = total and not failed, live and bool(accepted)
            self._scanned = (total, live)
        return self._scanned


# ---------------------------------------------------------------------------------------------
# Building a table
# ---------------------------------------------------------------------------------------------
def root_masks(staged: Staged) -> Callable:
    """f(prev, prev2, n) -> (accepted mask, failed mask) for a compiled Bool rule."""
    stage, value = staged

    def masks_of(column):
        accepted = failed = 0
        for kind, v in enumerate(column):
            if v is MISS:
                failed |= 1 << kind
            elif v:
                accepted |= 1 << kind
        return accepted, failed
    if stage in (CONST, CUR):
        fixed = masks_of(value if stage == CUR else (value,) * 52)
        return lambda p, q, n: fixed
    if stage == CTX:
        by_value = {True: (FULL_MASK, 0), False: (0, 0), MISS: (0, FULL_MASK)}
        return lambda p, q, n: by_value[value(p, q, n)]
    memo: dict = {}
    frontier = value.frontier

    def mixed(p, q, n):
        key = tuple([g(p, q, n) for g in frontier])
        result = memo.get(key)
        if result is None:
            result = memo[key] = masks_of(value(p, q, n))
        return result
    return mixed


def _explain_miss(ast: dict, failed: int, context: Context, uses_n: bool) -> str:
    cur = (failed & -failed).bit_length() - 1
    where = f"cur = {card_text(cur)}, {context_text(*context, uses_n)}"
    try:
        evaluate(ast, cur, *context)
    except CaseMiss as miss:
        return f"{miss} ({where})"
    return f"the rule has no value for {where}"


def _build(checked: Checked) -> Rule:
    """§2.1 steps 2-4: the verdict table over every context, with totality and liveness facts."""
    lookback, n_values = checked.lookback, range(checked.lookback + 1,
                                                 checked.n_base + checked.n_period + 1)
    masks = root_masks(checked.staged)
    table, fails = [], []
    blocks: dict[tuple, list] = {}
    for n in n_values:
        # positions whose n-parts agree share one block of contexts: compute it once
        signature = tuple(f(0, None, n) for f in checked.n_parts)
        block = blocks.get(signature)
        if block is None:
            block = blocks[signature] = [masks(p, q, n) for p, q, n in contexts(lookback, (n,))]
        table.extend([accepted for accepted, _ in block])
        fails.extend([failed for _, failed in block])
    not_total = not_live = None
    if any(fails) or not all(table):
        not_total, not_live = _faults(checked, contexts(lookback, n_values), table, fails)
    return Rule(checked.canonical, lookback, checked.n_base, checked.n_period, checked.uses_n,
                checked.nodes, checked.ast_json, tuple(table),
                tuple(fails) if any(fails) else None, not_total, not_live)


def _faults(checked: Checked, every: Iterator[Context], table: list[int],
            fails: list[int]) -> tuple[str | None, str | None]:
    """Why a table is not total (its first context without a value) and not live (its contexts
    where no card is right, the first four named); None for what it is."""
    not_total, examples = None, []
    for context, accepted, failed in zip(every, table, fails):
        if failed and not_total is None:
            not_total = _explain_miss(checked.ast, failed, context, checked.uses_n)
        if not accepted and len(examples) < 4:
            examples.append(context_text(*context, checked.uses_n))
    dead = table.count(0)
    if not dead:
        return not_total, None
    return not_total, (f"no card is right in {dead} of {len(table)} contexts "
                       f"({'; '.join(examples)}{'; ...' if dead > 4 else ''})")


@lru_cache(maxsize=512)
def verdict_table(canonical: str) -> Rule:
    """The full table of a checked canonical text, total and live or not (cached)."""
    return _build(check(parse_ast(canonical)))


def compile_rule(source: Any, cache: bool = True) -> Rule:
    """Rule text or JSON AST → a validated Rule (§2.1 steps 1-4); RuleError naming the reason.

    Rules are cached by canonical text; `cache=False` builds afresh and leaves the cache alone
    (for callers that compile many throw-away rules, such as a hypothesis space)."""
    canonical = check(to_ast(source)).canonical
    rule = verdict_table(canonical) if cache else _build(check(parse_ast(canonical)))
    if rule.not_total:
        raise RuleError(f"not total: {rule.not_total}")
    if rule.not_live:
        raise RuleError(f"not live: {rule.not_live}")
    return rule


def parse_guess(source: Any, lookback: int) -> Guess:
    """An Express guess: steps 1-2 with lookback <= the round's L; need not be total or live."""
    checked = check(to_ast(source))
    if checked.lookback > lookback:
        raise RuleError(f"the guess uses prev2 (lookback 2) but the round has lookback {lookback}")
    return Guess(checked)
