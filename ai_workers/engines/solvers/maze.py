"""Pearl Maze solver (docs/rules/pearl.md §5, §10): the longest walk, found and proved.

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

from dataclasses import dataclass, field
from functools import lru_cache

from games.pearl.board import DIRECTIONS, grid
from games.pearl.maze import STEP_LETTERS, MazeState

from ..base import Budget
from . import cache

GAME_SLUG = "pearl-maze"

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
    once stay proved). `max_nodes` / `deadline` (on `Budget.clock`) bound one call; running out raises
    SolverTimeout from `longest`, after which the memo still holds every finished position.

    Anytime use: `best_total` / `best_walk` hold the longest complete walk seen from the root so
    far (the path to a finished position plus its proved continuation). `memo_limit` bounds the
    memo (searches too big to finish): past it, finished positions are forgotten, which costs
    re-search but never correctness.

    `proven` (key → (best direction, steps left)) is a table an earlier proof wrote (see
    cache.py): those positions are answered from it. With `heavy_from`, every position whose
    proof took at least that many new positions is listed in `heavy` (what a cache keeps)."""

    def __init__(self, size: int, push_off: bool = False, memo_limit: int | None = None,
                 proven: dict[int, tuple[int, int]] | None = None,
                 heavy_from: int | None = None) -> None:
        self.steps = StepGenerator(size, push_off)
        self.proven = proven or {}
        self.memo: dict[int, int] = {key: left for key, (_d, left) in self.proven.items()}
        self.memo_limit = memo_limit
        self.heavy_from = heavy_from
        self.heavy: list[int] = []
        self.nodes = 0
        self.max_nodes: int | None = None
        self.deadline: float | None = None
        self.path: list[int] = []
        self.best_total = 0
        self.best_walk: list[str] = []

    @classmethod
    def for_state(cls, state: MazeState, **kwargs) -> "MazeSolver":
        return cls(state.size, state.push_off, **kwargs)

    def longest(self, occ: int, black: int) -> int:
        """The number of steps of the longest walk from the position (exact)."""
        memo = self.memo
        key = (occ << KEY_SHIFT) | black
        known = memo.get(key)
        if known is not None:
            if known == IN_PROGRESS:
                raise CycleFound(key)
            return known
        self._tick()
        first = self.nodes
        memo[key] = IN_PROGRESS
        best, path = 0, self.path
        try:
            for d, after, nq in self.steps.children(occ, black):
                path.append(d)
                value = self.longest(after, nq) + 1
                path.pop()
                if value > best:
                    best = value
        except BaseException:
            memo.pop(key, None)
            raise
        memo[key] = best
        if len(path) + best > self.best_total:
            self._record(occ, black, best)
        if self.heavy_from is not None and self.nodes - first >= self.heavy_from:
            self.heavy.append(key)
        return best

    def _record(self, occ: int, black: int, best: int) -> None:
        # With a bounded memo part of the continuation may be forgotten: keep what is certain.
        walk = [LETTERS[d] for d in self.path] + self.line(occ, black)
        if len(walk) > len(self.best_walk):
            self.best_total, self.best_walk = len(walk), walk

    def _tick(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SolverTimeout
        self.nodes += 1
        if self.nodes & 255 == 0:
            if self.deadline is not None and Budget.clock() > self.deadline:
                raise SolverTimeout
            if self.memo_limit is not None and len(self.memo) > self.memo_limit:
                keep = {k: v for k, v in self.memo.items() if v == IN_PROGRESS or k in self.proven}
                self.memo.clear()       # in place: the frames on the path hold this dict
                self.memo.update(keep)

    def best_step(self, occ: int, black: int) -> tuple[int, int, int] | None:
        """The first step of a longest walk from a solved position: (direction, occ, black)."""
        key = (occ << KEY_SHIFT) | black
        known = self.proven.get(key)
        children = self.steps.children(occ, black)
        if known is not None:
            return next((c for c in children if c[0] == known[0]), None)
        target = self.memo.get(key)
        for child in children:
            if target is not None and self.memo.get((child[1] << KEY_SHIFT) | child[2]) == target - 1:
                return child
        return None

    def proved_step(self, occ: int, black: int) -> tuple[int, int, int] | None:
        """`best_step`, proving the position's children first where they are not known yet
        (a cache keeps a position without its children); SolverTimeout if the budget ends."""
        step = self.best_step(occ, black)
        children = self.steps.children(occ, black)
        if step is None and children:
            self.longest(occ, black)
            for _, after, nq in children:
                self.longest(after, nq)
            step = self.best_step(occ, black)
        return step

    def table(self, occ: int, black: int, keys) -> dict[int, tuple[int, int]]:
        """key → (best direction, steps left) for the solved positions `keys` and every position
        of a longest walk from (occ, black): what a cache file keeps."""
        table = {}
        for key in keys:
            o, b = split_key(key)
            step = self.best_step(o, b)
            if step is not None:
                table[key] = (step[0], self.memo[key])
        while (step := self.best_step(occ, black)) is not None:
            table[(occ << KEY_SHIFT) | black] = (step[0], self.memo[(occ << KEY_SHIFT) | black])
            _, occ, black = step
        return table

    def line(self, occ: int, black: int) -> list[str]:
        """A longest walk from a solved position, as step letters."""
        walk = []
        while True:
            child = self.best_step(occ, black)
            if child is None:
                return walk
            walk.append(LETTERS[child[0]])
            _, occ, black = child


def solve(state: MazeState, *, seconds: float | None = None, max_nodes: int | None = None,
          solver: MazeSolver | None = None) -> MazeSolution:
    """Prove the longest walk from `state` (max mode), within the optional budget. Out of
    budget, the answer is the longest walk seen on the way (`proven` False)."""
    solver = solver or MazeSolver.for_state(state)
    started = Budget.clock()
    solver.nodes, solver.max_nodes, solver.path = 0, max_nodes, []
    solver.best_total, solver.best_walk = 0, []
    solver.deadline = None if seconds is None else started + seconds
    occ, black = state.whites | (1 << state.black), state.black
    try:
        length = solver.longest(occ, black)
    except SolverTimeout:
        walk = solver.best_walk
        return MazeSolution(len(walk), walk, False, solver.nodes, Budget.clock() - started)
    return MazeSolution(length, solver.line(occ, black), True, solver.nodes,
                        Budget.clock() - started)


def beam_walk(state: MazeState, width: int, *, seconds: float | None = None) -> list[str]:
    """A long walk (no proof): breadth-first, keeping at each depth the `width` distinct
    positions with the most legal steps. For searches too big to finish."""
    steps = StepGenerator(state.size, state.push_off)
    deadline = None if seconds is None else Budget.clock() + seconds
    layer = [(state.whites | (1 << state.black), state.black, None)]
    while True:
        following: dict[int, tuple] = {}
        for occ, black, history in layer:
            for d, after, nq in steps.children(occ, black):
                following.setdefault((after << KEY_SHIFT) | nq, (after, nq, (history, d)))
        if not following or (deadline is not None and Budget.clock() > deadline):
            break
        layer = list(following.values())
        if len(layer) > width:
            layer.sort(key=lambda item: len(steps.children(item[0], item[1])), reverse=True)
            del layer[width:]
    walk, history = [], layer[0][2]
    while history is not None:
        history, d = history
        walk.append(LETTERS[d])
    return walk[::-1]


def cached_proofs(size: int, push_off: bool, directory=None) -> dict[int, tuple[int, int]]:
    """key → (best direction, steps left) from every Maze solution file for this board."""
    return _merged(cache.files(GAME_SLUG, directory), size, push_off)


@lru_cache(maxsize=8)
def _merged(files: tuple, size: int, push_off: bool) -> dict[int, tuple[int, int]]:
    merged: dict[int, tuple[int, int]] = {}
    for body in cache.load(files):
        options = body["options"]
        if int(options["size"]) == size and (options["push_off"] == "yes") == push_off:
            merged.update({int(key, 16): (LETTERS.index(move), left)
                           for key, (move, left) in body["table"].items()})
    return merged
