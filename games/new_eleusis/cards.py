"""Card vocabulary for New Eleusis (docs/rules/eleusis.md §2, §6).

A card kind is an int 0..51: kind = (rank - 1) * 4 + suit_index, suits in the order S H D C.
Sorting kinds therefore sorts by rank, then S H D C: the machine God's pick order (§3.2).
Two cards of one kind are interchangeable, so hands are multisets of kinds.
"""
from __future__ import annotations

from typing import Iterable

SUITS = "SHDC"
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_KINDS = range(52)
FULL_MASK = (1 << 52) - 1
RED_SUITS = frozenset((1, 2))           # H, D
_RANK_OF_TEXT = {text: rank for rank, text in enumerate(RANK_TEXT, start=1)}


def make_kind(rank: int, suit: int) -> int:
    """The kind of the card with `rank` 1..13 and suit index 0..3 (S H D C)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no card with rank {rank!r} and suit index {suit!r}")
    return (rank - 1) * 4 + suit


def rank_of(kind: int) -> int:
    """1..13 (A=1, J=11, Q=12, K=13)."""
    return kind // 4 + 1


def suit_of(kind: int) -> int:
    """0..3 in the order S H D C."""
    return kind % 4


def is_red(kind: int) -> bool:
    return kind % 4 in RED_SUITS


def card_text(kind: int) -> str:
    """Canonical notation: rank then suit, uppercase (`10H`, `AS`, `KC`)."""
    if not (0 <= kind < 52) or isinstance(kind, bool):
        raise ValueError(f"no card kind {kind!r}")
    return RANK_TEXT[kind // 4] + SUITS[kind % 4]


def parse_card(text: str) -> int:
    """`10h` → the kind of 10H; ValueError naming the text for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text, not {text!r}")
    t = text.strip().upper()
    if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in _RANK_OF_TEXT:
        raise ValueError(f"not a card: {text!r} (write rank A 2-10 J Q K, then suit S H D C)")
    return make_kind(_RANK_OF_TEXT[t[:-1]], SUITS.index(t[-1]))


def kinds_mask(kinds: Iterable[int]) -> int:
    """The 52-bit set of `kinds` (bit k set for kind k)."""
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def mask_kinds(mask: int) -> list[int]:
    """The kinds in a 52-bit mask, ascending (rank, then S H D C)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
