"""Engines for the Glass Pearl games (docs/rules/pearl.md §10): evaluators for `pearl-five`,
`pearl-war`, `pearl-yard` and `pearl-survival`; the one-seat `pearl-maze` and Yard's strong level
play proofs (pearl_proofs.py).

Evaluators read the public state attributes (bitboards on the lattice of games/pearl/board.py,
point y*(N+1)+x) and the game's grid.
"""
from __future__ import annotations

import math

from dataclasses import replace

from games.pearl import push

from .alphabeta import MATE_STEP, QUIESCENCE_DEPTH, AlphaBetaEngine, _Search
from .base import Evaluator, Limit
from .pearl_proofs import MazeSearch, YardProofs
from .table import DEFAULT_LIMITS, alphabeta_levels, per_level, register_levels


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


# Threats. A push-in adds one pearl and shifts one run by a point, so a new line needs a point
# that gains the colour and completes a window of five holding four of it already. `gaps` finds
# those points with bitboard shifts; a move is a candidate when its run (or the point beyond it)
# reaches one, and only candidates are played out to check the result.
def gaps(state, colour: int) -> int:
    """The points that would complete a five of `colour` (0 Black, 1 White) along a line that
    counts for it: the missing point of every window of five holding four of its pearls."""
    g = state.grid
    w = g.w
    men = state.white if colour else state.black
    strides = (1, w) if (colour == 0 and state.handicap) else (1, w, w + 1, w - 1)
    out = 0
    for s in strides:
        shifted = [men >> (s * j) for j in range(5)]
        for k in range(5):
            starts = ~shifted[k]
            for j in range(5):
                if j != k:
                    starts &= shifted[j]
            if starts > 0:
                out |= starts << (s * k)
    return out & g.onboard


_RAYS: dict = {}


def _rays(g) -> tuple:
    """Per direction d and point p: p and every point beyond it in direction d (cached)."""
    rays = _RAYS.get(g.n)
    if rays is None:
        rays = []
        for d in range(4):
            ray = [0] * len(g.nbr[d])
            for p in range(len(ray)):
                q, mask = p, 0
                while q >= 0:
                    mask |= 1 << q
                    q = g.nbr[d][q]
                ray[p] = mask if g.onboard >> p & 1 else 0
            rays.append(tuple(ray))
        rays = _RAYS[g.n] = tuple(rays)
    return rays


def _reach(state, move, hot: int = -1) -> int:
    """The points a push-in changes (its run and the point the front moves onto); 0 at once
    when none of them can be in `hot`."""
    g = state.grid
    p = g.index(move.x, move.y)
    if not _rays(g)[move.d][p] & hot:
        return 0
    mask, front = push.run(g, state.black | state.white, p, move.d)
    beyond = g.nbr[move.d][front]
    return mask | (1 << beyond) if beyond >= 0 else mask


def winning_moves(state, colour: int, moves=None, first: bool = False, hot: int | None = None) -> list:
    """`colour`'s pushes that would win at once if it were to move now (its threats when it is
    not), checked by playing the candidates out; with `first`, stop at the first one. `moves`
    and `hot` (= gaps(state, colour)) may be passed in when already known."""
    if hot is None:
        hot = gaps(state, colour)
    if not hot:
        return []
    mover = state if state.turn == colour else replace(state, turn=colour)
    found = []
    for move in (state.legal_moves() if moves is None else moves):
        if not _reach(state, move, hot) & hot:
            continue
        child = mover.apply(move)
        if child.is_terminal and child.outcome.winners == (colour,):
            found.append(move)
            if first:
                break
    return found


class FiveSearch(_Search):
    """Alpha-beta with threat-aware leaves: at the horizon, the side to move wins if it has a
    winning push; if instead the opponent threatens one, standing pat would ignore it, so every
    reply is searched (each parry that makes a counter-threat is answered in turn, a forced
    sequence that runs to QUIESCENCE_DEPTH); only a quiet position is scored statically.
    Interior nodes try winning pushes and pushes that touch either side's threats first."""

    def _quiesce(self, state, qdepth: int, alpha: float, beta: float, ply: int) -> float:
        me = state.turn
        mine, theirs = gaps(state, me), gaps(state, 1 - me)
        if not (mine or theirs):
            return self._static(state)
        moves = state.legal_moves()
        if mine and winning_moves(state, me, moves, True, mine):
            return 1.0 - MATE_STEP * (ply + 1)
        if qdepth <= 0 or not (theirs and winning_moves(state, 1 - me, moves, True, theirs)):
            return self._static(state)
        best = -2.0
        for move in self._urgent_first(state, self.evaluator.order_moves(state, moves),
                                       mine | theirs):
            self._tick()
            value = self._child(state.apply(move), me, qdepth - 1, alpha, beta, ply + 1, True)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def _ordered(self, state, tt_move, ply: int) -> list:
        return self._urgent_first(state, super()._ordered(state, tt_move, ply),
                                  gaps(state, 0) | gaps(state, 1))

    @staticmethod
    def _urgent_first(state, moves: list, hot: int) -> list:
        """`moves` with those whose run reaches a threat point (either colour's) first."""
        if not hot:
            return moves
        urgent = [m for m in moves if _reach(state, m, hot) & hot]
        if not urgent:
            return moves
        marked = set(urgent)
        return urgent + [m for m in moves if m not in marked]


class FiveEngine(AlphaBetaEngine):
    """Alpha-beta with Five's threat search (FiveSearch)."""

    search_class = FiveSearch


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
# Level tables
# ---------------------------------------------------------------------------------------------
register_levels("pearl-five", {
    **alphabeta_levels(FiveEvaluator),
    # Threat-aware leaves and threat-first ordering (FiveSearch).
    "strong": lambda: FiveEngine("strong", DEFAULT_LIMITS["strong"], FiveEvaluator()),
})
register_levels("pearl-yard", {
    **alphabeta_levels(YardEvaluator, easy_depth=3),
    # Proven moves wherever a proof is found (pearl_proofs.py), alpha-beta elsewhere.
    "strong": lambda: YardProofs("strong", DEFAULT_LIMITS["strong"], AlphaBetaEngine(
        "strong", DEFAULT_LIMITS["strong"], YardEvaluator())),
})
register_levels("pearl-war", alphabeta_levels(WarEvaluator, easy_depth=1))
# Pearl Maze: the anytime longest-walk search; the strong level plays proofs (pearl_proofs.py).
register_levels("pearl-maze", per_level(
    lambda level, limit: MazeSearch(level, limit, proofs=level == "strong")))


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
register_levels("pearl-survival", alphabeta_levels(SurvivalEvaluator))
