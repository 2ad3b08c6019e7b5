"""Engines that play proofs: the strong levels of Pearl Maze and Pearl Yard (docs/rules/pearl.md §10).

Both read the solution files `manage.py solve --cache` writes (solvers/cache.py) and otherwise
prove what they can within their budget with the solvers of `solvers/`; where no proof is found
in time they fall back on search (Maze: an anytime longest-walk search; Yard: alpha-beta).
"""
from __future__ import annotations

import math
from random import Random

from games import State

from .base import Budget, Engine, Limit, SearchResult, SearchTimeout
from .solvers import maze, yard

#: The part of the remaining budget a strong level spends on proving before it searches.
PROOF_SHARE = 0.6
YARD_PROOF_SHARE = 0.8     # Yard is solved play: proofs matter more than the fallback
MATE_STEP = 0.001          # as alpha-beta: a win in k plies is worth 1 − k/1000
YARD_TABLE_LIMIT = 500_000  # entries of the in-process Yard table (memory bound per worker)
YARD_MAX_PLIES = 40


def _share(budget: Budget, share: float) -> dict:
    """Solver limits for `share` of what is left of the budget (time and nodes)."""
    limits: dict = {}
    if budget.deadline is not None:
        limits["seconds"] = budget.remaining() * share
    if budget.max_nodes is not None:
        limits["max_nodes"] = max(1, int((budget.max_nodes - budget.nodes) * share))
    return limits


# ---------------------------------------------------------------------------------------------
# Pearl Maze (§5): proofs, then an anytime depth-first search.
# ---------------------------------------------------------------------------------------------
class _SliceOver(Exception):
    """One first step's share of the budget is spent (MazeSearch)."""


class MazeSearch(Engine):
    """Longest-walk (or reach-the-goal) search for `pearl-maze`.

    With `proofs` (the strong level), in max mode: a position a solution file covers plays its
    proven step; otherwise the solver (solvers/maze.py) tries to prove the longest walk within
    PROOF_SHARE of the budget, using the files' positions as proved; failing that, the anytime
    search below.

    The anytime search: a depth-first search over (whites, black) positions, deepest first,
    memoising each finished position's longest continuation. Each first step gets an equal
    share of the budget, and the longest walk seen decides the move. In goal mode it stops at
    the first walk that reaches the goal. The value: +1 for a reached goal, -1 for a goal proved
    unreachable, otherwise the walk length L mapped to tanh(L / 40) in max mode (0 while a goal
    is still unseen).
    """

    def __init__(self, level: str, default_limit: Limit, proofs: bool = False) -> None:
        super().__init__(level, default_limit)
        self.proofs = proofs

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        if self.proofs and state.goal < 0:
            proved = self._proved(state, limit, budget)
            if proved is not None:
                return proved
        return self._solve(state, limit, rng, budget)

    def _proved(self, state, limit: Limit, budget: Budget) -> SearchResult | None:
        """The longest walk from a solution file or a proof within the budget's share."""
        solver = maze.MazeSolver(state.size, state.push_off,
                                 proven=maze.cached_proofs(state.size, state.push_off))
        occ, black = state.whites | (1 << state.black), state.black
        if (occ << maze.KEY_SHIFT) | black not in solver.proven:
            if not limit.is_bounded:
                return None
            found = maze.solve(state, solver=solver, **_share(budget, PROOF_SHARE))
            budget.nodes += found.positions
            if not found.proven:
                return None
        length = solver.memo[(occ << maze.KEY_SHIFT) | black]
        line, s = [], state
        for step in self._proven_line(solver, occ, black, budget):
            line.append(s.parse_move(step))
            s = s.apply(line[-1])
        if not line:
            return None
        return SearchResult(move=line[0], value=math.tanh(length / 40.0), pv=line,
                            nodes=budget.nodes, depth=length)

    def _solve(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        if limit.seconds is None and limit.nodes is None:
            budget.max_nodes = 1
        self.budget, self.best_line, self.memo = budget, [], {}
        self.slice_nodes = self.slice_deadline = None
        self.goal_mode = state.goal >= 0
        self.found_goal = False
        if self.goal_mode:
            complete = True
            try:
                self._walk(state, rng)
            except SearchTimeout:
                complete = False
            line = self.best_line
        else:
            line, complete = self._split_walk(state, rng)
        line = line or [state.legal_moves()[0]]
        return SearchResult(move=line[0], value=self._value(line, complete), pv=list(line),
                            nodes=budget.nodes, depth=len(line))

    def _split_walk(self, root: State, rng: Random) -> tuple[list, bool]:
        """Max mode: the budget is shared out among the first steps, so every one of them is
        explored (one deep walk alone would spend it all under the first step)."""
        children = self._children(root, rng)[::-1]          # best first
        lines, complete = [], True
        for i, (move, child) in enumerate(children):
            self._slice(len(children) - i)
            self.best_line = []
            try:
                self._walk(child, rng)
                lines.append([move] + self._line_from_memo(child))
            except _SliceOver:
                lines.append([move] + self.best_line)
                complete = False
            except SearchTimeout:
                lines.append([move] + self.best_line)
                return max(lines, key=len), False
        return max(lines, key=len), complete

    def _slice(self, shares: int) -> None:
        """This first step's part of what is left of the budget (nodes and time)."""
        budget = self.budget
        if budget.max_nodes is not None:
            self.slice_nodes = budget.nodes + max(1, (budget.max_nodes - budget.nodes) // shares)
        if budget.deadline is not None:
            self.slice_deadline = budget.clock() + budget.remaining() / shares

    def _value(self, line: list, complete: bool) -> float:
        if self.goal_mode:
            if self.found_goal:
                return 1.0
            return -1.0 if complete else 0.0
        return math.tanh(len(line) / 40.0)

    @staticmethod
    def _proven_line(solver, occ: int, black: int, budget: Budget) -> list[str]:
        """The proved walk: steps the solver knows, then the (small) rest proved on the spot."""
        line = []
        solver.max_nodes, solver.deadline = None, budget.deadline
        while True:
            try:
                step = solver.proved_step(occ, black)
            except maze.SolverTimeout:
                return line
            if step is None:
                return line
            line.append(maze.LETTERS[step[0]])
            _, occ, black = step

    def _key(self, state):
        return state.whites, state.black

    def _tick(self) -> None:
        budget = self.budget
        budget.nodes += 1
        if (budget.max_nodes is not None and budget.nodes >= budget.max_nodes) or (
                budget.nodes % 64 == 0 and budget.out_of_time()):
            raise SearchTimeout
        if (self.slice_nodes is not None and budget.nodes >= self.slice_nodes) or (
                self.slice_deadline is not None and budget.nodes % 64 == 0
                and budget.clock() >= self.slice_deadline):
            raise _SliceOver

    def _walk(self, root: State, rng: Random) -> None:
        """Iterative depth-first search; `memo[key]` = (longest continuation from key, its
        first move)."""
        path: list = []
        stack = [(root, self._children(root, rng), 0, None)]
        while stack:
            state, children, best_len, best_move = stack[-1]
            if children:
                move, child = children.pop()
                key = self._key(child)
                if self.goal_mode and child.outcome is not None and child.outcome.winners:
                    self._record(path + [move])
                    self.found_goal = True
                    return
                known = self.memo.get(key)
                if known is not None:
                    if known[0] + 1 > best_len:
                        stack[-1] = (state, children, known[0] + 1, move)
                    continue
                self._tick()
                path.append(move)
                stack.append((child, self._children(child, rng), 0, None))
                continue
            stack.pop()
            self.memo[self._key(state)] = (best_len, best_move)
            if len(path) > len(self.best_line):
                self._record(path)
            if path:
                move = path.pop()
                parent, siblings, parent_len, parent_move = stack[-1]
                if best_len + 1 > parent_len:
                    stack[-1] = (parent, siblings, best_len + 1, move)

    def _line_from_memo(self, state: State) -> list:
        line = []
        entry = self.memo.get(self._key(state))
        while entry is not None and entry[1] is not None:
            line.append(entry[1])
            state = state.apply(entry[1])
            entry = self.memo.get(self._key(state))
        return line

    def _record(self, path: list) -> None:
        self.best_line = list(path)

    def _children(self, state: State, rng: Random) -> list:
        if state.is_terminal:
            return []
        moves = state.legal_moves()
        rng.shuffle(moves)
        children = [(m, state.apply(m)) for m in moves]
        if self.goal_mode:      # nearest to the goal last, so it is popped first
            g, goal = state.grid, state.goal
            children.sort(key=lambda mc: -(abs(mc[1].black % g.w - goal % g.w)
                                           + abs(mc[1].black // g.w - goal // g.w)))
        else:                   # most continuations last: explore roomy positions first
            children.sort(key=lambda mc: len(mc[1].legal_moves()))
        return children




# ---------------------------------------------------------------------------------------------
# Pearl Yard (§7): proven moves where a proof exists, alpha-beta elsewhere.
# ---------------------------------------------------------------------------------------------
_YARD_SOLVERS: dict[int, yard.YardSolver] = {}


def yard_solver(size: int) -> yard.YardSolver:
    """The process's solver for a board size: its table keeps what earlier searches proved."""
    if size not in _YARD_SOLVERS:
        _YARD_SOLVERS[size] = yard.YardSolver(size, table_limit=YARD_TABLE_LIMIT)
    return _YARD_SOLVERS[size]


class YardProofs(Engine):
    """Pearl Yard's strong level. The side that can force a win plays its quickest forced win;
    the side that cannot avoid a loss plays the move that lasts longest; both from a solution
    file when it covers the position, else proved within YARD_PROOF_SHARE of the budget by
    iterative deepening (the solver's table lives as long as the process). Otherwise `fallback`
    searches.
    Values: ±(1 − plies/1000) for a proved win or loss in `plies`, as alpha-beta scores them."""

    def __init__(self, level: str, default_limit: Limit, fallback: Engine,
                 max_plies: int = YARD_MAX_PLIES) -> None:
        super().__init__(level, default_limit)
        self.fallback = fallback
        self.max_plies = max_plies

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        found = self._from_file(state, budget) or self._proved(state, limit, budget)
        if found is not None:
            return found
        return self.fallback._search(state, limit, rng, budget)

    def _result(self, state, line: list[str], plies: int, won: bool,
                budget: Budget) -> SearchResult:
        moves, s = [], state
        for text in line:
            moves.append(s.parse_move(text))
            s = s.apply(moves[-1])
            if s.is_terminal:
                break
        value = 1.0 - MATE_STEP * plies
        return SearchResult(move=moves[0], value=value if won else -value, pv=moves,
                            nodes=budget.nodes, depth=plies)

    def _from_file(self, state, budget: Budget) -> SearchResult | None:
        table = yard.cached_proofs(state.size)
        node = yard.node_of(state)
        known = table.get(yard.node_key(node))
        if known is None:
            return None
        line = []
        while known is not None:
            line.append(known[0])
            node = next((c for m, c, _ in yard_solver(state.size).children(node) if m == known[0]),
                        None)
            known = table.get(yard.node_key(node)) if node is not None else None
        move, plies, winner = table[yard.node_key(yard.node_of(state))]
        return self._result(state, line, plies, winner == state.current_player, budget)

    def _proved(self, state, limit: Limit, budget: Budget) -> SearchResult | None:
        if not limit.is_bounded:
            return None
        solver, node = yard_solver(state.size), yard.node_of(state)
        me = state.current_player
        limits = _share(budget, YARD_PROOF_SHARE)
        solver.nodes, solver.max_nodes = 0, limits.get("max_nodes")
        solver.deadline = budget.clock() + limits["seconds"] if "seconds" in limits else None
        try:
            for depth in range(1, self.max_plies + 1):
                if solver.wins(node, me, depth):
                    return self._result(state, solver.line(node, me, depth), depth, True, budget)
                if solver.wins(node, 1 - me, depth):
                    return self._longest_defence(state, solver, node, depth, budget)
        except yard.SolverTimeout:
            return None
        finally:
            budget.nodes += solver.nodes
            solver.max_nodes = solver.deadline = None
        return None

    def _longest_defence(self, state, solver, node, depth: int, budget: Budget) -> SearchResult:
        """Lost within `depth`: the move after which the opponent's quickest win is slowest."""
        opponent = 1 - node[3]
        lasting = []
        for move, child, result in solver.children(node):
            plies = 0 if result is not None else solver.distance(child, opponent, depth - 1) or 0
            lasting.append((plies, move, child, result))
        plies, move, child, result = max(lasting, key=lambda entry: entry[0])
        tail = solver.line(child, opponent, plies) if result is None else []
        return self._result(state, [move] + tail, plies + 1, False, budget)
