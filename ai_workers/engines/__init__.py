"""Game engines (design §2b): position in, move and evaluation out, within a budget.

    from ai_workers.engines import get_engine, Limit
    engine = get_engine("hasami-shogi", "strong")
    result = engine.search(state, limit=Limit(seconds=1.0), rng=random.Random(0))
    result.move, result.value, result.pv, result.nodes, result.seconds

Pure: imports only `games` and the standard library. Levels are `LEVELS` (every game has them).
"""
from .base import (
    LEVELS, Budget, Engine, Evaluator, Limit, SearchResult, SearchTimeout, UnknownLevelError,
    outcome_rewards, to_value,
)
from .alphabeta import AlphaBetaEngine
from .mcts import MCTSEngine
from .simple import PlainMovePolicy, RandomEngine
from .table import DEFAULT_LIMITS, ENGINE_TABLE, get_engine, levels_for, register_levels

from . import glaisher, hasami, pearl, ring_rugby  # noqa: E402,F401  (per-game modules fill the engine table on import)

__all__ = [
    "AlphaBetaEngine", "DEFAULT_LIMITS", "ENGINE_TABLE", "LEVELS", "Budget", "Engine", "Evaluator", "Limit",
    "MCTSEngine", "PlainMovePolicy", "RandomEngine", "SearchResult", "SearchTimeout",
    "UnknownLevelError", "get_engine", "levels_for", "outcome_rewards", "register_levels",
    "to_value",
]
