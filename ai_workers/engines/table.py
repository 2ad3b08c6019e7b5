"""The engine table: for each game slug, the engine behind every level.

A game without its own entry gets the generic table (plain UCT at growing budgets), or, if it has
hidden information, the hidden-information policy table. Per-game modules add their own entries with
`register_levels`; replacing a game's engine is one call, never a branch in the code.
"""
from __future__ import annotations

from typing import Callable, Mapping

import games

from .alphabeta import AlphaBetaEngine
from .base import LEVELS, Engine, Evaluator, Limit, UnknownLevelError
from .mcts import MCTSEngine
from .simple import Erring, PlainMovePolicy, RandomEngine

EngineFactory = Callable[[], Engine]

#: Each level's own budget for a server reply (design §2b): random instant, then ~0.25 s, 1 s, 3 s.
DEFAULT_LIMITS: Mapping[str, Limit] = {
    "random": Limit(nodes=1),
    "easy": Limit(seconds=0.25),
    "medium": Limit(seconds=1.0),
    "strong": Limit(seconds=3.0),
}


#: The share of moves the searching levels of two-player games replace by a random legal move
#: (measured by bench.levels: without it, easy and medium draw each other and the next level).
ERROR_RATES: Mapping[str, float] = {"easy": 0.25, "medium": 0.1, "strong": 0.0}


def per_level(make: Callable[[str, Limit], Engine],
              error_rates: Mapping[str, float] | None = None) -> dict[str, EngineFactory]:
    """random, then `make(level, budget)` at each further level's default budget; with
    `error_rates`, each level errs at its share of moves."""
    rates = error_rates or {}
    table: dict[str, EngineFactory] = {"random": RandomEngine}
    for level in LEVELS[1:]:
        if rates.get(level):
            table[level] = lambda level=level: Erring(make(level, DEFAULT_LIMITS[level]), rates[level])
        else:
            table[level] = lambda level=level: make(level, DEFAULT_LIMITS[level])
    return table


def mcts_levels(evaluator: Callable[[], Evaluator] = Evaluator, **settings) -> dict[str, EngineFactory]:
    """random + UCT at the easy, medium and strong budgets, with one evaluator and settings
    (easy and medium erring at their ERROR_RATES)."""
    return per_level(lambda level, limit: MCTSEngine(level, limit, evaluator(), **settings),
                     ERROR_RATES)


def alphabeta_levels(evaluator: Callable[[], Evaluator], easy_depth: int = 2,
                     error_rates: Mapping[str, float] = ERROR_RATES) -> dict[str, EngineFactory]:
    """random; easy: alpha-beta `easy_depth` plies deep; medium and strong: full alpha-beta
    (easy and medium erring at `error_rates`);
    `uct` (extra level): UCT with the same evaluator at the medium budget, for comparison."""
    def make(level: str, limit: Limit) -> Engine:
        depth = {"max_depth": easy_depth} if level == "easy" else {}
        return AlphaBetaEngine(level, limit, evaluator(), **depth)
    return {**per_level(make, error_rates),
            "uct": lambda: MCTSEngine("uct", DEFAULT_LIMITS["medium"], evaluator())}


GENERIC_LEVELS: Mapping[str, EngineFactory] = mcts_levels()

HIDDEN_LEVELS: Mapping[str, EngineFactory] = per_level(PlainMovePolicy)

ENGINE_TABLE: dict[str, Mapping[str, EngineFactory]] = {}


def register_levels(slug: str, levels: Mapping[str, EngineFactory]) -> None:
    """Give `slug` its own engines; every level of LEVELS must be present (more are allowed)."""
    missing = [level for level in LEVELS if level not in levels]
    if missing:
        raise ValueError(f"engine table for {slug} lacks levels {missing}")
    ENGINE_TABLE[slug] = dict(levels)


def levels_for(slug: str) -> Mapping[str, EngineFactory]:
    """The level table that serves `slug` (UnknownGameError for a game that does not exist)."""
    game = games.get_game(slug)
    if slug in ENGINE_TABLE:
        return ENGINE_TABLE[slug]
    return HIDDEN_LEVELS if game.has_hidden_information else GENERIC_LEVELS


def get_engine(slug: str, level: str) -> Engine:
    """A fresh engine for `slug` at `level` (UnknownLevelError, a ValueError, for other levels)."""
    table = levels_for(slug)
    try:
        factory = table[level]
    except (KeyError, TypeError):
        raise UnknownLevelError(
            f"unknown engine level {level!r} for {slug}; choose from {list(table)}") from None
    return factory()


def get_analyser(slug: str, level: str) -> Engine:
    """`slug`'s engine at `level` without its deliberate errors: analysis reports what the level's
    search finds, never a move it played on purpose at random."""
    engine = get_engine(slug, level)
    return engine.searcher if isinstance(engine, Erring) else engine
