"""The engine interface (design §2b): budgets, results, the Engine base and the Evaluator hooks.

An engine takes a position and a budget and returns a move with its evaluation for the player to
move. Engines are pure: they import only `games` and the standard library, draw every random choice
from an injected `random.Random`, and are deterministic for a given rng and node budget.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, Sequence

from games import State

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "strong")

# Work done outside the search loop (result assembly, the caller's own overhead) must fit in the
# 10 % tolerance, so the loop itself stops a little early.
TIME_SAFETY = 0.92
TIME_MARGIN = 0.004


class UnknownLevelError(ValueError):
    """`get_engine` was asked for a level this game's engine table does not define."""

    code = "unknown_level"


class SearchTimeout(Exception):
    """Raised inside a search when its budget runs out; caught by the engine that started it."""


@dataclass(frozen=True)
class Limit:
    """A search budget. Any combination; the search stops at whichever bound is reached first.

    `seconds`: wall-clock time; `nodes`: engine-specific work units (MCTS iterations, alpha-beta
    positions); `depth`: plies of full-width search (alpha-beta) or tree depth (MCTS). A Limit with
    nothing set means "the engine's smallest sensible search" and is only used by the random player.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "depth"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value < 0):
                raise ValueError(f"Limit.{name} must be a non-negative number, not {value!r}")

    def scaled(self, factor: float) -> "Limit":
        """The same budget with `seconds` multiplied by `factor` (nodes and depth unchanged)."""
        if factor < 0:
            raise ValueError(f"a scale factor must be non-negative, not {factor!r}")
        return replace(self, seconds=None if self.seconds is None else self.seconds * factor)

    @property
    def is_bounded(self) -> bool:
        return self.seconds is not None or self.nodes is not None or self.depth is not None


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: a legal move, its value in [-1, 1] for the player to move, the
    principal line, and the work done."""

    move: Any
    value: float
    pv: list = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0


@dataclass(frozen=True)
class Lines:
    """What a multi-line search returns: the best `count` root moves, best first, each a
    `SearchResult` (its move, its value for the player to move, its principal line starting with
    that move); `value` is the first line's, i.e. the position's value for the player to move."""

    lines: list
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0

    @property
    def value(self) -> float:
        return self.lines[0].value if self.lines else 0.0


class Budget:
    """The running clock and node counter of one search.

    `clock` is wall-clock time (`time.perf_counter`). A benchmark that must give engines equal
    CPU time whatever else the machine runs may set `Budget.clock = time.process_time` in its own
    processes (bench/levels.py --cpu-time): every engine and solver reads the time only through
    it (`Budget.clock()`, `remaining()`), so a CPU-time budget reaches them all."""

    __slots__ = ("start", "deadline", "max_nodes", "nodes")
    clock = staticmethod(time.perf_counter)

    def __init__(self, limit: Limit) -> None:
        self.start = self.clock()
        self.deadline = (None if limit.seconds is None
                         else self.start + max(0.0, limit.seconds * TIME_SAFETY - TIME_MARGIN))
        self.max_nodes = limit.nodes
        self.nodes = 0

    def out_of_time(self) -> bool:
        return self.deadline is not None and self.clock() >= self.deadline

    def exhausted(self) -> bool:
        """True once the node budget or the clock is used up."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return self.out_of_time()

    def elapsed(self) -> float:
        return self.clock() - self.start

    def remaining(self) -> float | None:
        """Seconds left before the deadline on the budget's clock (None without a time bound)."""
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())


def split_limit(limit: Limit, parts: int) -> Limit:
    """One of `parts` equal shares of `limit` (at least one node, and one ply less of depth)."""
    return Limit(seconds=None if limit.seconds is None else limit.seconds / parts,
                 nodes=None if limit.nodes is None else max(1, limit.nodes // parts),
                 depth=None if limit.depth is None else max(1, limit.depth - 1))


# ---------------------------------------------------------------------------------------------
# Outcome → utility
# ---------------------------------------------------------------------------------------------
def outcome_rewards(state: State) -> tuple[float, ...]:
    """Per-seat reward in [0, 1] for a finished game: the game's scores when they already lie in
    [0, 1] (win 1, draw 0.5, loss 0), otherwise scores rescaled between the lowest and the highest
    (point-scoring games), or winners 1 and the rest 0 when all scores are equal but some seat won."""
    outcome = state.outcome
    scores = tuple(float(s) for s in outcome.scores)
    if scores and all(0.0 <= s <= 1.0 for s in scores):
        return scores
    low, high = min(scores), max(scores)
    if high > low:
        return tuple((s - low) / (high - low) for s in scores)
    if outcome.winners:
        return tuple(1.0 if seat in outcome.winners else 0.0 for seat in range(len(scores)))
    return tuple(0.5 for _ in scores)


def to_value(reward: float) -> float:
    """A [0, 1] expected score as a [-1, 1] value."""
    return max(-1.0, min(1.0, 2.0 * reward - 1.0))


# ---------------------------------------------------------------------------------------------
# Evaluators
# ---------------------------------------------------------------------------------------------
class Evaluator:
    """Per-game knowledge that searches share. The defaults know nothing about the game: every
    non-terminal position is even, moves keep their generated order, playouts are uniform.

    Subclasses override `evaluate` (and usually `order_moves` / `noisy_moves` for alpha-beta,
    `playout_move` for MCTS). Values are from `seat`'s point of view in [-1, 1].
    """

    #: MCTS playouts stop after this many plies and score the position with `rewards`.
    playout_cutoff: int = 200

    def evaluate(self, state: State, seat: int) -> float:
        """Heuristic value of a non-terminal `state` for `seat`, in [-1, 1]."""
        return 0.0

    def rewards(self, state: State) -> tuple[float, ...]:
        """Per-seat expected score in [0, 1]: exact when the game is over, else from `evaluate`."""
        if state.is_terminal:
            return outcome_rewards(state)
        return tuple((self.evaluate(state, seat) + 1.0) / 2.0 for seat in range(state.players))

    def order_moves(self, state: State, moves: list) -> list:
        """Moves in the order alpha-beta should try them (best first). An evaluator may also
        leave moves out here (forward pruning in games with huge move lists)."""
        return moves

    def root_moves(self, state: State, moves: list) -> list:
        """The root's move order; by default `order_moves`. Pruning evaluators return every
        move here (pruned choice first), so the root never misses a move outright."""
        return self.order_moves(state, moves)

    def noisy_moves(self, state: State, moves: list) -> list:
        """The moves quiescence search keeps looking at (captures, threats); none by default."""
        return []

    def table_key(self, state: State):
        """The transposition-table key of `state`; by default the (hashable) state itself."""
        return state

    def playout_move(self, state: State, moves: Sequence, rng: Random):
        """The MCTS rollout policy: one move among `moves` (all legal in `state`)."""
        return moves[rng.randrange(len(moves))]


# ---------------------------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------------------------
class Engine(ABC):
    """Base of every engine: a level name, its own default budget, and `search`."""

    def __init__(self, level: str, default_limit: Limit) -> None:
        self.level = level
        self.default_limit = default_limit

    def search(self, state: State, limit: Limit | None = None, rng: Random | None = None) -> SearchResult:
        """The move to play in `state` for `state.current_player` within `limit`."""
        if state.is_terminal:
            raise ValueError("the game is over; there is no move to search for")
        limit = self.default_limit if limit is None else limit
        rng = Random(0) if rng is None else rng
        budget = Budget(limit)
        result = self._search(state, limit, rng, budget)
        return replace(result, seconds=budget.elapsed())

    @abstractmethod
    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        """The engine's own search of a non-terminal `state` under `budget`."""

    def search_lines(self, state: State, count: int = 1, limit: Limit | None = None,
                     rng: Random | None = None) -> Lines:
        """The best `count` moves in `state` (multi-PV), best first, each with its value for
        `state.current_player` and its principal line, within `limit` (the whole search's)."""
        if state.is_terminal:
            raise ValueError("the game is over; there is no move to search for")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"a line count is a positive integer, not {count!r}")
        limit = self.default_limit if limit is None else limit
        rng = Random(0) if rng is None else rng
        budget = Budget(limit)
        found = self._lines(state, count, limit, rng, budget)
        return replace(found, seconds=budget.elapsed())

    def _lines(self, state: State, count: int, limit: Limit, rng: Random, budget: Budget) -> Lines:
        """Multi-PV for any engine, by its own search: one line is `_search`; more search the
        position after each legal move with an equal share of the budget (what the search says
        of that position, turned to the root mover's side) and keep the best `count`. Searches
        with a multi-PV of their own (alpha-beta, UCT) override this."""
        moves = list(state.legal_moves())
        if count == 1 or len(moves) == 1:
            found = self._search(state, limit, rng, budget)
            return Lines([found], nodes=found.nodes, depth=found.depth)
        share = split_limit(limit, len(moves))
        seat, scored = state.current_player, []
        for move in moves:
            child = state.apply(move)
            if child.is_terminal:
                budget.nodes += 1
                scored.append(SearchResult(move, to_value(outcome_rewards(child)[seat]), [move], 1))
                continue
            part = Budget(share)
            found = self._search(child, share, rng, part)
            budget.nodes += part.nodes
            value = found.value if child.current_player == seat else (
                -found.value if state.players == 2 else 0.0)
            scored.append(SearchResult(move, value, [move, *found.pv], part.nodes, depth=found.depth + 1))
        scored.sort(key=lambda line: -line.value)          # stable: ties keep the generated order
        return Lines(scored[:count], nodes=budget.nodes,
                     depth=max((line.depth for line in scored[:count]), default=0))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} {self.default_limit}>"
