"""The machine God's bank of secret rules (docs/rules/eleusis.md §2 round set-up, §2.1's table).

Every entry is validated at import (steps 1-4 of §2.1), so a pick is always a legal, total, live
rule. R1-R10 are the table of docs/rules/eleusis.md §2.1; the rest are classic Eleusis rules of the same families
(colour, suit, parity, rank order, position, two-card memory). Difficulty is a label for the picker:
`easy` rules look at one property, `medium` combine two or depend on `prev`'s kind, `hard` mix
arithmetic, positions or two cards of memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from random import Random

from .rulelang import Rule, compile_rule

DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class BankRule:
    name: str
    difficulty: str
    origin: str
    rule: Rule

    @property
    def canonical(self) -> str:
        return self.rule.canonical


_ENTRIES = (
    # §2.1's table
    ("R1", "easy", "red and black alternate (seed)", "color(cur) != color(prev)"),
    ("R2", "easy", "suits cycle S H D C (seed)", "suit(cur) == next_suit(suit(prev))"),
    ("R3", "medium", "seed round 1: after odd black, after even red",
     "if odd(prev) then color(cur) == black else color(cur) == red"),
    ("R4", "hard", "seed round 2: rank mod 3 picks face, odd or even",
     "case mod(rank(prev), 3) of {0: face(cur), 1: odd(cur), 2: even(cur)}"),
    ("R5", "medium", "a scientist's wrong hypothesis (seed)",
     "if odd(prev) then rank(cur) <= rank(prev) else rank(cur) >= rank(prev)"),
    ("R6", "hard", "colours in pairs (seed)",
     "if color(prev) == color(prev2) then color(cur) != color(prev) "
     "else color(cur) == color(prev)"),
    ("R7", "medium", "primes and non-primes alternate", "prime(cur) != prime(prev)"),
    ("R8", "medium", "after a face card a non-face, else higher",
     "if face(prev) then not face(cur) else rank(cur) > rank(prev)"),
    ("R9", "hard", "red at even positions, black at odd",
     "if even(n) then color(cur) == red else suit(cur) in {C, S}"),
    ("R10", "easy", "one higher, K wraps to A", "rank(cur) == mod(rank(prev), 13) + 1"),
    # one property
    ("same-colour", "easy", "colour repeats", "color(cur) == color(prev)"),
    ("parity-alternates", "easy", "odd and even ranks alternate", "odd(cur) != odd(prev)"),
    ("not-lower", "easy", "never lower", "rank(cur) >= rank(prev)"),
    ("only-red", "easy", "red cards only", "color(cur) == red"),
    ("low-cards", "easy", "seven or lower", "rank(cur) <= 7"),
    ("suit-or-rank", "easy", "follow suit or rank", "suit(cur) == suit(prev) or rank(cur) == rank(prev)"),
    # two properties, or prev's kind decides
    ("face-red", "medium", "after a face card red, else black",
     "if face(prev) then color(cur) == red else color(cur) == black"),
    ("red-odd", "medium", "after red odd, after black even",
     "if color(prev) == red then odd(cur) else even(cur)"),
    ("close-ranks", "medium", "within two ranks", "abs(rank(cur) - rank(prev)) <= 2"),
    ("big-sum", "medium", "the two ranks add up past 13", "rank(cur) + rank(prev) > 13"),
    ("low-red", "medium", "after a low card red, else a face or an even rank",
     "if rank(prev) <= 6 then color(cur) == red else face(cur) or even(cur)"),
    ("face-or-suit", "medium", "a face card, or follow suit", "face(cur) or suit(cur) == suit(prev)"),
    ("next-suit-or-rank", "medium", "the next suit, or the same rank",
     "suit(cur) == next_suit(suit(prev)) or rank(cur) == rank(prev)"),
    ("change-both", "medium", "change colour and rank",
     "color(cur) != color(prev) and rank(cur) != rank(prev)"),
    ("black-high", "medium", "after black high, after red low",
     "if suit(prev) in {S, C} then rank(cur) > 6 else rank(cur) <= 7"),
    ("far-ranks", "medium", "at least four ranks apart", "abs(rank(cur) - rank(prev)) >= 4"),
    # arithmetic, positions, two cards of memory
    ("suit-case", "hard", "each suit of prev has its own demand",
     "case suit(prev) of {S: color(cur) == red, H: face(cur) or rank(cur) < 4, D: odd(cur), "
     "C: even(cur)}"),
    ("prime-sum", "hard", "the two ranks add up to a prime", "prime(rank(cur) + rank(prev))"),
    ("sum-by-three", "hard", "the two ranks add up to a multiple of 3",
     "mod(rank(cur) + rank(prev), 3) == 0"),
    ("position-parity", "hard", "odd positions change colour, even follow suit or face",
     "if odd(n) then color(cur) != color(prev) else suit(cur) == suit(prev) or face(cur)"),
    ("rank-by-position", "hard", "rank and position agree modulo 4", "mod(rank(cur), 4) == mod(n, 4)"),
    ("position-cycle", "hard", "positions cycle face, red, odd",
     "case mod(n, 3) of {0: face(cur), 1: red == color(cur), 2: odd(cur)}"),
    ("pair-direction", "hard", "after a same-colour pair not lower, else not higher",
     "if color(prev) == color(prev2) then rank(cur) >= rank(prev) else rank(cur) <= rank(prev)"),
    ("three-suits", "hard", "a suit different from the last two",
     "suit(cur) != suit(prev) and suit(cur) != suit(prev2)"),
)

BANK: tuple[BankRule, ...] = tuple(BankRule(name, difficulty, origin, compile_rule(text))
                                   for name, difficulty, origin, text in _ENTRIES)


def entries(difficulty: str | None = None) -> tuple[BankRule, ...]:
    """The bank, or the part of it with one difficulty label."""
    if difficulty is None:
        return BANK
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose from {DIFFICULTIES}")
    return tuple(entry for entry in BANK if entry.difficulty == difficulty)


def pick_rule(rng: Random, difficulty: str | None = None) -> Rule:
    """A seeded pick from the bank (the caller derives `rng` from the match seed)."""
    return rng.choice(entries(difficulty)).rule


def by_name(name: str) -> BankRule:
    for entry in BANK:
        if entry.name == name:
            return entry
    raise KeyError(f"no bank rule named {name!r}")
