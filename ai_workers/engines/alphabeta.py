"""Alpha-beta for two-seat games: negamax with principal-variation search, iterative deepening,
a transposition table, killer and history move ordering, and a capture quiescence search.

Scores are from the side to move's point of view in [-1, 1]: evaluator values are squeezed into
(-HEURISTIC_CAP, HEURISTIC_CAP), finished games score ±(1 - plies/1000) so a quicker win (or a
slower loss) is preferred, and draws score the game's own draw reward (0 for an even split).
States are hashable values, so the state itself is the table key (a repeated position that the
rules treat differently carries its history in the state, hence a different key).
"""
from __future__ import annotations

from random import Random

from games import State

from .base import (
    Budget, Engine, Evaluator, Limit, Lines, SearchResult, SearchTimeout, outcome_rewards,
)
from .mcts import MCTSEngine

HEURISTIC_CAP = 0.9
MATE_STEP = 0.001
TIME_CHECK_NODES = 8            # slow games spend ~1 ms a node: check the clock often
TABLE_LIMIT = 400_000            # positions kept before the table is cleared (memory bound)
MAX_DEPTH = 64
QUIESCENCE_DEPTH = 6

EXACT, LOWER, UPPER = 0, 1, 2


class AlphaBetaEngine(Engine):
    """Iterative-deepening alpha-beta. `Limit.depth` and the engine's own `max_depth` (a level
    setting) cap the nominal depth. Other seat counts are searched by UCT with the same evaluator
    (`fallback`). A game's own search refinements subclass `_Search` and name it in
    `search_class`."""

    search_class: type | None = None     # None: the generic `_Search`

    def __init__(self, level: str, default_limit: Limit, evaluator: Evaluator | None = None,
                 quiescence: bool = True, max_depth: int = MAX_DEPTH,
                 fallback: Engine | None = None) -> None:
        super().__init__(level, default_limit)
        self.evaluator = evaluator or Evaluator()
        self.quiescence = quiescence
        self.max_depth = max_depth
        self.fallback = fallback or MCTSEngine(level, default_limit, self.evaluator)

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        if state.players != 2:
            return self.fallback._search(state, limit, rng, budget)
        if not limit.is_bounded:
            limit = Limit(depth=1)
        depth = min(limit.depth or MAX_DEPTH, self.max_depth)
        return (self.search_class or _Search)(self, state, rng, budget).run(depth)

    def _lines(self, state: State, count: int, limit: Limit, rng: Random, budget: Budget) -> Lines:
        """Multi-PV alpha-beta: the root keeps the `count` best moves exact (`_Search.run_lines`)."""
        if state.players != 2:
            return self.fallback._lines(state, count, limit, rng, budget)
        if not limit.is_bounded:
            limit = Limit(depth=1)
        depth = min(limit.depth or MAX_DEPTH, self.max_depth)
        search = (self.search_class or _Search)(self, state, rng, budget)
        lines = search.run_lines(depth, count)
        return Lines(lines, nodes=budget.nodes, depth=search.depth_done)


class _Search:
    """The state of one alpha-beta search (tables live for a single `search` call)."""

    def __init__(self, engine: AlphaBetaEngine, root: State, rng: Random, budget: Budget) -> None:
        self.evaluator = engine.evaluator
        self.key = engine.evaluator.table_key
        self.use_quiescence = engine.quiescence
        self.root = root
        self.budget = budget
        self.table: dict = {}
        self.killers: list[list] = [[None, None] for _ in range(MAX_DEPTH + QUIESCENCE_DEPTH + 2)]
        self.history: dict = {}
        moves = list(root.legal_moves())
        rng.shuffle(moves)               # variety between equal moves, reproducible per rng
        self.root_moves = self.evaluator.root_moves(root, moves)

    # -- driver --------------------------------------------------------------------------------
    def run(self, max_depth: int) -> SearchResult:
        best_move, best_value, depth_done = self.root_moves[0], None, 0
        if len(self.root_moves) == 1:
            max_depth = min(max_depth, 1)
        for depth in range(1, max_depth + 1):
            self.iteration_depth = depth
            try:
                move, value = self._root(depth, best_move)
            except SearchTimeout:
                move, value = self.partial
                if move is not None:
                    best_move, best_value = move, value
                break
            best_move, best_value, depth_done = move, value, depth
            if abs(value) >= 1.0 - MATE_STEP * MAX_DEPTH or self.budget.exhausted():
                break
        if best_value is None:      # not even depth 1 finished: a static guess
            seat = self.root.current_player
            child = self.root.apply(best_move)
            best_value = (self._terminal(child, seat, 1) if child.is_terminal
                          else self._static(child) * (1 if child.current_player == seat else -1))
        pv = self._pv(best_move, max(depth_done, 1))
        return SearchResult(move=best_move, value=max(-1.0, min(1.0, best_value)), pv=pv,
                            nodes=self.budget.nodes, depth=depth_done)

    def run_lines(self, max_depth: int, count: int) -> list[SearchResult]:
        """Iterative deepening that keeps the `count` best root moves exact (multi-PV): each
        iteration searches every root move, the first `count` with a full window and the rest
        with a null window at the `count`-th best value, re-searched when they beat it. The lines
        of the deepest finished iteration, best first (before any: each move's static value)."""
        count = min(count, len(self.root_moves))
        if count == 1:
            found = self.run(max_depth)
            self.depth_done = found.depth
            return [found]
        self.prepare_lines(max_depth)
        max_depth = self.max_lines_depth
        done, self.depth_done = None, 0
        for depth in range(1, max_depth + 1):
            self.iteration_depth = depth
            try:
                scored = self._root_lines(depth, count)
            except SearchTimeout:
                break
            done, self.depth_done = scored, depth
            if self.budget.exhausted() or all(abs(v) >= 1.0 - MATE_STEP * MAX_DEPTH for v, _ in scored):
                break
        if done is None:
            done = sorted(((self._static_after(m), m) for m in self.root_moves),
                          key=lambda vm: -vm[0])[:count]
        depth = max(self.depth_done, 1)
        return [SearchResult(move=m, value=max(-1.0, min(1.0, v)), pv=self._pv(m, depth),
                             depth=self.depth_done) for v, m in done]

    def prepare_lines(self, max_depth: int) -> None:
        """A hook for searches that adjust the root before a multi-PV search (FiveSearch)."""
        self.max_lines_depth = max_depth

    def _static_after(self, move) -> float:
        seat, child = self.root.current_player, self.root.apply(move)
        if child.is_terminal:
            return self._terminal(child, seat, 1)
        return self._static(child) * (1 if child.current_player == seat else -1)

    def _root_lines(self, depth: int, count: int) -> list[tuple[float, object]]:
        seat, scored = self.root.current_player, []
        for move in self.root_moves:
            child = self.root.apply(move)
            floor = -2.0 if len(scored) < count else sorted(v for v, _ in scored)[-count]
            if floor <= -2.0:
                value = self._child(child, seat, depth - 1, -2.0, 2.0, 1)
            else:
                value = self._child(child, seat, depth - 1, floor, floor + 1e-9, 1)
                if value > floor:
                    value = self._child(child, seat, depth - 1, floor, 2.0, 1)
            scored.append((value, move))
        ranked = sorted(scored, key=lambda vm: -vm[0])       # stable: ties keep the search order
        self.root_moves = [m for _, m in ranked]
        return ranked[:count]

    def _root(self, depth: int, previous_best) -> tuple:
        moves = [previous_best] + [m for m in self.root_moves if m != previous_best]
        seat, alpha, best = self.root.current_player, -2.0, None
        self.partial = (None, None)
        for i, move in enumerate(moves):
            child = self.root.apply(move)
            if i == 0:
                value = self._child(child, seat, depth - 1, -2.0, 2.0, 1)
            else:
                value = self._child(child, seat, depth - 1, alpha, alpha + 1e-9, 1)
                if value > alpha:
                    value = self._child(child, seat, depth - 1, alpha, 2.0, 1)
            if value > alpha:
                alpha, best = value, move
                self.partial = (best, alpha)
        self.root_moves = [best] + [m for m in moves if m != best]
        return best, alpha

    # -- the tree ------------------------------------------------------------------------------
    def _tick(self) -> None:
        budget = self.budget
        budget.nodes += 1
        if budget.max_nodes is not None and budget.nodes >= budget.max_nodes:
            raise SearchTimeout
        if budget.nodes % TIME_CHECK_NODES == 0 and budget.out_of_time():
            raise SearchTimeout

    def _terminal(self, state: State, seat: int, ply: int) -> float:
        value = 2.0 * outcome_rewards(state)[seat] - 1.0
        if value > 0.5:
            return value - MATE_STEP * ply
        if value < -0.5:
            return value + MATE_STEP * ply
        return value

    def _child(self, child: State, seat: int, depth: int, alpha: float, beta: float,
               ply: int, quiet: bool = False) -> float:
        """The value of `child` for `seat` (the seat that moved into it) in the window
        (alpha, beta). Works whether the turn passed to the opponent or stayed with `seat`."""
        if child.is_terminal:
            self._tick()
            return self._terminal(child, seat, ply)
        search = self._quiesce if quiet else self._negamax
        if child.current_player == seat:
            return search(child, depth, alpha, beta, ply)
        return -search(child, depth, -beta, -alpha, ply)

    def _static(self, state: State) -> float:
        value = self.evaluator.evaluate(state, state.current_player)
        return max(-HEURISTIC_CAP, min(HEURISTIC_CAP, value * HEURISTIC_CAP))

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of the non-terminal `state` for its player to move."""
        self._tick()
        if depth <= 0:
            return self._quiesce(state, QUIESCENCE_DEPTH, alpha, beta, ply)
        key = self.key(state)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta)
                                     or (e_flag == UPPER and e_value <= alpha)):
                return e_value
        seat, alpha0, best, best_move = state.current_player, alpha, -2.0, None
        for i, move in enumerate(self._ordered(state, tt_move, ply)):
            child = state.apply(move)
            if i == 0:
                value = self._child(child, seat, depth - 1, alpha, beta, ply + 1)
            else:
                value = self._child(child, seat, depth - 1, alpha, alpha + 1e-9, ply + 1)
                if alpha < value < beta:
                    value = self._child(child, seat, depth - 1, alpha, beta, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, depth, ply)
                        break
        flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, best, flag, best_move)
        return best

    def _quiesce(self, state: State, qdepth: int, alpha: float, beta: float, ply: int) -> float:
        """Stand pat on the evaluation, or improve on it with the evaluator's noisy moves."""
        stand = self._static(state)
        if not self.use_quiescence or qdepth <= 0 or stand >= beta:
            return stand
        alpha, best, seat = max(alpha, stand), stand, state.current_player
        for move in self.evaluator.noisy_moves(state, state.legal_moves()):
            self._tick()
            value = self._child(state.apply(move), seat, qdepth - 1, alpha, beta, ply + 1, True)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    # -- ordering and tables -------------------------------------------------------------------
    def _ordered(self, state: State, tt_move, ply: int) -> list:
        moves = self.evaluator.order_moves(state, state.legal_moves())
        history = self.history
        if history:
            moves = sorted(moves, key=lambda m: -history.get(m, 0))
        front = [m for m in (tt_move, *self.killers[ply]) if m is not None and m in moves]
        if front:
            seen = set()
            front = [m for m in front if not (m in seen or seen.add(m))]
            moves = front + [m for m in moves if m not in seen]
        return moves

    def _reward(self, move, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _pv(self, first, depth: int) -> list:
        pv, state, seen = [first], self.root.apply(first), set()
        while len(pv) < depth and not state.is_terminal and state not in seen:
            seen.add(state)
            entry = self.table.get(self.key(state))
            if entry is None or entry[3] is None:
                break
            pv.append(entry[3])
            state = state.apply(entry[3])
        return pv
