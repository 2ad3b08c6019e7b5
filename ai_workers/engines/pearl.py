"""Engines for the Glass Pearl games (docs/rules/pearl.md §10): evaluators for `pearl-five`,
`pearl-war` and `pearl-yard`, and a solver for the one-seat `pearl-maze`.

Evaluators read the public state attributes (bitboards on the lattice of games/pearl/board.py,
point y*(N+1)+x) and the game's grid.
"""
from __future__ import annotations

import math
import time
from functools import lru_cache
from random import Random

import games
from games import State
from games.pearl import push

from .alphabeta import AlphaBetaEngine
from .base import Budget, Engine, Evaluator, Limit, SearchResult, SearchTimeout
from .mcts import MCTSEngine
from .simple import RandomEngine
from .table import DEFAULT_LIMITS, register_levels


def _runs(men: int, stride: int, length: int) -> int:
    run = men
    for i in range(1, length):
        run &= men >> (stride * i)
    return run.bit_count()


def _open_runs(men: int, empty: int, stride: int, length: int) -> int:
    """Runs of `length` with an empty point at one end at least (they can still grow)."""
    run = men
    for i in range(1, length):
        run &= men >> (stride * i)
    open_ends = (empty << stride) | (empty >> (stride * length))
    return (run & open_ends).bit_count()


# ---------------------------------------------------------------------------------------------
# Pearl Five (§4, §10): lines of both colours; pushes move lines of either colour.
# ---------------------------------------------------------------------------------------------
class FiveEvaluator(Evaluator):
    """Open runs of 2, 3 and 4 along the lines that count for each colour (Black only rows and
    columns under the handicap), with a bonus for the side to move, which strikes first."""

    playout_cutoff = 12
    WEIGHTS = ((2, 0.02), (3, 0.12), (4, 0.5))

    def _lines(self, state, men: int, empty: int, strides) -> float:
        return sum(w * _open_runs(men, empty, s, n) for s in strides for n, w in self.WEIGHTS)

    def score(self, state, seat: int) -> float:
        g = state.grid
        w = g.w
        diagonal = (1, w, w + 1, w - 1)
        empty = g.onboard & ~(state.black | state.white)
        black = self._lines(state, state.black, empty, (1, w) if state.handicap else diagonal)
        white = self._lines(state, state.white, empty, diagonal)
        mine, theirs = (white, black) if seat else (black, white)
        tempo = 1.3 if state.turn == seat else 1.0
        return mine * tempo - theirs * (2.3 - tempo)

    def evaluate(self, state, seat: int) -> float:
        return math.tanh(self.score(state, seat))


# ---------------------------------------------------------------------------------------------
# Pearl War (§3, §10): progress towards the enemy home, force, and the leading pearl.
# ---------------------------------------------------------------------------------------------
class WarEvaluator(Evaluator):
    """Pearls left, the distance of each side's most advanced pearl to the enemy home (that is
    what wins), and the average advance of the army (concentrated force, §10)."""

    playout_cutoff = 16

    def __init__(self, force: float = 0.08, lead: float = 0.12, mass: float = 0.02) -> None:
        self.force, self.lead, self.mass = force, lead, mass

    def _distances(self, state, men: int, seat: int) -> tuple[int, float]:
        """(nearest, mean) Manhattan distance of `men` to the home they attack."""
        g = state.grid
        w, top = g.w, g.n - 1
        total, nearest, count = 0, 4 * g.n, 0
        m = men
        while m:
            low = m & -m
            p = low.bit_length() - 1
            m ^= low
            x, y = p % w, p // w
            d = x + y if seat == 0 else 2 * top - x - y     # Black attacks a1, White s19
            total += d
            count += 1
            nearest = min(nearest, d)
        return nearest, (total / count if count else 4 * g.n)

    def evaluate(self, state, seat: int) -> float:
        mine, theirs = (state.white, state.black) if seat else (state.black, state.white)
        near_me, mean_me = self._distances(state, mine, seat)
        near_op, mean_op = self._distances(state, theirs, 1 - seat)
        score = (self.force * (mine.bit_count() - theirs.bit_count())
                 + self.lead * (near_op - near_me) + self.mass * (mean_op - mean_me))
        return math.tanh(score)


# ---------------------------------------------------------------------------------------------
# Pearl Yard (§7): Police closes in, Thief heads for the edge.
# ---------------------------------------------------------------------------------------------
class YardEvaluator(Evaluator):
    """Police (seat 0) gains as the distance to the Thief shrinks; the Thief gains as its own
    distance to the nearest edge shrinks. Short games: alpha-beta searches most of them out."""

    playout_cutoff = 30

    def evaluate(self, state, seat: int) -> float:
        g = state.grid
        w, n = g.w, g.n
        px, py = state.police % w, state.police // w
        tx, ty = state.thief % w, state.thief // w
        chase = abs(px - tx) + abs(py - ty)
        edge = min(tx, ty, n - 1 - tx, n - 1 - ty)
        police = math.tanh(0.15 * (edge - chase) + 0.3)
        return police if seat == 0 else -police


# ---------------------------------------------------------------------------------------------
# Pearl Maze (§5): a one-seat puzzle, solved by depth-first search.
# ---------------------------------------------------------------------------------------------
class _SliceOver(Exception):
    """One first step's share of the budget is spent (MazeSolver)."""


class MazeSolver(Engine):
    """Longest-walk (or reach-the-goal) search for `pearl-maze`.

    A depth-first search over (whites, black) positions, deepest first, memoising each finished
    position's longest continuation (docs/rules/pearl.md §10: the default step graph has no cycle, so
    this is exact once the search completes). Within a budget it is an anytime search: each first
    step gets an equal share of the budget, and the longest walk seen decides the move. In goal
    mode it stops at the first walk that reaches the goal. The value: +1 for a reached goal, -1 for
    a goal proved unreachable, otherwise the expected walk length L mapped to tanh(L / 40) in max
    mode (0 while a goal is still unseen). With `book`, positions on a known longest walk from a
    standard start (MAZE_BOOK) follow it: the full search needs far more than a reply's budget.
    """

    def __init__(self, level: str, default_limit: Limit, book: bool = False) -> None:
        super().__init__(level, default_limit)
        self.book = book

    def _search(self, state: State, limit: Limit, rng: Random, budget: Budget) -> SearchResult:
        if self.book and state.goal < 0:
            line = _maze_book().get(state)
            if line:
                return SearchResult(move=line[0], value=math.tanh(len(line) / 40.0), pv=list(line),
                                    nodes=budget.nodes, depth=len(line))
        return self._solve(state, limit, rng, budget)

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
            now = time.perf_counter()
            self.slice_deadline = now + max(0.0, budget.deadline - now) / shares

    def _value(self, line: list, complete: bool) -> float:
        if self.goal_mode:
            if self.found_goal:
                return 1.0
            return -1.0 if complete else 0.0
        return math.tanh(len(line) / 40.0)

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
                and time.perf_counter() >= self.slice_deadline):
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
# Level tables
# ---------------------------------------------------------------------------------------------
def _alphabeta_levels(evaluator, easy_depth: int = 2) -> dict:
    return {
        "random": RandomEngine,
        "easy": lambda: AlphaBetaEngine("easy", DEFAULT_LIMITS["easy"], evaluator(),
                                        max_depth=easy_depth),
        "medium": lambda: AlphaBetaEngine("medium", DEFAULT_LIMITS["medium"], evaluator()),
        "strong": lambda: AlphaBetaEngine("strong", DEFAULT_LIMITS["strong"], evaluator()),
        "uct": lambda: MCTSEngine("uct", DEFAULT_LIMITS["medium"], evaluator()),
    }


def _uct_levels(evaluator) -> dict:
    return {
        "random": RandomEngine,
        "easy": lambda: MCTSEngine("easy", DEFAULT_LIMITS["easy"], evaluator()),
        "medium": lambda: MCTSEngine("medium", DEFAULT_LIMITS["medium"], evaluator()),
        "strong": lambda: MCTSEngine("strong", DEFAULT_LIMITS["strong"], evaluator()),
        "alphabeta": lambda: AlphaBetaEngine("alphabeta", DEFAULT_LIMITS["medium"], evaluator()),
    }


register_levels("pearl-five", _alphabeta_levels(FiveEvaluator))
register_levels("pearl-yard", _alphabeta_levels(YardEvaluator, easy_depth=3))
register_levels("pearl-war", _alphabeta_levels(WarEvaluator, easy_depth=1))
# Longest walks from the standard starts on 19x19 (docs/rules/pearl.md §9.13: 17 for n=3 and 69 for
# the default start are the maxima; 77 for black=outside is the maximum an exhaustive search of
# its 2,493,466 positions proves).
MAZE_BOOK = (
    ({"n": 3}, "RDLDDRUURURDDDLLL"),
    ({}, "RDLDRRDRRRUUULLDLLULLDDDRDRURRURRRDLLLDLULLLDDRRUUURRUULLDLLLURRRRRRR"),
    ({"black": "outside"},
     "RRRDRDLDRDDLUUULDLLLURRRURDRURULURRDDDLLLDDLDRRRRUUUUURULLLLDDDLLUUURRRRRURDD"),
)


@lru_cache(maxsize=1)
def _maze_book() -> dict:
    """Every position along a book walk → the rest of that walk (as moves)."""
    game = games.get_game("pearl-maze")
    positions = {}
    for options, walk in MAZE_BOOK:
        states, moves = [game.new_state(options=options)], []
        for step in walk:
            moves.append(states[-1].parse_move(step))
            states.append(states[-1].apply(moves[-1]))
        for i, state in enumerate(states[:-1]):
            positions[state] = moves[i:]
    return positions


register_levels("pearl-maze", {
    "random": RandomEngine,
    **{level: (lambda level=level: MazeSolver(level, DEFAULT_LIMITS[level], book=level == "strong"))
       for level in ("easy", "medium", "strong")},
})


# ---------------------------------------------------------------------------------------------
# Pearl Survival (§6): 2–4 seats, per-seat UCT values.
# ---------------------------------------------------------------------------------------------
class SurvivalEvaluator(Evaluator):
    """A live pearl's prospects: its slides (every direction and length it could slide now,
    push-back bans aside; a seat without one dies) and its distance from the edge (pearls are
    pushed off there). Seats out of the game score 0; the values are shared out per seat.
    Games are short, so UCT (three or more seats) plays its rollouts out to the end."""

    playout_cutoff = 400

    def _prospect(self, state, seat: int) -> float:
        q = state.pos[seat]
        if q < 0:
            return 0.0
        g = state.grid
        occupied = state.whites
        for p in state.pos:
            if p >= 0:
                occupied |= 1 << p
        enter = state.whites if state.enter_white else occupied
        slides = sum(push.slide_length(g, occupied, occupied, q, d, enter=enter)
                     for d in range(4))
        x, y = q % g.w, q // g.w
        edge = min(x, y, g.n - 1 - x, g.n - 1 - y)
        return 0.2 + slides + 0.5 * min(edge, 3)

    def rewards(self, state) -> tuple[float, ...]:
        if state.is_terminal:
            return super().rewards(state)
        if state.in_setup:
            return tuple(1.0 / state.players for _ in range(state.players))
        prospects = [self._prospect(state, s) for s in range(state.players)]
        total = sum(prospects) or 1.0
        return tuple(p / total for p in prospects)

    def evaluate(self, state, seat: int) -> float:
        return 2.0 * self.rewards(state)[seat] - 1.0 if state.players == 2 else \
            state.players * self.rewards(state)[seat] - 1.0


# Two seats: alpha-beta (80 % against plain UCT at 0.2 s a move, where UCT with this evaluator at
# the cut-off scored 30 %); three or four seats: the alpha-beta engines hand over to per-seat UCT.
register_levels("pearl-survival", _alphabeta_levels(SurvivalEvaluator))
