"""Pearl Yard solver (docs/rules/pearl.md §7, §9.19–20, §10): who wins, and in how many plies.

A node is the tuple (whites, police, thief, turn, ban) of `YardState`'s fields; moves are made
with the rules' own `try_push`. `wins(node, attacker, depth)` answers "can `attacker` force a win
within `depth` plies?" by depth-first AND/OR search: at the attacker's nodes one winning move
suffices, at the defender's every move must lose, a pass is a move (§2.6) and a mutual block is
a draw, so a loss for both. Iterative deepening (`distance`) gives the shortest forced win: a win
proved at depth d and refuted at d − 1 ends exactly on ply d.

The transposition table keeps, per attacker and position, the smallest depth proved to win and
the largest proved not to; a position and its mirror image (x → N−1−x, E ↔ W, the cross being
symmetric) share one entry. Every ply adds a pearl, so the game graph has no cycle and the
depth-limited answers are exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from games.pearl.board import DIR_LETTERS, DIRECTIONS, grid
from games.pearl.yard import NO_BAN, POLICE, THIEF, YardState, try_push

from ..base import Budget
from . import cache

GAME_SLUG = "pearl-yard"

DRAW = 2
NEVER = 1 << 30                      # "refuted at every depth" (the defender wins or draws)
MIRROR_DIR = (0, 3, 2, 1)            # N, E, S, W under x → N−1−x
PASS_MOVE = "pass"


class SolverTimeout(Exception):
    """The node or time budget ran out; the table keeps everything proved so far."""


def node_of(state: YardState) -> tuple:
    return (state.whites, state.police, state.thief, state.turn, state.ban)


@dataclass
class YardSolution:
    """From a position: the winner (seat, or None if unresolved within `max_depth`), the plies
    of the shortest forced win, its line, and the work: positions searched, table entries,
    distinct positions in the proof tree, seconds."""

    winner: int | None
    plies: int | None
    line: list[str]
    searched_to: int
    nodes: int
    table_size: int
    proof_size: int
    seconds: float
    refuted: dict = field(default_factory=dict)


class YardSolver:
    """Depth-limited AND/OR proofs for one board size, with a table kept between calls."""

    def __init__(self, size: int, table_limit: int = 4_000_000) -> None:
        g = self.grid = grid(size)
        self.size = size
        self.win_at: tuple[dict, dict] = ({}, {})
        self.fail_at: tuple[dict, dict] = ({}, {})
        self.table_limit = table_limit
        self.nodes = 0
        self.max_nodes: int | None = None
        self.deadline: float | None = None
        self.adjacent = [set(g.nbr[d][p] for d in DIRECTIONS) - {-1} for p in range(len(g.names))]
        self.point_mirror = [(p // g.w) * g.w + (g.n - 1 - p % g.w) if p % g.w < g.n else -1
                             for p in range(len(g.names))]
        row = (1 << g.n) - 1
        self.row_masks = [(y * g.w, row) for y in range(g.n)]
        self.reverse = [int(f"{b:0{g.n}b}"[::-1], 2) for b in range(1 << g.n)]
        self.edge_distance = [min(p % g.w, p // g.w, g.n - 1 - p % g.w, g.n - 1 - p // g.w)
                              for p in range(len(g.names))]

    # -- positions --------------------------------------------------------------------------
    def key(self, node: tuple) -> int:
        """The table key: the smaller of the position's and its mirror image's packed forms."""
        whites, police, thief, turn, ban = node
        rev, mirrored = self.reverse, 0
        for shift, mask in self.row_masks:
            mirrored |= rev[(whites >> shift) & mask] << shift
        pm = self.point_mirror
        own = ((((whites << 8 | police) << 8 | thief) << 1 | turn) << 3) | (ban + 1)
        other = ((((mirrored << 8 | pm[police]) << 8 | pm[thief]) << 1 | turn) << 3) | \
            ((MIRROR_DIR[ban] if ban >= 0 else -1) + 1)
        return own if own <= other else other

    def children(self, node: tuple) -> list[tuple[str, tuple, int | None]]:
        """[(move, child node, result)] for the side to move; result is the winner's seat or
        DRAW for a finished child, None otherwise. A stuck side passes, or the game is a mutual
        block: then the only entry is (pass, node, DRAW)."""
        whites, police, thief, turn, ban = node
        out = self._pushes(whites, police, thief, turn, ban)
        if out:
            return out
        if not self._pushes(whites, police, thief, 1 - turn, NO_BAN, first=True):
            return [(PASS_MOVE, node, DRAW)]                  # §2.6 mutual block
        return [(PASS_MOVE, (whites, police, thief, 1 - turn, NO_BAN), None)]

    def _pushes(self, whites, police, thief, turn, ban, first=False) -> list:
        g, out = self.grid, []
        piece, other = (police, thief) if turn == POLICE else (thief, police)
        for d in DIRECTIONS:
            if ban >= 0 and d == ban ^ 2:                      # §7.3 no push-back
                continue
            done = try_push(g, whites, police, thief, piece, d)
            if done is None:
                continue
            w, p, t, row = done
            if t < 0:
                result = THIEF
            elif t in self.adjacent[p]:
                result = POLICE
            else:
                result = None
            out.append((DIR_LETTERS[d], (w, p, t, 1 - turn, d if (row >> other) & 1 else NO_BAN),
                        result))
            if first:
                break
        return out

    # -- proofs ---------------------------------------------------------------------------------
    def wins(self, node: tuple, attacker: int, depth: int) -> bool:
        """Can `attacker` force a win within `depth` plies from `node`?"""
        key = self.key(node)
        won = self.win_at[attacker].get(key)
        if won is not None and won <= depth:
            return True
        if depth <= self.fail_at[attacker].get(key, 0):
            return False
        self._tick()
        result, proved = self._search(node, attacker, depth)
        table = self.win_at[attacker] if result else self.fail_at[attacker]
        table[key] = proved
        return result

    def _search(self, node: tuple, attacker: int, depth: int) -> tuple[bool, int]:
        """(won, depth to record): a win's depth, or the depth (NEVER) a failure is proved to."""
        children = self.children(node)
        if node[3] == attacker:
            if any(r == attacker for _, _, r in children):
                return True, 1
            going = [c for _, c, r in children if r is None]
            if depth <= 1 or not going:
                return False, (depth if going else NEVER)
            for child in self._ordered(going, attacker):
                if self.wins(child, attacker, depth - 1):
                    return True, depth
            return False, depth
        if any(r is not None and r != attacker for _, _, r in children):
            return False, NEVER                           # the defender wins or draws at once
        going = [c for _, c, r in children if r is None]
        if not going:
            return True, 1
        if depth <= 1:
            return False, depth
        for child in self._ordered(going, attacker):
            if not self.wins(child, attacker, depth - 1):
                return False, depth
        return True, depth

    def _ordered(self, nodes: list, attacker: int) -> list:
        """Likely wins for the attacker first (Police closing in, Thief nearing the edge), so an
        attacker finds its move early and a defender meets its best refutation early."""
        if len(nodes) < 2:
            return nodes
        adj, edge = self.adjacent, self.edge_distance
        w = self.grid.w

        def promise(node) -> int:
            _, p, t, _, _ = node
            gap = abs(p % w - t % w) + abs(p // w - t // w)
            return gap - 2 * edge[t] if attacker == POLICE else 2 * edge[t] - gap
        return sorted(nodes, key=lambda n: promise(n) if n[2] not in adj[n[1]] else -99)

    def _tick(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SolverTimeout
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.deadline is not None and Budget.clock() > self.deadline:
                raise SolverTimeout
            if sum(map(len, self.win_at + self.fail_at)) > self.table_limit:
                for table in self.fail_at:       # failures are re-proved cheaply; wins are kept
                    table.clear()

    def distance(self, node: tuple, attacker: int, max_depth: int, start: int = 1) -> int | None:
        """The smallest depth ≤ max_depth at which `attacker` wins, or None."""
        for depth in range(start, max_depth + 1):
            if self.wins(node, attacker, depth):
                return depth
        return None

    def winning_move(self, node: tuple, attacker: int, depth: int):
        """A move of the attacker that keeps a win within `depth` plies: (move, child)."""
        for move, child, result in self.children(node):
            if result == attacker or (result is None and depth > 1
                                      and self.wins(child, attacker, depth - 1)):
                return move, child
        return None

    def line(self, node: tuple, attacker: int, depth: int) -> list[str]:
        """The proof's main line: the attacker's quickest win, the defender's longest defence."""
        line = []
        while depth > 0:
            children = self.children(node)
            if node[3] == attacker:
                found = self.winning_move(node, attacker, depth)
                if found is None:
                    break
                move, node = found
            else:
                going = [(m, c) for m, c, r in children if r is None]
                if not going:
                    line.append(children[0][0])
                    break
                move, node = max(going, key=lambda mc: self.distance(mc[1], attacker, depth - 1)
                                 or depth)
            line.append(move)
            depth -= 1
            if self._finished(node):
                break
        return line

    def _finished(self, node: tuple) -> bool:
        _, p, t, _, _ = node
        return t < 0 or t in self.adjacent[p]

    def proof_size(self, node: tuple, attacker: int, depth: int) -> int:
        """Distinct positions of the proof tree: one winning move at the attacker's nodes, every
        move at the defender's, down to the wins."""
        seen: set[int] = set()
        stack = [(node, depth)]
        while stack:
            node, depth = stack.pop()
            key = self.key(node)
            if key in seen:
                continue
            seen.add(key)
            if node[3] == attacker:
                found = self.winning_move(node, attacker, depth)
                if found is not None and not self._finished(found[1]):
                    stack.append((found[1], depth - 1))
            else:
                stack.extend((c, depth - 1) for _, c, r in self.children(node) if r is None)
        return len(seen)


    def proof_table(self, node: tuple, attacker: int, depth: int) -> dict[tuple, tuple[str, int]]:
        """node → (best move, plies to the end) over the proof tree: the attacker's quickest
        win, the defender's longest defence (what a cache file keeps)."""
        table: dict[tuple, tuple[str, int]] = {}
        stack = [(node, depth)]
        while stack:
            node, depth = stack.pop()
            if node in table:
                continue
            plies = self.distance(node, attacker, depth)
            if node[3] == attacker:
                move, child = self.winning_move(node, attacker, plies)
                table[node] = (move, plies)
                if not self._finished(child):
                    stack.append((child, plies - 1))
                continue
            children = self.children(node)
            going = [(m, c) for m, c, r in children if r is None]
            if not going:
                table[node] = (children[0][0], 1)
                continue
            lasting = [(self.distance(c, attacker, plies - 1), m, c) for m, c in going]
            table[node] = (max(lasting, key=lambda x: x[0])[1], plies)
            stack.extend((c, d) for d, _m, c in lasting)
        return table


def solve(state: YardState, *, max_depth: int = 30, seconds: float | None = None,
          solver: YardSolver | None = None) -> YardSolution:
    """Deepen one ply at a time, asking at each depth whether Police, then Thief, forces a win
    within it; the first yes is the shortest forced win (every shallower depth was refuted for
    both). Stops at `max_depth` or when the time runs out (winner None)."""
    solver = solver or YardSolver(state.size)
    started = Budget.clock()
    solver.nodes = 0
    solver.deadline = None if seconds is None else started + seconds
    node, done = node_of(state), 0
    try:
        for depth in range(1, max_depth + 1):
            for attacker in (POLICE, THIEF):
                if solver.wins(node, attacker, depth):
                    line = solver.line(node, attacker, depth)
                    size = solver.proof_size(node, attacker, depth)
                    return YardSolution(attacker, depth, line, depth, solver.nodes,
                                        _table_size(solver), size, Budget.clock() - started)
            done = depth
    except SolverTimeout:
        pass
    return YardSolution(None, None, [], done, solver.nodes, _table_size(solver), 0,
                        Budget.clock() - started)


def _table_size(solver: YardSolver) -> int:
    return sum(map(len, solver.win_at + solver.fail_at))




def node_key(node: tuple) -> str:
    """A node's exact key (no symmetry) in cache files: whites in hex, pieces, turn, ban."""
    whites, police, thief, turn, ban = node
    return f"{whites:x}:{police}:{thief}:{turn}:{ban}"


def cached_proofs(size: int, directory=None) -> dict[str, tuple[str, int, int]]:
    """node key → (best move, plies to the end, winner) from every Yard solution file."""
    return _merged(cache.files(GAME_SLUG, directory), size)


@lru_cache(maxsize=8)
def _merged(files: tuple, size: int) -> dict[str, tuple[str, int, int]]:
    merged: dict[str, tuple[str, int, int]] = {}
    for body in cache.load(files):
        if int(body["options"]["size"]) == size:
            winner = body["result"]["winner"]
            merged.update({key: (move, plies, winner) for key, (move, plies) in body["table"].items()})
    return merged
