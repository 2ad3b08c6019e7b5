"""New Eleusis moves: their values, their notation (docs/rules/eleusis.md §6) and the rules they carry.

Every move is a small frozen value whose `str()` is its canonical notation; `parse_notation` is the
inverse. Rules and guesses are compiled once per text and process (§8).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ..core import IllegalMoveError, InvalidMoveError
from .cards import card_text, parse_card
from .rulelang import Guess, Rule, RuleError, check_expression, compile_rule, parse_guess

MAX_STRING = 4                 # §3.1 strings of 2-4 cards
PROPHET, PROPHET_IF_RIGHT = "prophet", "prophet if right"


# ---------------------------------------------------------------------------------------------
# Rules and guesses, cached by text: compiling builds verdict tables once per process (§8)
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def compiled_rule(text: str) -> Rule:
    return compile_rule(text)


@lru_cache(maxsize=512)
def checked_guess(text: str, lookback: int) -> Guess:
    """A checked Express guess; it is compared with the rule context by context, and only when
    a right card brings it to judgment."""
    return parse_guess(text, lookback)


@lru_cache(maxsize=4096)
def guess_syntax(text: str) -> tuple[str, int]:
    """(canonical text, lookback) of a guess: validation steps 1-2 only, cheap (§5)."""
    return check_expression(text)


def rule_option(value: Any) -> str | None:
    """`rule` option (§5): null, rule text or a JSON AST; stored as canonical text."""
    if value is None:
        return None
    if isinstance(value, str) and not value.strip():
        raise ValueError("an empty rule; give rule text, a JSON AST or null")
    if isinstance(value, Mapping):
        return compile_rule(dict(value)).canonical
    if not isinstance(value, str):
        raise ValueError(f"a rule is text or a JSON AST, not {type(value).__name__}")
    return compiled_rule(value).canonical


def cards_text(kinds) -> str:
    return " ".join(card_text(k) for k in kinds)


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """`play 5H` or a string `play 5H 6S 7D`; `declare` is "", "prophet" or "prophet if right";
    `guess` is a canonical Express guess expression or ""."""

    cards: tuple[int, ...]
    declare: str = ""
    guess: str = ""

    def __str__(self) -> str:
        text = "play " + cards_text(self.cards)
        if self.declare:
            text += "; " + self.declare
        if self.guess:
            text += "; guess " + self.guess
        return text


@dataclass(frozen=True)
class NoPlay:
    def __str__(self) -> str:
        return "noplay"


def _verdict_text(words: tuple[str, str], yes: bool, card: int) -> str:
    """`judge right` / `judge wrong 5H`, `approve` / `disapprove 5H`: a card named for No Play."""
    if yes:
        return words[0]
    return words[1] + (f" {card_text(card)}" if card >= 0 else "")


@dataclass(frozen=True)
class Judge:
    """A call by the Prophet, or a free-text God's judgment; `card` names the right card of a
    wrong No Play (-1: none)."""

    right: bool
    card: int = -1

    def __str__(self) -> str:
        return _verdict_text(("judge right", "judge wrong"), self.right, self.card)


@dataclass(frozen=True)
class Review:
    """God's review of a Prophet's call under a free-text rule; `card` for a wrong No Play."""

    approve: bool
    card: int = -1

    def __str__(self) -> str:
        return _verdict_text(("approve", "disapprove"), self.approve, self.card)


@dataclass(frozen=True)
class CommitRule:
    """`rule <expr>`: a player God's expression rule, canonical text."""

    expr: str

    def __str__(self) -> str:
        return "rule " + self.expr


@dataclass(frozen=True)
class CommitText:
    """`rule text <L> "<text>"`: a free-text rule with its lookback (not in Express)."""

    lookback: int
    text: str

    def __str__(self) -> str:
        return f"rule text {self.lookback} " + json.dumps(self.text, ensure_ascii=False)


NOPLAY = NoPlay()
# every single-card play of each kind: plain, then with each declaration
SINGLES = tuple(tuple(Play((k,), d) for d in ("", PROPHET, PROPHET_IF_RIGHT)) for k in range(52))


def strings_from(hand: tuple[int, ...], max_len: int = MAX_STRING) -> list[Play]:
    """Every string of 2..max_len cards (at most MAX_STRING) drawn from `hand`, in order,
    depth first by kind."""
    counts: dict[int, int] = {}
    for k in hand:
        counts[k] = counts.get(k, 0) + 1
    out: list[Play] = []

    def extend(prefix: tuple[int, ...]) -> None:
        if len(prefix) >= 2:
            out.append(Play(prefix))
        if len(prefix) == min(max_len, MAX_STRING):
            return
        for k in sorted(counts):
            if counts[k]:
                counts[k] -= 1
                extend(prefix + (k,))
                counts[k] += 1

    extend(())
    return out


# ---------------------------------------------------------------------------------------------
# Notation (docs/rules/eleusis.md §6)
# ---------------------------------------------------------------------------------------------
_WORDS = {"judge right": Judge(True), "judge wrong": Judge(False), "approve": Review(True),
          "disapprove": Review(False)}
_TEXT_RULE = re.compile(r"rule text ([0-9]+) (\".*\")", re.S)


def parse_notation(text: str):
    """Notation → move. Syntax errors are InvalidMoveError; a rule or guess that fails
    validation is IllegalMoveError naming the reason (§2.1, §5)."""
    s = text.strip()
    if s == "noplay":
        return NOPLAY
    if s.startswith("play ") or s == "play":
        return _parse_play(s)
    if s in _WORDS:
        return _WORDS[s]
    for head, cls in (("judge wrong ", Judge), ("disapprove ", Review)):
        if s.startswith(head):
            return cls(False, _parse_card_move(s[len(head):]))
    if s.startswith("rule text "):
        return _parse_text_rule(s)
    if s.startswith("rule "):
        try:
            return CommitRule(compiled_rule(s[5:]).canonical)
        except RuleError as exc:
            raise IllegalMoveError(f"rule {s[5:]!r} rejected: {exc}") from None
    raise InvalidMoveError(f"not a New Eleusis move: {text!r}")


@lru_cache(maxsize=4096)
def parse_stored(text: str):
    """A move the state itself recorded (a pending play or call): parsed once per text."""
    return parse_notation(text)


def _parse_card_move(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise InvalidMoveError(str(exc)) from None


def _parse_play(s: str) -> Play:
    head, *suffixes = [part.strip() for part in s.split(";")]
    tokens = head.split()[1:]
    if not tokens:
        raise InvalidMoveError(f"{s!r}: play names 1 to {MAX_STRING} cards")
    if len(tokens) > MAX_STRING:
        raise InvalidMoveError(f"{s!r}: a string has at most {MAX_STRING} cards")
    cards = tuple(_parse_card_move(t) for t in tokens)
    if len(suffixes) > 1:
        raise InvalidMoveError(f"{s!r}: at most one declaration suffix")
    if not suffixes:
        return Play(cards)
    suffix = suffixes[0]
    if suffix in (PROPHET, PROPHET_IF_RIGHT):
        return Play(cards, suffix)
    if suffix.startswith("guess "):
        expr = suffix[6:]
        try:
            return Play(cards, "", guess_syntax(expr)[0])
        except RuleError as exc:
            raise IllegalMoveError(f"guess {expr!r} rejected: {exc}") from None
    raise InvalidMoveError(f"{s!r}: unknown suffix {suffix!r} (prophet, prophet if right, guess)")


def _parse_text_rule(s: str) -> CommitText:
    match = _TEXT_RULE.fullmatch(s)
    if not match:
        raise InvalidMoveError(f'{s!r}: write rule text <L> "<text>"')
    try:
        text = json.loads(match.group(2))
    except ValueError:
        raise InvalidMoveError(f"{s!r}: the rule text must be one JSON string") from None
    if not isinstance(text, str) or not text.strip():
        raise InvalidMoveError(f"{s!r}: the rule text must be a non-empty JSON string")
    return CommitText(int(match.group(1)), text)
