"""Pearl Maze solver (rules/pearl.md §5, §10): the longest walk, found and proved.

A position is two ints: `occ`, the bitboard of every pearl (black included, on the lattice of
games/pearl/board.py), and `black`, the black pearl's point. The key `occ << 9 | black` is exact
(no hash collisions to reason about) and compact. `MazeSolver.longest` is a depth-first search
that memoises each position's longest continuation: exact once it returns, because the step graph
has no cycle (a position met again while still on the search path would prove one; the solver
then refuses to call its result a proof). Moves from a position are tried roomiest first, which
finds long walks early and matters only to anytime use.

Unit steps are generated straight on the bitboards (§2.4 with k = 1, ok = every pearl, the point
ahead occupied, §5.3), several times faster than going through `MazeState`; `tests` check both
agree step for step.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from games.pearl.board import DIRECTIONS, grid
from games.pearl.maze import STEP_LETTERS, MazeState

KEY_SHIFT = 9          # 19×20 lattice indices fit in 9 bits
IN_PROGRESS = -1       # memo mark of a position on the current search path
LETTERS = tuple(STEP_LETTERS[d] for d in DIRECTIONS)


class SolverTimeout(Exception):
    """The solver's node or time budget ran out before the proof was complete."""


class CycleFound(Exception):
    """A position was reached again below itself: longest-path memoisation is no proof here."""


def position_key(occ: int, black: int) -> int:
    return (occ << KEY_SHIFT) | black


def split_key(key: int) -> tuple[int, int]:
    return key >> KEY_SHIFT, key & ((1 << KEY_SHIFT) - 1)


class StepGenerator:
    """The legal unit steps of the black pearl on one board size (§5.3), on bitboards."""

    def __init__(self, size: int, push_off: bool = False) -> None:
        g = grid(size)
        self.grid, self.push_off = g, push_off
        self.nbr = g.nbr
        self.onboard = g.onboard
        self.step = g.step
        self.perp = g.perp_shift

    def children(self, occ: int, black: int) -> list[tuple[int, int, int]]:
        """[(direction, occ after, black after)] for every legal step, in direction order."""
        out = []
        for d in DIRECTIONS:
            nb = self.nbr[d]
            nq = nb[black]
            if nq < 0 or not (occ >> nq) & 1:
                continue            # §5.3: black always pushes, never enters an empty point
            row, front = 1 << black, black
            while True:             # run(q, d)
                nxt = nb[front]
                if nxt < 0 or not (occ >> nxt) & 1:
                    break
                front = nxt
                row |= 1 << nxt
            ps = self.perp[d]
            if not ((row << ps) | (row >> ps)) & occ:
                continue            # (1) contact before
            nf = nb[front]
            if nf < 0 and not self.push_off:
                continue            # (3) nothing leaves the board
            s = self.step[d]
            moved = (row << s) if s > 0 else (row >> -s)
            if nf < 0:
                moved &= self.onboard
            after = (occ & ~row) | moved
            grown = moved
            while nf >= 0 and (after >> nf) & 1:      # (4) the row as it stands now
                grown |= 1 << nf
                nf = nb[nf]
            if not ((grown << ps) | (grown >> ps)) & after:
                continue            # (4) contact after
            out.append((d, after, nq))
        return out


@dataclass
class MazeSolution:
    """A solver's answer from one position: the longest walk found, whether it is proved the
    longest, and the work done (distinct positions, the start included)."""

    length: int
    line: list[str]
    proven: bool
    positions: int
    seconds: float
    table: dict = field(default_factory=dict, repr=False)


class MazeSolver:
    """Longest-continuation search with a memo that may be kept between calls (positions proved
    once stay proved). `max_nodes` / `deadline` (perf_counter) bound one call; running out raises
    SolverTimeout from `longest`, after which the memo still holds every finished position."""

    def __init__(self, size: int, push_off: bool = False) -> None:
        self.steps = StepGenerator(size, push_off)
        self.memo: dict[int, int] = {}
        self.nodes = 0
        self.max_nodes: int | None = None
        self.deadline: float | None = None

    @classmethod
    def for_state(cls, state: MazeState) -> "MazeSolver":
        return cls(state.size, state.push_off)

    def longest(self, occ: int, black: int) -> int:
        """The number of steps of the longest walk from the position (exact)."""
        key = (occ << KEY_SHIFT) | black
        known = self.memo.get(key)
        if known is not None:
            if known == IN_PROGRESS:
                raise CycleFound(key)
            return known
        self._tick()
        self.memo[key] = IN_PROGRESS
        best = 0
        try:
            for _d, after, nq in self._ordered(occ, black):
                value = self.longest(after, nq) + 1
                if value > best:
                    best = value
        except BaseException:
            del self.memo[key]
            raise
        self.memo[key] = best
        return best

    def _ordered(self, occ: int, black: int) -> list:
        return self.steps.children(occ, black)

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverTimeout
        if self.deadline is not None and self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise SolverTimeout

    def best_step(self, occ: int, black: int) -> tuple[int, int, int] | None:
        """The first step of a longest walk from a solved position: (direction, occ, black)."""
        target = self.memo[(occ << KEY_SHIFT) | black]
        for child in self.steps.children(occ, black):
            if self.memo.get((child[1] << KEY_SHIFT) | child[2]) == target - 1:
                return child
        return None

    def line(self, occ: int, black: int) -> list[str]:
        """A longest walk from a solved position, as step letters."""
        walk = []
        while True:
            child = self.best_step(occ, black)
            if child is None:
                return walk
            walk.append(LETTERS[child[0]])
            _, occ, black = child

    def proven_table(self, occ: int, black: int, min_positions: int = 0) -> dict[int, tuple[int, int]]:
        """key → (best direction, steps left) for every solved position reachable from this one
        (with `min_positions`, only those with at least that many positions below them)."""
        table, stack, seen = {}, [(occ, black)], set()
        while stack:
            o, b = stack.pop()
            key = (o << KEY_SHIFT) | b
            if key in seen:
                continue
            seen.add(key)
            children = self.steps.children(o, b)
            if not children:
                continue
            best = self.best_step(o, b)
            table[key] = (best[0], self.memo[key])
            stack.extend((c[1], c[2]) for c in children)
        return table


def solve(state: MazeState, *, seconds: float | None = None, max_nodes: int | None = None,
          solver: MazeSolver | None = None) -> MazeSolution:
    """Prove the longest walk from `state` (max mode), within the optional budget. Out of
    budget, the answer is the longest walk among what was proved (`proven` False)."""
    solver = solver or MazeSolver.for_state(state)
    started = time.perf_counter()
    solver.nodes, solver.max_nodes = 0, max_nodes
    solver.deadline = None if seconds is None else started + seconds
    occ, black = state.whites | (1 << state.black), state.black
    try:
        length = solver.longest(occ, black)
    except SolverTimeout:
        return MazeSolution(0, [], False, len(solver.memo), time.perf_counter() - started)
    line = solver.line(occ, black)
    return MazeSolution(length, line, True, len(solver.memo), time.perf_counter() - started)
