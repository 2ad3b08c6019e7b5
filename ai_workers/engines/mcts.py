"""Monte Carlo tree search (UCT) for any number of seats.

Each node keeps a reward total per seat (expected score in [0, 1]); the seat to move at a node picks
the child that is best for *that seat* (per-seat UCT values, the n-player generalisation of UCT that
reduces to plain UCT with two seats and to a puzzle search with one). Rollouts follow the
evaluator's playout policy and stop after `playout_cutoff` plies, where the evaluator scores the
position. Terminal children are recognised on expansion, so a win in one is taken at once.
"""
from __future__ import annotations

import math
from random import Random

from games import State

from .base import Budget, Engine, Evaluator, Limit, Lines, SearchResult, SearchTimeout, to_value

DEPTH_ONLY_ITERATIONS = 1000   # a Limit with only `depth` set: this many iterations
TIME_CHECK_PLIES = 16       # rollouts check the clock this often, so one long rollout cannot overrun


class Node:
    __slots__ = ("state", "move", "children", "untried", "visits", "totals", "player")

    def __init__(self, state: State, move) -> None:
        self.state = state
        self.move = move
        self.children: list[Node] = []
        self.untried: list | None = None       # filled (and shuffled) on the first visit
        self.visits = 0
        self.totals = [0.0] * state.players
        self.player = state.current_player

    def expandable(self, rng: Random) -> bool:
        if self.untried is None:
            self.untried = [] if self.state.is_terminal else list(self.state.legal_moves())
            rng.shuffle(self.untried)
        return bool(self.untried)

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.5


class MCTSEngine(Engine):
    """UCT with an evaluator for rollout policy and cut-off scoring.

    `exploration` is the UCB1 constant on rewards in [0, 1]; `cutoff` overrides the evaluator's
    playout length (0: score the expanded node with the evaluator directly, no rollout).
    """

    def __init__(self, level: str, default_limit: Limit, evaluator: Evaluator | None = None,
                 exploration: float = 0.7, cutoff: int | None = None) -> None:
        super().__init__(level, default_limit)
        self.evaluator = evaluator or Evaluator()
        self.exploration = exploration
        self.cutoff = self.evaluator.playout_cutoff if cutoff is None else cutoff

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        return self._result(self._grow(state, limit, rng, budget), state, budget, rng)

    def _lines(self, state: State, count: int, limit: Limit, rng: Random, budget: Budget) -> Lines:
        """Multi-PV UCT: the `count` most visited root moves, each with its mean result for the
        player to move and its most visited line."""
        root = self._grow(state, limit, rng, budget)
        if not root.children:
            found = self._result(root, state, budget, rng)
            return Lines([found], nodes=budget.nodes, depth=found.depth)
        seat = state.current_player
        ranked = sorted(root.children, key=lambda n: (-n.visits, -n.mean(seat)))[:count]
        lines = []
        for child in ranked:
            pv, node = [child.move], child
            while node.children:
                node = max(node.children, key=lambda n, parent=node: (n.visits, n.mean(parent.player)))
                pv.append(node.move)
            lines.append(SearchResult(move=child.move, value=to_value(child.mean(seat)), pv=pv,
                                      nodes=child.visits, depth=len(pv)))
        return Lines(lines, nodes=budget.nodes, depth=max(line.depth for line in lines))

    def _grow(self, state: State, limit: Limit, rng: Random, budget: Budget) -> Node:
        root = Node(state, None)
        root.expandable(rng)
        if limit.seconds is None and limit.nodes is None:
            budget.max_nodes = DEPTH_ONLY_ITERATIONS if limit.depth else 1
        while not budget.exhausted():
            try:
                self._iterate(root, rng, budget, limit.depth)
            except SearchTimeout:
                break
            budget.nodes += 1
        return root

    # -- one iteration -------------------------------------------------------------------------
    def _iterate(self, root: Node, rng: Random, budget: Budget, max_depth: int | None) -> None:
        node, path, depth = root, [root], 0
        while not node.expandable(rng) and node.children:
            node = self._select(node)
            path.append(node)
            depth += 1
        if node.untried and (max_depth is None or depth < max_depth):
            move = node.untried.pop()
            child = Node(node.state.apply(move), move)
            rewards = self._rollout(child.state, rng, budget)
            node.children.append(child)     # only once its rollout finished: visits stay > 0
            path.append(child)
        else:
            rewards = self._rollout(node.state, rng, budget)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat, reward in enumerate(rewards):
                totals[seat] += reward

    def _select(self, node: Node) -> Node:
        seat, log_n = node.player, math.log(node.visits + 1)
        c = self.exploration
        best, best_score = None, -1.0
        for child in node.children:
            score = child.totals[seat] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _rollout(self, state: State, rng: Random, budget: Budget) -> tuple[float, ...]:
        evaluator, plies = self.evaluator, 0
        while not state.is_terminal and plies < self.cutoff:
            state = state.apply(evaluator.playout_move(state, state.legal_moves(), rng))
            plies += 1
            if plies % TIME_CHECK_PLIES == 0 and budget.out_of_time():
                raise SearchTimeout
        return evaluator.rewards(state)

    # -- the answer ----------------------------------------------------------------------------
    def _result(self, root: Node, state: State, budget: Budget, rng: Random) -> SearchResult:
        seat = state.current_player
        if not root.children:      # no iteration finished: fall back to the first untried move
            move = root.untried[-1]
            return SearchResult(move=move, value=0.0, pv=[move], nodes=budget.nodes)
        best = max(root.children, key=lambda n: (n.visits, n.mean(seat)))
        pv, node = [], root
        while node.children:
            node = max(node.children, key=lambda n: (n.visits, n.mean(node.player)))
            pv.append(node.move)
        return SearchResult(move=best.move, value=to_value(best.mean(seat)), pv=pv,
                            nodes=budget.nodes, depth=len(pv))
