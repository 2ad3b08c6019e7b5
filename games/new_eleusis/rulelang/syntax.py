"""Rule-language syntax (docs/rules/eleusis.md §2.1, §9): vocabulary, text → AST, JSON AST → AST,
and the canonical printer.

The AST is the JSON of §2.1 in plain dicts. Text goes through a lexer and a recursive-descent
parser; a JSON AST given as an object goes through a decoder that checks every node's shape. Both
yield the same flattened tree, which `compiler.py` then type-checks and compiles.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from ..cards import SUITS, card_text

MAX_CHARS = 500
MAX_NODES = 100
MAX_DEPTH = 40              # nesting of expressions in text; bounds the parser's recursion


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


def with_article(word: str) -> str:
    return f"an {word}" if word[0] in "AEIOUaeiou" else f"a {word}"


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

    def accept(self, text: str) -> bool:
        """Take the next token if it is `text` (the test of `at`, inlined: the hottest call)."""
        t = self.tokens[self.i]
        if t.kind in ("name", "op") and t.text == text:
            self.i += 1
            return True
        return False

    def fail(self, expected: str) -> RuleError:
        t = self.peek()
        found = t.text if t.kind == "end" else repr(t.text)
        return RuleError(f"syntax error at column {t.pos + 1}: expected {expected}, found {found}")

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise self.fail(repr(text))

    def series(self, item: Callable[[], dict], separator: str) -> list[dict]:
        """One or more `item`s joined by `separator`."""
        items = [item()]
        while self.accept(separator):
            items.append(item())
        return items

    def deeper(self) -> None:
        """One level deeper (leave with `self.depth -= 1`); the cap bounds the recursion."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise RuleError(f"too deeply nested (at most {MAX_DEPTH} levels)")

    # -- grammar -------------------------------------------------------------------------------
    def rule(self) -> dict:
        node = self.expr()
        if self.peek().kind != "end":
            raise self.fail("end of rule")
        return node

    def expr(self) -> dict:
        self.deeper()
        if self.accept("if"):
            cond = self.expr()
            self.expect("then")
            then = self.expr()
            self.expect("else")
            node = {"op": "if", "args": [cond, then, self.expr()]}
        elif self.accept("case"):
            node = self.case()
        else:
            node = self.joined("or", self.conj)
        self.depth -= 1
        return node

    def case(self) -> dict:
        scrutinee = self.expr()
        self.expect("of")
        self.expect("{")
        arms, default = [], None
        while True:
            if arms and self.accept("else"):
                self.expect(":")
                default = self.expr()
                self.expect("}")
                break
            lit = self.literal()
            self.expect(":")
            arms.append([lit, self.expr()])
            if not self.accept(","):
                self.expect("}")
                break
        return {"op": "case", "args": [scrutinee], "arms": arms, "else": default}

    def joined(self, op: str, operand: Callable[[], dict]) -> dict:
        """Operands joined by `and` or `or`: one flattened node, or the lone operand."""
        first = operand()
        if not self.at(op):
            return first
        items = [first]
        while self.accept(op):
            items.append(operand())
        return _flatten(op, items)

    def conj(self) -> dict:
        return self.joined("and", self.neg)

    def neg(self) -> dict:
        if self.accept("not"):
            self.deeper()
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
        elif self.accept("in"):
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
        if self.accept("("):
            node = self.expr()
            self.expect(")")
            return node
        if t.kind == "name" and t.text in ("if", "case"):
            raise RuleError(f"syntax error at column {t.pos + 1}: {with_article(t.text)} used as "
                            f"an operand needs parentheses")
        if t.kind == "name" and t.text not in KEYWORDS:
            raise RuleError(f"unknown name {t.text!r} at column {t.pos + 1}")
        raise self.fail("a value")

    def call(self) -> dict:
        fn = self.take().text
        self.expect("(")
        args = self.series(self.expr, ",")
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
        lits = self.series(self.literal, ",")
        self.expect("}")
        return lits


def parse_ast(text: str) -> dict:
    """Rule text → JSON AST (syntax only: no type check, no limits but nesting)."""
    if not isinstance(text, str):
        raise RuleError(f"a rule is text or a JSON object, not {type(text).__name__}")
    if not text.strip():
        raise RuleError("empty rule")
    return _Parser(text).rule()


def to_ast(source: Any) -> dict:
    """Rule text or a JSON AST → the parsed tree, held to the text's length and nesting caps."""
    if not isinstance(source, str):
        text = print_ast(decode_ast(source))
        if len(text) > MAX_CHARS:
            raise RuleError(f"too long: {len(text)} characters (at most {MAX_CHARS})")
        return parse_ast(text)          # the same tree (§2.1), held to the text's nesting cap
    if len(source) > MAX_CHARS:
        raise RuleError(f"too long: {len(source)} characters (at most {MAX_CHARS})")
    return parse_ast(source)


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
