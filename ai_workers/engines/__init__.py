"""Game engines (design §2b): position in, move and evaluation out, within a budget.

    from ai_workers.engines import get_engine, Limit
    engine = get_engine("hasami-shogi", "strong")
    result = engine.search(state, limit=Limit(seconds=1.0), rng=random.Random(0))
    result.move, result.value, result.pv, result.nodes, result.seconds

Pure: imports only `games` and the standard library. Levels are `LEVELS` (every game has them);
budgets are `DEFAULT_LIMITS` (random instant, easy 0.25 s, medium 1 s, strong 3 s). The engine
table (table.py) maps each slug to its engines; per-game modules fill it on import:

| game                                   | easy                 | medium / strong            |
|----------------------------------------|----------------------|----------------------------|
| hasami-shogi, dai-hasami-shogi,        | alpha-beta, 2 plies  | alpha-beta (hasami.py)     |
| mak-yek, latrunculi                    |                      |                            |
| pearl-five, pearl-war, pearl-yard      | alpha-beta, 1-3 plies| alpha-beta (pearl.py);     |
|                                        |                      | Yard strong: proofs first  |
| pearl-survival                         | alpha-beta (2 seats) or per-seat UCT (3-4 seats)   |
| pearl-maze (one seat)                  | anytime depth-first  | strong: proofs (solvers/)  |
| glaisher                               | alpha-beta, 1 ply    | pruned alpha-beta          |
| ring-rugby                             | alpha-beta, 2 plies  | alpha-beta (ring_rugby.py) |
| any other game                         | UCT                  | UCT (random rollouts)      |
| new-eleusis (hidden information)       | induction scientist, Prophet, God (eleusis.py)     |
| other hidden-information games         | PlainMovePolicy (own legal moves only)             |

In two-player games easy and medium also err on purpose on 25 % (Glaisher 40 %) and 10 % of their moves
(`table.ERROR_RATES`); `get_analyser` gives a level's engine without those errors.
Several games also offer an extra `uct` level (UCT with the game's evaluator) for comparison.
`solvers/` proves Pearl Maze and Pearl Yard (`manage.py solve`); `analysis.py` turns analysed
values into losses, classes and accuracy (docs/engines.md).
`search` raises ValueError for a finished game. `search_lines(state, count, limit, rng)` gives the
best `count` moves (multi-PV), each with its value and line: alpha-beta and UCT natively, any
other engine by searching the position after each move (`Engine._lines`).
"""
from .base import (
    LEVELS, Budget, Engine, Evaluator, Limit, Lines, SearchResult, SearchTimeout, UnknownLevelError,
    outcome_rewards, to_value,
)
from .alphabeta import AlphaBetaEngine
from .mcts import MCTSEngine
from .simple import PlainMovePolicy, RandomEngine
from .table import (
    DEFAULT_LIMITS, ENGINE_TABLE, get_analyser, get_engine, levels_for, register_levels,
)

# Per-game modules fill the engine table on import.
from . import glaisher, hasami, pearl, ring_rugby  # noqa: E402,F401
from . import eleusis  # noqa: E402,F401  (New Eleusis: induction scientist, Prophet calls, player God)

__all__ = [
    "AlphaBetaEngine", "DEFAULT_LIMITS", "ENGINE_TABLE", "LEVELS", "Budget", "Engine", "Evaluator",
    "Limit", "Lines", "MCTSEngine", "PlainMovePolicy", "RandomEngine", "SearchResult", "SearchTimeout",
    "UnknownLevelError", "get_analyser", "get_engine", "levels_for", "outcome_rewards", "register_levels",
    "to_value",
]
