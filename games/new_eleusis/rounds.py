"""New Eleusis rounds: set-up numbers, the rule commitment, the finished-round record and round
scoring (docs/rules/eleusis.md §2 set-up, §3.4, §3.7, §4, §5).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from ..core import seeded_rng

HAND = 14                      # §2 round set-up (1)
EXPRESS_HAND = 12              # §5 Express
THRESHOLDS = {"seed": (30, 20), "classic": (40, 30)}      # §3.4 (T1, T2)
CARD_CAP = 200                 # §5 Express safeguard [R]
STARTER, SET_UP = -1, -2       # `main_by` tags besides a seat number
GOD_PLACED = -10               # God-placed from seat s's wrong No Play: GOD_PLACED - s
NEVER_GOD_BONUS = 10           # §4 [C]: to a seat not yet God when a match stops early


def commitment_hash(nonce: str, rule_move: str) -> str:
    """sha256(nonce + "\\n" + rule_move), lowercase hex (docs/rules/eleusis.md §3.7)."""
    return hashlib.sha256((nonce + "\n" + rule_move).encode("utf-8")).hexdigest()


def round_nonce(seed: int, round_no: int) -> str:
    """32 lowercase hex digits drawn from the match seed (§3.7)."""
    return format(seeded_rng(seed, round_no, "nonce").getrandbits(128), "032x")


def two_decks(seed: int, round_no: int) -> tuple[int, ...]:
    """The round's shuffled stock of two decks (§2 set-up); the top is the end."""
    cards = [k for k in range(52) for _ in range(2)]
    seeded_rng(seed, round_no, 0).shuffle(cards)
    return tuple(cards)


def first_player(players: int, god: int, rank: int, express: bool) -> int:
    """§2 (4): count clockwise over scientists from the dealer's left neighbour (seat 0 in
    machine mode) up to the last starter's rank; Express: that neighbour starts [C]."""
    order = deal_order(players, god)
    return order[0] if express else order[(rank - 1) % len(order)]


def deal_order(players: int, god: int) -> list[int]:
    """The scientists clockwise from God's left (every seat from 0 under a machine God)."""
    if god < 0:
        return list(range(players))
    return [(god + 1 + i) % players for i in range(players - 1)]


@dataclass(frozen=True)
class RoundRecord:
    """A finished round, as every seat may see it once it is over (§3.7: the rule and nonce are
    revealed, so anyone can check the commitment). Stored as a 12-item list in field order."""

    round: int
    god: int                                    # -1: the machine
    rule_move: str
    lookback: int
    nonce: str
    commitment: str
    commitment_ok: bool
    scores: tuple[int, ...]
    god_score: int
    final_hands: tuple[tuple[int, ...], ...]
    termination: str
    prophet: int                                # -1: none at the end

    def to_list(self) -> list:
        return [self.round, self.god, self.rule_move, self.lookback, self.nonce, self.commitment,
                self.commitment_ok, list(self.scores), self.god_score,
                [list(hand) for hand in self.final_hands], self.termination, self.prophet]

    @classmethod
    def from_list(cls, items: Sequence) -> "RoundRecord":
        (round_no, god, rule_move, lookback, nonce, commitment, commitment_ok, scores, god_score,
         final_hands, termination, prophet) = items
        return cls(round_no, god, rule_move, lookback, nonce, commitment, commitment_ok,
                   tuple(scores), god_score, tuple(tuple(hand) for hand in final_hands),
                   termination, prophet)


def round_scores(position, out_seat: int) -> tuple[list[int], int]:
    """Per-seat scores of a finished round and God's score (§4). `position` is the round's end
    (hands, Prophet and counts); `out_seat` went out (-1: nobody)."""
    god, hands, players = position.god, position.hands, position.players
    scientists = [s for s in range(players) if s != god]
    high = EXPRESS_HAND if position.express else max(len(hands[s]) for s in scientists)
    scores = [0] * players
    for s in scientists:
        scores[s] = high - len(hands[s]) + (4 if s == out_seat else 0)
    prophet = position.prophet
    if prophet >= 0:                               # Prophet bonus: 1 mainline, 2 sideline
        scores[prophet] += ((position.played - position.at_marker)
                            + (position.side_played - position.side_at_marker))
    best = max(scores[s] for s in scientists)
    # at_marker counts mainline and sideline cards up to the marker card, no starters [R]
    god_score = min(best, 2 * position.at_marker) if prophet >= 0 else best
    if god >= 0:
        scores[god] = god_score
    return scores, god_score
