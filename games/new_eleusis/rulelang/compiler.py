"""Rule-language compiler (docs/rules/eleusis.md §2.1 steps 1-2, §8, §9): type check, limits on `n`,
and staged closures (never `eval`), plus the reference evaluator the staged code is tested against.

`check(ast)` yields a `Checked` rule: canonical text, lookback L, the n-limit T and period P, and
the compiled root. `tables.py` turns that root into verdict masks.
"""
from __future__ import annotations

import json
import operator
from dataclasses import dataclass, field
from math import lcm
from typing import Any, Callable, Iterable

from ..cards import is_red, rank_of
from .syntax import (
    ARITHMETIC, COMPARISONS, FUNCTIONS, LITERAL_OPS, MAX_NODES, N_RULE, SCRUTINEE_TYPES,
    TYPE_OF_LITERAL, RuleError, count_nodes, literal_value, print_ast, print_literal,
    show_value, to_ast, with_article,
)

MAX_PERIOD = 60

_RANK = tuple(rank_of(k) for k in range(52))
_SUIT = tuple(k % 4 for k in range(52))
_COLOR = tuple(1 if is_red(k) else 0 for k in range(52))
_FACE = tuple(r > 10 for r in _RANK)
_ODD = tuple(r % 2 == 1 for r in _RANK)
_EVEN = tuple(r % 2 == 0 for r in _RANK)
_NEXT_SUIT = (1, 2, 3, 0)                       # S→H→D→C→S, the seed's cycle


def _is_prime(x: int) -> bool:
    if x < 2:
        return False
    d = 2
    while d * d <= x:
        if x % d == 0:
            return False
        d += 1
    return True


_PRIME_CARD = tuple(_is_prime(r) for r in _RANK)

# ---------------------------------------------------------------------------------------------
# Type checker and compiler. A compiled node is staged by what it depends on, so that a verdict
# table costs a few dictionary look-ups per context instead of 52 evaluations (§8):
#   CONST  a value;   CUR  a 52-tuple over cur (computed once);
#   CTX    f(prev, prev2, n) -> a value;   MIX  f(prev, prev2, n) -> a 52-tuple, memoized on the
#   values of its varying children. MISS marks "no value": a `case` without `else` met a value none
#   of its arms names. It propagates exactly as sequential evaluation would raise: strict
#   operators pass it on, while `and`, `or`, `if` and `case` only look at the branch they choose
#   (§9: short-circuit, left to right), so a MISS in a branch not taken does no harm.
# ---------------------------------------------------------------------------------------------
CONST, CUR, CTX, MIX = "const", "cur", "ctx", "mix"
MISS = type("Miss", (), {"__repr__": lambda self: "MISS", "__slots__": ()})()
Staged = tuple  # (stage, value or tuple or function)


def _strict(f: Callable) -> Callable:
    """An elementwise function that yields MISS when an operand is MISS."""
    def el(*values):
        for v in values:
            if v is MISS:
                return MISS
        return f(*values)
    return el


def _stage(el: Callable, kids: list[Staged]) -> Staged:
    """Combine staged children with the elementwise function `el`."""
    stages = {stage for stage, _ in kids}
    if stages <= {CONST}:
        return CONST, el(*(v for _, v in kids))
    if stages <= {CONST, CUR}:
        cols = [v if stage == CUR else (v,) * 52 for stage, v in kids]
        return CUR, tuple(el(*row) for row in zip(*cols))
    if stages <= {CONST, CTX}:
        return _scalar(el, kids)
    f = _mixed(el, kids)
    # the CTX values a MIX node depends on: the verdict table memoizes the whole rule on them
    f.frontier = tuple(g for stage, v in kids if stage in (CTX, MIX)
                       for g in (v.frontier if stage == MIX else (v,)))
    return MIX, f


def _ctx(f: Callable, deps: Iterable[str]) -> Staged:
    """A CTX stage; `deps` ⊆ {"prev", "prev2", "n"} names what the function reads."""
    f.deps = frozenset(deps)
    return CTX, f


def _scalar(el: Callable, kids: list[Staged]) -> Staged:
    deps = frozenset().union(*(v.deps for stage, v in kids if stage == CTX))
    if len(kids) == 1:
        f = kids[0][1]
        return _ctx(lambda p, q, n: el(f(p, q, n)), deps)
    if len(kids) == 2 and kids[0][0] == CTX and kids[1][0] == CONST:
        f, v = kids[0][1], kids[1][1]
        return _ctx(lambda p, q, n: el(f(p, q, n), v), deps)
    parts = [(stage == CTX, v) for stage, v in kids]
    return _ctx(lambda p, q, n: el(*[v(p, q, n) if call else v for call, v in parts]), deps)


def _mixed(el: Callable, kids: list[Staged]) -> Callable:
    memo: dict = {}
    varying = [i for i, (stage, _) in enumerate(kids) if stage in (CTX, MIX)]
    kinds = [stage for stage, _ in kids]
    if len(varying) == 1:
        return _mixed_one(el, kids, varying[0])

    def f(p, q, n):
        outs = [v(p, q, n) if kinds[i] in (CTX, MIX) else v for i, (_, v) in enumerate(kids)]
        # a MIX output is a tuple held in its child's memo, so its id names it for good
        key = tuple(id(outs[i]) if kinds[i] == MIX else outs[i] for i in varying)
        result = memo.get(key)
        if result is None:
            cols = [o if kinds[i] in (CUR, MIX) else (o,) * 52 for i, o in enumerate(outs)]
            result = memo[key] = tuple(el(*row) for row in zip(*cols))
        return result
    return f


def _mixed_one(el: Callable, kids: list[Staged], i: int) -> Callable:
    """A MIX node with one varying child: memoized on that child's output alone."""
    memo: dict = {}
    stage, g = kids[i]

    def compute(out):
        cols = [out if j == i and stage == MIX else (out,) * 52 if j == i
                else v if s == CUR else (v,) * 52 for j, (s, v) in enumerate(kids)]
        return tuple(el(*row) for row in zip(*cols))

    if stage == CTX:
        def f(p, q, n):
            out = g(p, q, n)
            result = memo.get(out)
            if result is None:
                result = memo[out] = compute(out)
            return result
    else:
        def f(p, q, n):
            out = g(p, q, n)
            result = memo.get(id(out))
            if result is None:
                result = memo[id(out)] = compute(out)
            return result
    return f


def _and_el(*values):
    for v in values:
        if v is MISS or not v:
            return v
    return True


def _or_el(*values):
    for v in values:
        if v is MISS or v:
            return v
    return False


def _if_el(c, t, e):
    if c is MISS:
        return MISS
    return t if c else e


def _case_el(index: dict, has_default: bool) -> Callable:
    def el(s, *values):
        if s is MISS:
            return MISS
        i = index.get(s)
        if i is None:
            return values[-1] if has_default else MISS
        return values[i]
    return el


_ORDER = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge, "+": operator.add, "-": operator.sub}
_CARD_FN = {"rank": (_RANK, "Int"), "suit": (_SUIT, "Suit"), "color": (_COLOR, "Color"),
            "face": (_FACE, "Bool"), "odd": (_ODD, "Bool"), "even": (_EVEN, "Bool"),
            "prime": (_PRIME_CARD, "Bool")}
_INT_FN = {"odd": lambda x: x & 1 == 1, "even": lambda x: x & 1 == 0, "prime": _is_prime}
_WANTS = {"rank": "Card", "suit": "Card", "color": "Card", "face": "Card", "next_suit": "Suit",
          "abs": "Int", "mod": "Int", "odd": "Int or Card", "even": "Int or Card",
          "prime": "Int or Card"}
_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_VAR_STAGE = {"cur": (CUR, tuple(range(52))), "prev": _ctx(lambda p, q, n: p, ["prev"]),
              "prev2": _ctx(lambda p, q, n: q, ["prev2"]), "n": _ctx(lambda p, q, n: n, ["n"])}


def _reads_only_n(staged: Staged) -> bool:
    return staged[0] == CTX and staged[1].deps == {"n"}


def _is_var_n(node: dict) -> bool:
    return node["op"] == "var" and node["name"] == "n"


class _Checker:
    """Type-checks a tree and compiles it; records what step 2 of §2.1 needs (L, T, P)."""

    def __init__(self):
        self.uses_prev2 = False
        self.uses_n = False
        self.n_limit = 0            # T: the largest literal compared with n
        self.n_moduli: set[int] = set()
        self.n_parts: list[Callable] = []   # the largest sub-expressions that read only n

    def stage(self, el: Callable, kids: list[Staged]) -> Staged:
        staged = _stage(el, kids)
        if not _reads_only_n(staged):
            self.n_parts.extend(kid[1] for kid in kids if _reads_only_n(kid))
        return staged

    def run(self, node: dict) -> tuple[str, Staged]:
        op = node["op"]
        if op in LITERAL_OPS:
            return TYPE_OF_LITERAL[op], (CONST, literal_value(node))
        if op == "var":
            if node["name"] == "n":
                raise RuleError(f"use of n: {N_RULE}")
            self.uses_prev2 |= node["name"] == "prev2"
            return "Card", _VAR_STAGE[node["name"]]
        handler = {"call": self.call, "and": self.logic, "or": self.logic, "not": self.logic,
                   "in": self.member, "if": self.branch, "case": self.case}.get(op, self.binary)
        return handler(node)

    def call(self, node: dict) -> tuple[str, Staged]:
        fn, args = node["fn"], node["args"]
        if len(args) != FUNCTIONS[fn]:
            raise RuleError(f"type error: {fn} takes {FUNCTIONS[fn]} argument"
                            f"{'s' if FUNCTIONS[fn] > 1 else ''}, not {len(args)}")
        if fn in ("mod", "odd", "even") and _is_var_n(args[0]):
            return self.n_call(fn, args)
        typ, kid = self.run(args[0])
        if typ == "Card" and fn in _CARD_FN:
            table, out = _CARD_FN[fn]
            return out, self.stage(_strict(table.__getitem__), [kid])
        if typ == "Int" and fn in _INT_FN:
            return "Bool", self.stage(_strict(_INT_FN[fn]), [kid])
        if typ != _WANTS[fn]:
            raise RuleError(f"type error: {fn} needs {with_article(_WANTS[fn])}, "
                            f"not {with_article(typ)}")
        if fn == "next_suit":
            return "Suit", self.stage(_strict(_NEXT_SUIT.__getitem__), [kid])
        if fn == "abs":
            return "Int", self.stage(_strict(abs), [kid])
        k = self.modulus(args[1])
        return "Int", self.stage(_strict(lambda x: x % k), [kid])

    def modulus(self, node: dict) -> int:
        if node["op"] != "int" or not 2 <= node["value"] <= 13:
            raise RuleError(f"mod needs an integer literal 2..13 as its second argument (k), "
                            f"not {print_ast(node)}")
        return node["value"]

    def n_call(self, fn: str, args: list[dict]) -> tuple[str, Staged]:
        self.uses_n = True
        if fn == "mod":
            k = self.modulus(args[1])
            self.n_moduli.add(k)
            return "Int", _ctx(lambda p, q, n: n % k, ["n"])
        self.n_moduli.add(2)
        parity = 1 if fn == "odd" else 0
        return "Bool", _ctx(lambda p, q, n: n & 1 == parity, ["n"])

    def binary(self, node: dict) -> tuple[str, Staged]:
        op, (a, b) = node["op"], node["args"]
        if op in COMPARISONS and (_is_var_n(a) or _is_var_n(b)):
            return self.n_compare(op, a, b)
        (ta, ka), (tb, kb) = self.run(a), self.run(b)
        if op in ARITHMETIC or op in ("<", "<=", ">", ">="):
            if ta != "Int" or tb != "Int":
                raise RuleError(f"type error: {op} works on Ints only, not {ta} {op} {tb}")
        elif ta != tb:
            raise RuleError(f"type error: {op} compares values of one type, not {ta} with {tb}")
        return "Int" if op in ARITHMETIC else "Bool", self.stage(_strict(_ORDER[op]), [ka, kb])

    def n_compare(self, op: str, a: dict, b: dict) -> tuple[str, Staged]:
        other = b if _is_var_n(a) else a
        if other["op"] != "int":
            raise RuleError(f"use of n: {N_RULE}")
        self.uses_n = True
        self.n_limit = max(self.n_limit, other["value"])
        compare, v = _ORDER[op if other is b else _MIRROR[op]], other["value"]
        return "Bool", _ctx(lambda p, q, n: compare(n, v), ["n"])

    def logic(self, node: dict) -> tuple[str, Staged]:
        op = node["op"]
        kids = []
        for arg in node["args"]:
            typ, kid = self.run(arg)
            if typ != "Bool":
                raise RuleError(f"type error: {op} needs Bool operands, not {typ}")
            kids.append(kid)
        el = {"and": _and_el, "or": _or_el, "not": _strict(operator.not_)}[op]
        return "Bool", self.stage(el, kids)

    def member(self, node: dict) -> tuple[str, Staged]:
        if _is_var_n(node["args"][0]):
            raise RuleError(f"use of n: {N_RULE} (not n in {{...}})")
        typ, kid = self.run(node["args"][0])
        values = self.literal_values(typ, node["set"], "in")
        return "Bool", self.stage(_strict(values.__contains__), [kid])

    def literal_values(self, typ: str, lits: list[dict], what: str) -> frozenset:
        if typ not in SCRUTINEE_TYPES:
            raise RuleError(f"type error: {what} needs an Int, Suit, Color or Bool, "
                            f"not {with_article(typ)}")
        seen = []
        for lit in lits:
            if TYPE_OF_LITERAL[lit["op"]] != typ:
                raise RuleError(f"type error: {what} on {with_article(typ)} lists "
                                f"{print_literal(lit)}, "
                                f"{with_article(TYPE_OF_LITERAL[lit['op']])}")
            value = literal_value(lit)
            if value in seen:
                raise RuleError(f"duplicate literal {print_literal(lit)} in {what}")
            seen.append(value)
        return frozenset(seen)

    def branch(self, node: dict) -> tuple[str, Staged]:
        (tc, kc), (tt, kt), (te, ke) = (self.run(a) for a in node["args"])
        if tc != "Bool":
            raise RuleError(f"type error: an if condition must be Bool, not {tc}")
        if tt != te:
            raise RuleError(f"type error: if branches must have one type, not {tt} and {te}")
        return tt, self.stage(_if_el, [kc, kt, ke])

    def case(self, node: dict) -> tuple[str, Staged]:
        scrutinee = node["args"][0]
        if _is_var_n(scrutinee):
            raise RuleError(f"use of n: {N_RULE} (not case n of)")
        typ, ks = self.run(scrutinee)
        self.literal_values(typ, [lit for lit, _ in node["arms"]], "case")
        branches = [expr for _, expr in node["arms"]]
        if node["else"] is not None:
            branches.append(node["else"])
        typed = [self.run(expr) for expr in branches]
        types = {t for t, _ in typed}
        if len(types) > 1:
            raise RuleError(f"type error: case branches must have one type, not "
                            f"{' and '.join(sorted(types))}")
        index = {literal_value(lit): i for i, (lit, _) in enumerate(node["arms"])}
        el = _case_el(index, node["else"] is not None)
        return types.pop(), self.stage(el, [ks] + [kid for _, kid in typed])


# -- the reference evaluator: one card in one context, straight from the tree (used to explain a
#    failure, and by tests as the oracle for the staged compiler) -----------------------------------
class CaseMiss(Exception):
    """A `case` without `else` met a value none of its arms names."""

    def __init__(self, node: dict, value: Any):
        self.scrutinee = print_ast(node["args"][0])
        self.value = show_value(_Checker().run(node["args"][0])[0], value)
        super().__init__(f"case {self.scrutinee} has no arm for {self.value}")


def evaluate(node: dict, cur: int, prev: int, prev2: int | None, n: int) -> Any:
    """Evaluate a checked AST for one card; CaseMiss when it has no value there."""
    op, args = node["op"], node.get("args", ())
    ev = lambda x: evaluate(x, cur, prev, prev2, n)    # noqa: E731
    if op in LITERAL_OPS:
        return literal_value(node)
    if op == "var":
        return {"cur": cur, "prev": prev, "prev2": prev2, "n": n}[node["name"]]
    if op == "call":
        return _call_value(node, ev)
    if op in _ORDER:
        return _ORDER[op](ev(args[0]), ev(args[1]))
    if op == "and":
        return all(ev(a) for a in args)
    if op == "or":
        return any(ev(a) for a in args)
    if op == "not":
        return not ev(args[0])
    if op == "in":
        return ev(args[0]) in {literal_value(lit) for lit in node["set"]}
    if op == "if":
        return ev(args[1]) if ev(args[0]) else ev(args[2])
    value = ev(args[0])
    for lit, expr in node["arms"]:
        if literal_value(lit) == value:
            return ev(expr)
    if node["else"] is None:
        raise CaseMiss(node, value)
    return ev(node["else"])


def _call_value(node: dict, ev: Callable) -> Any:
    fn, args = node["fn"], node["args"]
    x = ev(args[0])
    if fn == "mod":
        return x % args[1]["value"]
    if fn == "next_suit":
        return _NEXT_SUIT[x]
    if fn == "abs":
        return abs(x)
    if _is_card_valued(args[0]):
        return _CARD_FN[fn][0][x]
    return _INT_FN[fn](x)


def _is_card_valued(node: dict) -> bool:
    """Whether a checked expression has type Card (only vars and if/case over them do)."""
    op = node["op"]
    if op == "var":
        return node["name"] != "n"
    if op == "if":
        return _is_card_valued(node["args"][1])
    if op == "case":
        return _is_card_valued(node["arms"][0][1])
    return False


# ---------------------------------------------------------------------------------------------
# Checking a whole rule (§2.1 steps 1-2)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Checked:
    """A rule or guess that passed steps 1-2: its compiled root and the facts of its contexts."""

    canonical: str
    ast: dict = field(compare=False)
    staged: Staged = field(compare=False)
    lookback: int
    n_limit: int
    period: int
    uses_n: bool
    nodes: int
    n_parts: tuple = field(compare=False)

    @property
    def n_base(self) -> int:
        """Past this position the verdicts repeat with `n_period`."""
        return max(self.n_limit, self.lookback) if self.uses_n else self.lookback

    @property
    def n_period(self) -> int:
        return self.period if self.uses_n else 1

    @property
    def ast_json(self) -> str:
        return json.dumps(self.ast, separators=(",", ":"))


def check(ast: dict) -> Checked:
    """§2.1 steps 1-2: limits, type check (Bool), contexts (L, T, P <= 60)."""
    nodes = count_nodes(ast)
    if nodes > MAX_NODES:
        raise RuleError(f"too large: {nodes} nodes (at most {MAX_NODES})")
    checker = _Checker()
    typ, staged = checker.run(ast)
    if typ != "Bool":
        raise RuleError(f"type error: a rule must be Bool, not {with_article(typ)}")
    period = lcm(*checker.n_moduli) if checker.n_moduli else 1
    if period > MAX_PERIOD:
        raise RuleError(f"n period too long: the moduli applied to n have lcm {period} "
                        f"(at most {MAX_PERIOD})")
    n_parts = (staged[1],) if _reads_only_n(staged) else tuple(checker.n_parts)
    return Checked(print_ast(ast), ast, staged, 2 if checker.uses_prev2 else 1, checker.n_limit,
                   period, checker.uses_n, nodes, n_parts)


def check_expression(source: Any) -> tuple[str, int]:
    """Steps 1-2 only, cheaply: (canonical text, lookback). RuleError on failure."""
    checked = check(to_ast(source))
    return checked.canonical, checked.lookback
