"""Engines that do not search: the uniform random player and the hidden-information policy."""
from __future__ import annotations

from random import Random

from games import State

from .base import Budget, Engine, Limit, Lines, SearchResult


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


class Erring(Engine):
    """A lower level that errs on purpose: on a `rate` share of its moves (drawn before the search,
    from the search's rng) it plays a random other legal move instead of the one its search found.
    Search depth alone barely separates levels in drawn-out games; a known error rate does, at
    every budget. The reported value is still the search's. Analysis uses `searcher`, which never
    errs."""

    def __init__(self, searcher: Engine, rate: float) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"an error rate lies in [0, 1], not {rate!r}")
        super().__init__(searcher.level, searcher.default_limit)
        self.searcher, self.rate = searcher, rate

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        errs = rng.random() < self.rate
        found = self.searcher._search(state, limit, rng, budget)
        others = [m for m in state.legal_moves() if m != found.move] if errs else []
        if not others:
            return found
        move = others[rng.randrange(len(others))]
        return SearchResult(move=move, value=found.value, pv=[move], nodes=found.nodes,
                            depth=found.depth)

    def _lines(self, state: State, count: int, limit: Limit, rng: Random, budget: Budget) -> Lines:
        """Lines are what the search finds: a level's deliberate errors never show in them."""
        return self.searcher._lines(state, count, limit, rng, budget)
