"""Engines that do not search: the uniform random player and the hidden-information policy."""
from __future__ import annotations

from random import Random

from games import State

from .base import Budget, Engine, Limit, SearchResult


class RandomEngine(Engine):
    """The `random` level: a uniformly random legal move, at once. Its value is 0 (no opinion)."""

    def __init__(self, level: str = "random", default_limit: Limit = Limit(nodes=1)) -> None:
        super().__init__(level, default_limit)

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        return SearchResult(move=move, value=0.0, pv=[move], nodes=1)


class PlainMovePolicy(Engine):
    """A simple policy for hidden-information games, which must not search the true state.

    It looks only at `state.legal_moves()` (the seat's own options). It prefers the plainest moves,
    those with the shortest notation (in New Eleusis: single cards and `noplay` over multi-card
    strings and plays carrying a Prophet declaration, which risk the most), and picks among them at
    random. A dedicated engine replaces it through the engine table.
    """

    def __init__(self, level: str, default_limit: Limit = Limit(nodes=1)) -> None:
        super().__init__(level, default_limit)

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        moves = state.legal_moves()
        shortest = min(len(str(m)) for m in moves)
        plain = [m for m in moves if len(str(m)) == shortest]
        move = plain[rng.randrange(len(plain))]
        return SearchResult(move=move, value=0.0, pv=[move], nodes=len(moves))
