"""The New Eleusis rule language (docs/rules/eleusis.md §2.1, §8, §9).

A rule is a Boolean expression judging the card `cur` against `prev`, `prev2` and the position `n`.
Text goes through a lexer and a recursive-descent parser to the JSON AST of §2.1 (plain dicts); a
JSON AST given as an object goes through a codec that checks every node's shape. Both then meet one
checker that type-checks the tree, enforces the limits on `n` and compiles it to closures (never
`eval`), staged by what they read so that whole columns of 52 cards are computed at once. A rule is
reduced to a verdict table: one 52-bit mask of accepted kinds per context (prev, prev2, n-class), so
judging a card is a table lookup (§8). An Express guess is checked but not tabulated: its verdicts
are computed per context when it is compared with the rule, which stops at the first difference.

    rule = compile_rule("color(cur) != color(prev)")
    rule.canonical, rule.lookback, rule.report
    rule.accepts(cur, prev, prev2, n); rule.mask(prev, prev2, n)
    guess = parse_guess("suit(cur) != suit(prev)", lookback=1); guess.equivalent(rule)
"""
from __future__ import annotations

import json
import operator
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any, Callable, Iterable, Iterator

from .cards import FULL_MASK, SUITS, card_text, is_red, rank_of

MAX_CHARS = 500
MAX_NODES = 100
MAX_DEPTH = 40              # nesting of expressions in text; bounds the parser's recursion
MAX_PERIOD = 60
WARN_LOW, WARN_HIGH = Fraction(15, 100), Fraction(60, 100)


class RuleError(ValueError):
    """A rule (or guess) that does not parse, type-check or validate; the message names why."""


# ---------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------
VARS = ("cur", "prev", "prev2", "n")
KEYWORDS = frozenset(("if", "then", "else", "case", "of", "and", "or", "not", "in"))
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
ARITHMETIC = ("+", "-")
BINARY_OPS = COMPARISONS + ARITHMETIC
LITERAL_OPS = ("int", "suit", "color", "bool")
COLORS = ("black", "red")                       # Color values 0 and 1
# name written in text → literal node
LITERAL_NAMES: dict[str, dict] = {
    "A": {"op": "int", "value": 1}, "J": {"op": "int", "value": 11},
    "Q": {"op": "int", "value": 12}, "K": {"op": "int", "value": 13},
    **{s: {"op": "suit", "value": s} for s in SUITS},
    "red": {"op": "color", "value": "red"}, "black": {"op": "color", "value": "black"},
    "true": {"op": "bool", "value": True}, "false": {"op": "bool", "value": False},
}
FUNCTIONS = {"rank": 1, "suit": 1, "color": 1, "face": 1, "odd": 1, "even": 1, "prime": 1,
             "mod": 2, "next_suit": 1, "abs": 1}
TYPE_OF_LITERAL = {"int": "Int", "suit": "Suit", "color": "Color", "bool": "Bool"}
SCRUTINEE_TYPES = ("Int", "Suit", "Color", "Bool")
N_RULE = "n may appear only as mod(n, k), odd(n), even(n) or compared with an integer literal"

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


def literal_value(node: dict) -> Any:
    """A literal node's runtime value: Int as int, Suit 0..3, Color 0/1 (black/red), Bool."""
    op, value = node["op"], node["value"]
    if op == "suit":
        return SUITS.index(value)
    if op == "color":
        return COLORS.index(value)
    return value


def show_value(typ: str, value: Any) -> str:
    """A runtime value written as the literal that denotes it (for messages)."""
    if typ == "Suit":
        return SUITS[value]
    if typ == "Color":
        return COLORS[value]
    if typ == "Bool":
        return "true" if value else "false"
    if typ == "Card":
        return card_text(value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# Lexer and recursive-descent parser (text → AST)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Token:
    kind: str           # "int", "name", "op" or "end"
    text: str
    pos: int


_TOKEN_RE = re.compile(r"([0-9]+)|([A-Za-z_][A-Za-z_0-9]*)|(==|!=|<=|>=|[<>+\-(){},:])")
_SPACE = frozenset(" \t\r\n\f\v")


def _lex(text: str) -> list[_Token]:
    tokens, pos = [], 0
    while True:
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        if pos == len(text):
            tokens.append(_Token("end", "end of rule", pos))
            return tokens
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise RuleError(f"syntax error: unexpected character {text[pos]!r} at column {pos + 1}")
        kind = "int" if m.group(1) else "name" if m.group(2) else "op"
        tokens.append(_Token(kind, m.group(0), pos))
        pos = m.end()


def _flatten(op: str, items: list[dict]) -> dict:
    """One `and`/`or` node over `items`, splicing nested nodes of the same operator (§9)."""
    args: list[dict] = []
    for item in items:
        args.extend(item["args"] if item["op"] == op else [item])
    return {"op": op, "args": args}


class _Parser:
    def __init__(self, text: str):
        self.tokens = _lex(text)
        self.i = 0
        self.depth = 0

    # -- token helpers -------------------------------------------------------------------------
    def peek(self) -> _Token:
        return self.tokens[self.i]

    def at(self, text: str) -> bool:
        t = self.tokens[self.i]
        return t.kind in ("name", "op") and t.text == text

    def take(self) -> _Token:
        t = self.tokens[self.i]
        self.i += 1
        return t

    def fail(self, expected: str) -> RuleError:
        t = self.peek()
        found = t.text if t.kind == "end" else repr(t.text)
        return RuleError(f"syntax error at column {t.pos + 1}: expected {expected}, found {found}")

    def expect(self, text: str) -> None:
        if not self.at(text):
            raise self.fail(repr(text))
        self.i += 1

    # -- grammar -------------------------------------------------------------------------------
    def rule(self) -> dict:
        node = self.expr()
        if self.peek().kind != "end":
            raise self.fail("end of rule")
        return node

    def expr(self) -> dict:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise RuleError(f"too deeply nested (at most {MAX_DEPTH} levels)")
        if self.at("if"):
            self.take()
            cond = self.expr()
            self.expect("then")
            then = self.expr()
            self.expect("else")
            node = {"op": "if", "args": [cond, then, self.expr()]}
        elif self.at("case"):
            node = self.case()
        else:
            node = self.disj()
        self.depth -= 1
        return node

    def case(self) -> dict:
        self.take()
        scrutinee = self.expr()
        self.expect("of")
        self.expect("{")
        arms, default = [], None
        while True:
            if arms and self.at("else"):
                self.take()
                self.expect(":")
                default = self.expr()
                self.expect("}")
                break
            lit = self.literal()
            self.expect(":")
            arms.append([lit, self.expr()])
            if not self.at(","):
                self.expect("}")
                break
            self.take()
        return {"op": "case", "args": [scrutinee], "arms": arms, "else": default}

    def disj(self) -> dict:
        items = [self.conj()]
        while self.at("or"):
            self.take()
            items.append(self.conj())
        return _flatten("or", items) if len(items) > 1 else items[0]

    def conj(self) -> dict:
        items = [self.neg()]
        while self.at("and"):
            self.take()
            items.append(self.neg())
        return _flatten("and", items) if len(items) > 1 else items[0]

    def neg(self) -> dict:
        if self.at("not"):
            self.take()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise RuleError(f"too deeply nested (at most {MAX_DEPTH} levels)")
            node = {"op": "not", "args": [self.neg()]}
            self.depth -= 1
            return node
        return self.rel()

    def rel(self) -> dict:
        left = self.sum()
        t = self.peek()
        if t.kind == "op" and t.text in COMPARISONS:
            self.take()
            node = {"op": t.text, "args": [left, self.sum()]}
        elif self.at("in"):
            self.take()
            node = {"op": "in", "args": [left], "set": self.literal_set()}
        else:
            return left
        t = self.peek()
        if (t.kind == "op" and t.text in COMPARISONS) or self.at("in"):
            raise RuleError(f"chained comparison at column {t.pos + 1}: comparisons do not chain; "
                            f"join them with and")
        return node

    def sum(self) -> dict:
        node = self.atom()
        while self.peek().kind == "op" and self.peek().text in ARITHMETIC:
            op = self.take().text
            node = {"op": op, "args": [node, self.atom()]}
        return node

    def atom(self) -> dict:
        t = self.peek()
        if t.kind == "int" or (t.kind == "name" and t.text in LITERAL_NAMES):
            return self.literal()
        if t.kind == "name" and t.text in VARS:
            self.take()
            return {"op": "var", "name": t.text}
        if t.kind == "name" and t.text in FUNCTIONS:
            return self.call()
        if self.at("("):
            self.take()
            node = self.expr()
            self.expect(")")
            return node
        if t.kind == "name" and t.text in ("if", "case"):
            raise RuleError(f"syntax error at column {t.pos + 1}: {_a(t.text)} used as an "
                            f"operand needs parentheses")
        if t.kind == "name" and t.text not in KEYWORDS:
            raise RuleError(f"unknown name {t.text!r} at column {t.pos + 1}")
        raise self.fail("a value")

    def call(self) -> dict:
        fn = self.take().text
        self.expect("(")
        args = [self.expr()]
        while self.at(","):
            self.take()
            args.append(self.expr())
        self.expect(")")
        return {"op": "call", "fn": fn, "args": args}

    def literal(self) -> dict:
        t = self.peek()
        if t.kind == "int":
            self.take()
            value = int(t.text)
            if value > 99:
                raise RuleError(f"integer {t.text} at column {t.pos + 1} is out of range 0..99")
            return {"op": "int", "value": value}
        if t.kind == "name" and t.text in LITERAL_NAMES:
            self.take()
            return dict(LITERAL_NAMES[t.text])
        raise self.fail("a literal")

    def literal_set(self) -> list[dict]:
        self.expect("{")
        lits = [self.literal()]
        while self.at(","):
            self.take()
            lits.append(self.literal())
        self.expect("}")
        return lits


def parse_ast(text: str) -> dict:
    """Rule text → JSON AST (syntax only: no type check, no limits but nesting)."""
    if not isinstance(text, str):
        raise RuleError(f"a rule is text or a JSON object, not {type(text).__name__}")
    if not text.strip():
        raise RuleError("empty rule")
    return _Parser(text).rule()


# ---------------------------------------------------------------------------------------------
# JSON codec: shape checks (a JSON AST from a client is untrusted)
# ---------------------------------------------------------------------------------------------
_KEYS = {
    "var": {"op", "name"}, "call": {"op", "fn", "args"}, "not": {"op", "args"},
    "and": {"op", "args"}, "or": {"op", "args"}, "if": {"op", "args"},
    "in": {"op", "args", "set"}, "case": {"op", "args", "arms", "else"},
    **{op: {"op", "value"} for op in LITERAL_OPS},
    **{op: {"op", "args"} for op in BINARY_OPS},
}
_ARITY = {"not": 1, "if": 3, "in": 1, "case": 1, **{op: 2 for op in BINARY_OPS}}


class _Decoder:
    def __init__(self):
        self.count = 0

    def node(self, x: Any, where: str) -> dict:
        self.count += 1
        if self.count > MAX_NODES:
            raise RuleError(f"too large: more than {MAX_NODES} nodes")
        if not isinstance(x, dict) or not isinstance(x.get("op"), str):
            raise RuleError(f"malformed AST: {where} is not a node object with an \"op\"")
        op = x["op"]
        if op not in _KEYS:
            raise RuleError(f"malformed AST: unknown op {op!r} at {where}")
        if set(x) != _KEYS[op]:
            raise RuleError(f"malformed AST: a {op!r} node has keys {sorted(_KEYS[op])}, "
                            f"not {sorted(x)} (at {where})")
        if op in LITERAL_OPS:
            return self.literal(x, where)
        if op == "var":
            if x["name"] not in VARS:
                raise RuleError(f"malformed AST: unknown variable {x['name']!r} at {where}")
            return {"op": "var", "name": x["name"]}
        args = self.args(x, op, where)
        if op == "call":
            if x["fn"] not in FUNCTIONS:
                raise RuleError(f"malformed AST: unknown function {x['fn']!r} at {where}")
            return {"op": "call", "fn": x["fn"], "args": args}
        if op in ("and", "or"):
            return _flatten(op, args)
        if op == "in":
            return {"op": "in", "args": args, "set": self.literals(x["set"], f"{where}.set")}
        if op == "case":
            return self.case(x, args, where)
        return {"op": op, "args": args}

    def args(self, x: dict, op: str, where: str) -> list[dict]:
        args = x["args"]
        if not isinstance(args, list) or not args:
            raise RuleError(f"malformed AST: {where}.args must be a non-empty list")
        want = _ARITY.get(op)
        if want is not None and len(args) != want:
            raise RuleError(f"malformed AST: a {op!r} node takes {want} args, not {len(args)} "
                            f"(at {where})")
        if op in ("and", "or") and len(args) < 2:
            raise RuleError(f"malformed AST: an {op!r} node takes at least 2 args (at {where})")
        return [self.node(a, f"{where}.args[{i}]") for i, a in enumerate(args)]

    def literal(self, x: dict, where: str) -> dict:
        op, value = x["op"], x["value"]
        ok = {"int": lambda v: type(v) is int and 0 <= v <= 99,
              "suit": lambda v: isinstance(v, str) and len(v) == 1 and v in SUITS,
              "color": lambda v: v in COLORS and isinstance(v, str),
              "bool": lambda v: isinstance(v, bool)}[op](value)
        if not ok:
            raise RuleError(f"malformed AST: {value!r} is not a valid {op} value (at {where})")
        return {"op": op, "value": value}

    def literals(self, lits: Any, where: str) -> list[dict]:
        if not isinstance(lits, list) or not lits:
            raise RuleError(f"malformed AST: {where} must be a non-empty list of literals")
        out = []
        for i, lit in enumerate(lits):
            node = self.node(lit, f"{where}[{i}]")
            if node["op"] not in LITERAL_OPS:
                raise RuleError(f"malformed AST: {where}[{i}] must be a literal")
            out.append(node)
        return out

    def case(self, x: dict, args: list[dict], where: str) -> dict:
        arms = x["arms"]
        if not isinstance(arms, list) or not arms:
            raise RuleError(f"malformed AST: {where}.arms must be a non-empty list")
        out = []
        for i, arm in enumerate(arms):
            if not isinstance(arm, list) or len(arm) != 2:
                raise RuleError(f"malformed AST: {where}.arms[{i}] must be [literal, expr]")
            lit = self.literals([arm[0]], f"{where}.arms[{i}]")[0]
            out.append([lit, self.node(arm[1], f"{where}.arms[{i}][1]")])
        default = None if x["else"] is None else self.node(x["else"], f"{where}.else")
        return {"op": "case", "args": args, "arms": out, "else": default}


def decode_ast(obj: Any) -> dict:
    """A JSON AST object → a checked, flattened copy (RuleError for malformed nodes)."""
    return _Decoder().node(obj, "root")


def count_nodes(node: dict) -> int:
    """Every node, the literals of `in` sets and `case` arms included (§9)."""
    total = 1 + sum(count_nodes(a) for a in node.get("args", ()))
    total += len(node.get("set", ()))
    for lit, expr in node.get("arms", ()):
        total += 1 + count_nodes(expr)
    if node.get("else") is not None:
        total += count_nodes(node["else"])
    return total


# ---------------------------------------------------------------------------------------------
# Canonical printer
# ---------------------------------------------------------------------------------------------
_LEVEL = {"if": 0, "case": 0, "or": 1, "and": 2, "not": 3, "in": 4,
          **{op: 4 for op in COMPARISONS}, "+": 5, "-": 5}


def print_literal(node: dict) -> str:
    value = node["value"]
    if node["op"] == "bool":
        return "true" if value else "false"
    return str(value)


def _text(node: dict) -> str:
    op = node["op"]
    args = node.get("args", ())
    if op == "var":
        return node["name"]
    if op in LITERAL_OPS:
        return print_literal(node)
    if op == "call":
        return f"{node['fn']}({', '.join(print_ast(a) for a in args)})"
    if op in COMPARISONS:
        return f"{print_ast(args[0], 5)} {op} {print_ast(args[1], 5)}"
    if op in ARITHMETIC:
        return f"{print_ast(args[0], 5)} {op} {print_ast(args[1], 6)}"
    if op in ("and", "or"):
        return f" {op} ".join(print_ast(a, _LEVEL[op] + 1) for a in args)
    if op == "not":
        return f"not {print_ast(args[0], 3)}"
    if op == "in":
        return f"{print_ast(args[0], 5)} in {{{', '.join(print_literal(x) for x in node['set'])}}}"
    if op == "if":
        return f"if {print_ast(args[0])} then {print_ast(args[1])} else {print_ast(args[2])}"
    arms = [f"{print_literal(lit)}: {print_ast(expr)}" for lit, expr in node["arms"]]
    if node["else"] is not None:
        arms.append(f"else: {print_ast(node['else'])}")
    return f"case {print_ast(args[0])} of {{{', '.join(arms)}}}"


def print_ast(node: dict, need: int = 0) -> str:
    """Canonical text (§2.1): parentheses only where the grammar needs them."""
    text = _text(node)
    return f"({text})" if _LEVEL.get(node["op"], 6) < need else text


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


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "AEIOUaeiou" else f"a {word}"


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
            raise RuleError(f"type error: {fn} needs {_a(_WANTS[fn])}, not {_a(typ)}")
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
            raise RuleError(f"type error: {what} needs an Int, Suit, Color or Bool, not {_a(typ)}")
        seen = []
        for lit in lits:
            if TYPE_OF_LITERAL[lit["op"]] != typ:
                raise RuleError(f"type error: {what} on {_a(typ)} lists {print_literal(lit)}, "
                                f"{_a(TYPE_OF_LITERAL[lit['op']])}")
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
# Verdict tables and the Rule value
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """A checked rule (or Express guess) and its verdict table; equal when canonically equal.

    Contexts are (prev, prev2, n-class); prev2 only matters when `lookback` is 2. Positions n run
    from lookback + 1; beyond `n_base` the verdicts repeat with period `n_period` (§2.1 step 2).
    """

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

    def __str__(self) -> str:
        return self.canonical

    # -- contexts ------------------------------------------------------------------------------
    @property
    def n_values(self) -> range:
        """The positions N of §2.1 step 2: one per n-class."""
        return range(self.lookback + 1, self.n_base + self.n_period + 1)

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

    def contexts(self, n_values=None) -> Iterator[tuple[int, int | None, int]]:
        """Every (prev, prev2, n) context over `n_values` (default: this rule's N)."""
        for n in self.n_values if n_values is None else n_values:
            for prev2 in (range(52) if self.lookback == 2 else (None,)):
                for prev in range(52):
                    yield prev, prev2, n

    # -- judging -------------------------------------------------------------------------------
    def mask(self, prev: int, prev2: int | None, n: int) -> int:
        """The 52-bit set of kinds the rule accepts after `prev2`, `prev` at position `n`."""
        return self.table[self._index(prev, prev2, n)]

    def accepts(self, cur: int, prev: int, prev2: int | None, n: int) -> bool:
        return bool(self.table[self._index(prev, prev2, n)] >> cur & 1)

    def fail_mask(self, prev: int, prev2: int | None, n: int) -> int:
        """Kinds on which the expression has no value (a guess's `case` without `else`)."""
        return 0 if self.fail_table is None else self.fail_table[self._index(prev, prev2, n)]

    def equivalent(self, other: "Rule | Guess") -> bool:
        """Same verdict for all 52 kinds in every context over a common N (§5 Express guess)."""
        return _equivalent(self, other)

    # -- facts ---------------------------------------------------------------------------------
    @property
    def ast(self) -> dict:
        return json.loads(self.ast_json)

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

    @property
    def is_total(self) -> bool:
        return self.not_total is None

    @property
    def is_live(self) -> bool:
        return self.not_live is None


def _equivalent(a: "Rule | Guess", b: "Rule | Guess") -> bool:
    """Table equality over the common contexts: L and T the larger, P the lcm of both (§5)."""
    lookback = max(a.lookback, b.lookback)
    if a.uses_n or b.uses_n:
        base = max(a.n_base, b.n_base, lookback)
        ns = range(lookback + 1, base + lcm(a.n_period, b.n_period) + 1)
    else:
        ns = range(lookback + 1, lookback + 2)
    for n in ns:
        for prev2 in (range(52) if lookback == 2 else (None,)):
            for prev in range(52):
                if (a.mask(prev, prev2, n) != b.mask(prev, prev2, n)
                        or a.fail_mask(prev, prev2, n) or b.fail_mask(prev, prev2, n)):
                    return False
    return True


class Guess:
    """An Express guess (§5): checked (steps 1-2) but not tabulated. Its verdicts are computed
    per context on demand, so comparing it with the rule stops at the first difference."""

    __slots__ = ("canonical", "lookback", "n_base", "n_period", "uses_n", "nodes", "ast_json",
                 "_masks", "_facts")

    def __init__(self, checked: "_Checked"):
        self.canonical, self.lookback, self.nodes = checked.canonical, checked.lookback, checked.nodes
        self.uses_n = checked.uses_n
        self.n_base = max(checked.n_limit, checked.lookback) if checked.uses_n else checked.lookback
        self.n_period = checked.period if checked.uses_n else 1
        self.ast_json = json.dumps(checked.ast, separators=(",", ":"))
        self._masks = _root_masks(checked.staged)
        self._facts: tuple[bool, bool] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Guess) and other.canonical == self.canonical

    def __hash__(self) -> int:
        return hash(("guess", self.canonical))

    def __str__(self) -> str:
        return self.canonical

    def __repr__(self) -> str:
        return f"Guess({self.canonical!r})"

    @property
    def ast(self) -> dict:
        return json.loads(self.ast_json)

    def mask(self, prev: int, prev2: int | None, n: int) -> int:
        return self._masks(prev, prev2 if self.lookback == 2 else None, n)[0]

    def fail_mask(self, prev: int, prev2: int | None, n: int) -> int:
        return self._masks(prev, prev2 if self.lookback == 2 else None, n)[1]

    def accepts(self, cur: int, prev: int, prev2: int | None, n: int) -> bool:
        return bool(self.mask(prev, prev2, n) >> cur & 1)

    def equivalent(self, other: "Rule | Guess") -> bool:
        return _equivalent(self, other)

    def _scan(self) -> tuple[bool, bool]:
        if self._facts is None:
            total = live = True
            ns = range(self.lookback + 1, self.n_base + self.n_period + 1)
            for n in ns:
                for q in (range(52) if self.lookback == 2 else (None,)):
                    for p in range(52):
                        accepted, failed = self._masks(p, q, n)
                        total, live = total and not failed, live and bool(accepted)
            self._facts = (total, live)
        return self._facts

    @property
    def is_total(self) -> bool:
        return self._scan()[0]

    @property
    def is_live(self) -> bool:
        return self._scan()[1]


def _context_text(prev: int, prev2: int | None, n: int, uses_n: bool) -> str:
    parts = [f"prev = {card_text(prev)}"]
    if prev2 is not None:
        parts.append(f"prev2 = {card_text(prev2)}")
    if uses_n:
        parts.append(f"n = {n}")
    return ", ".join(parts)


def _root_masks(staged: Staged) -> Callable:
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


def _explain_miss(ast: dict, failed: int, p: int, q: int | None, n: int, uses_n: bool) -> str:
    cur = (failed & -failed).bit_length() - 1
    where = f"cur = {card_text(cur)}, {_context_text(p, q, n, uses_n)}"
    try:
        evaluate(ast, cur, p, q, n)
    except CaseMiss as miss:
        return f"{miss} ({where})"
    return f"the rule has no value for {where}"


@dataclass(frozen=True)
class _Checked:
    canonical: str
    ast: dict = field(compare=False)
    staged: Staged = field(compare=False)
    lookback: int
    n_limit: int
    period: int
    uses_n: bool
    nodes: int
    n_parts: tuple = field(compare=False)


def _check(ast: dict) -> _Checked:
    """§2.1 steps 1-2: limits, type check (Bool), contexts (L, T, P <= 60)."""
    nodes = count_nodes(ast)
    if nodes > MAX_NODES:
        raise RuleError(f"too large: {nodes} nodes (at most {MAX_NODES})")
    checker = _Checker()
    typ, staged = checker.run(ast)
    if typ != "Bool":
        raise RuleError(f"type error: a rule must be Bool, not {_a(typ)}")
    period = lcm(*checker.n_moduli) if checker.n_moduli else 1
    if period > MAX_PERIOD:
        raise RuleError(f"n period too long: the moduli applied to n have lcm {period} "
                        f"(at most {MAX_PERIOD})")
    n_parts = (staged[1],) if _reads_only_n(staged) else tuple(checker.n_parts)
    return _Checked(print_ast(ast), ast, staged, 2 if checker.uses_prev2 else 1, checker.n_limit,
                    period, checker.uses_n, nodes, n_parts)


def _build(checked: _Checked) -> Rule:
    """§2.1 steps 2-4: the verdict table over every context, with totality and liveness facts."""
    lookback = checked.lookback
    base = max(checked.n_limit, lookback)
    period = checked.period if checked.uses_n else 1
    ns = range(lookback + 1, base + period + 1) if checked.uses_n else range(lookback + 1,
                                                                               lookback + 2)
    table, fails, examples = [], [], []
    dead = 0
    not_total = not_live = None
    masks = _root_masks(checked.staged)
    prevs2 = range(52) if lookback == 2 else (None,)
    blocks: dict[tuple, list] = {}
    for n in ns:
        # positions whose n-parts agree share one block of contexts: compute it once
        signature = tuple(f(0, None, n) for f in checked.n_parts)
        block = blocks.get(signature)
        if block is None:
            block = blocks[signature] = [masks(p, q, n) for q in prevs2 for p in range(52)]
        for i, (accepted, failed) in enumerate(block):
            table.append(accepted)
            fails.append(failed)
            if failed and not_total is None:
                p, q = i % 52, prevs2[i // 52]
                not_total = _explain_miss(checked.ast, failed, p, q, n, checked.uses_n)
            if not accepted:
                dead += 1
                if len(examples) < 4:
                    examples.append(_context_text(i % 52, prevs2[i // 52], n, checked.uses_n))
    if dead:
        not_live = (f"no card is right in {dead} of {len(table)} contexts "
                    f"({'; '.join(examples)}{'; ...' if dead > 4 else ''})")
    return Rule(checked.canonical, lookback, base if checked.uses_n else lookback, period,
                checked.uses_n, checked.nodes, json.dumps(checked.ast, separators=(",", ":")),
                tuple(table), tuple(fails) if any(fails) else None, not_total, not_live)


@lru_cache(maxsize=512)
def _rule_for(canonical: str) -> Rule:
    return _build(_check(parse_ast(canonical)))


def _to_ast(source: Any) -> dict:
    if not isinstance(source, str):
        text = print_ast(decode_ast(source))
        if len(text) > MAX_CHARS:
            raise RuleError(f"too long: {len(text)} characters (at most {MAX_CHARS})")
        return parse_ast(text)          # the same tree (§2.1), held to the text's nesting cap
    if len(source) > MAX_CHARS:
        raise RuleError(f"too long: {len(source)} characters (at most {MAX_CHARS})")
    return parse_ast(source)


def check_expression(source: Any) -> tuple[str, int]:
    """Steps 1-2 only, cheaply: (canonical text, lookback). RuleError on failure."""
    checked = _check(_to_ast(source))
    return checked.canonical, checked.lookback


def compile_rule(source: Any, cache: bool = True) -> Rule:
    """Rule text or JSON AST → a validated Rule (§2.1 steps 1-4); RuleError naming the reason.

    Rules are cached by canonical text; `cache=False` builds afresh and leaves the cache alone
    (for callers that compile many throw-away rules, such as a hypothesis space)."""
    canonical, _ = check_expression(source)
    rule = _rule_for(canonical) if cache else _build(_check(parse_ast(canonical)))
    if rule.not_total:
        raise RuleError(f"not total: {rule.not_total}")
    if rule.not_live:
        raise RuleError(f"not live: {rule.not_live}")
    return rule


def parse_guess(source: Any, lookback: int) -> Guess:
    """An Express guess: steps 1-2 with lookback <= the round's L; need not be total or live."""
    checked = _check(_to_ast(source))
    if checked.lookback > lookback:
        raise RuleError(f"the guess uses prev2 (lookback 2) but the round has lookback {lookback}")
    return Guess(checked)
