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
from games.pearl.board import bits
from games.pearl.moves import PushIn

from .alphabeta import MATE_STEP, AlphaBetaEngine, _Search
from .base import Evaluator
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
_GAPS: dict = {}
_GAPS_LIMIT = 200_000


def gaps(state, colour: int) -> int:
    """The points where a push can complete a five of `colour` (0 Black, 1 White) along a line
    that counts for it: the missing point of every window of five holding four of its pearls
    (a gap), and, for Black under the handicap, its pearls in a row or column of six or more
    (moving one away may leave exactly five). Cached by the colour's pearls, which a push often
    leaves where they were."""
    men = state.white if colour else state.black
    orthogonal = colour == 0 and state.handicap
    key = (men, orthogonal, state.size)
    out = _GAPS.get(key)
    if out is not None:
        return out
    out = 0
    if men.bit_count() >= 4:
        g = state.grid
        w = g.w
        for s in ((1, w) if orthogonal else (1, w, w + 1, w - 1)):
            a = [men >> (s * j) for j in range(5)]
            prefix = [-1, a[0], a[0] & a[1], a[0] & a[1] & a[2], a[0] & a[1] & a[2] & a[3]]
            suffix = [a[1] & a[2] & a[3] & a[4], a[2] & a[3] & a[4], a[3] & a[4], a[4], -1]
            for k in range(5):
                starts = prefix[k] & suffix[k] & ~a[k]
                if starts > 0:
                    out |= starts << (s * k)
            if orthogonal:          # an overline that loses a pearl may leave exactly five
                six = suffix[0] & a[0] & (men >> (s * 5))
                for j in range(6):
                    out |= six << (s * j)
        out &= g.onboard
    if len(_GAPS) >= _GAPS_LIMIT:
        _GAPS.clear()
    _GAPS[key] = out
    return out


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


def _candidates(state, hot: int) -> list:
    """The legal pushes whose ray (the push point and every point beyond it) reaches `hot`:
    for direction d, the push points on a ray running back (direction −d) from a hot point."""
    g = state.grid
    rays = _rays(g)
    occupied = state.black | state.white
    found = []
    for d in range(4):
        back = rays[d ^ 2]
        lines = 0
        for h in bits(hot):
            lines |= back[h]
        points = push.push_in_points(g, occupied, d, state.single) & lines
        found.extend(PushIn(p % g.w, p // g.w, d) for p in bits(points))
    return found


def winning_moves(state, colour: int, first: bool = False, hot: int | None = None) -> list:
    """`colour`'s pushes that would win at once if it were to move now (its threats when it is
    not), checked by playing the candidates out; with `first`, stop at the first one. `hot`
    (= gaps(state, colour)) may be passed in when already known."""
    if hot is None:
        hot = gaps(state, colour)
    if not hot:
        return []
    mover = state if state.turn == colour else replace(state, turn=colour)
    g = state.grid
    men = state.white if colour else state.black
    occupied = state.black | state.white
    rays = _rays(g)
    found = []
    for move in _candidates(state, hot):
        p = g.index(move.x, move.y)
        if not rays[move.d][p] & hot:
            continue
        # The points that gain the colour: p itself, and each point its run moves a pearl of
        # the colour onto. One of them must fill a gap, or the run must move an overline pearl.
        row, _front = push.run(g, occupied, p, move.d)
        if not (((1 << p) | g.shift(men & row, move.d)) & hot or row & hot & men):
            continue
        child = mover.apply(move)
        if child.is_terminal and child.outcome.winners == (colour,):
            found.append(move)
            if first:
                break
    return found


class FiveSearch(_Search):
    """Alpha-beta whose horizon sees one ply further where it matters: a position is scored
    as won for the side to move if it has a winning push (found by `winning_moves`, which
    plays out only the pushes that can fill a gap of five), else by the evaluator. At the
    root, a winning push is played at once, and pushes reaching either side's gaps (wins,
    blocks) are tried first.

    Measured against the plain alpha-beta at equal CPU time in docs/engines.md §5.2, with what
    was tried and dropped there (parries at the horizon, threat ordering at inner nodes)."""

    def _quiesce(self, state, qdepth: int, alpha: float, beta: float, ply: int) -> float:
        me = state.turn
        mine = gaps(state, me)
        if mine and winning_moves(state, me, first=True, hot=mine):
            return 1.0 - MATE_STEP * (ply + 1)
        return self._static(state)

    def run(self, max_depth: int):
        root, me = self.root, self.root.turn
        wins = winning_moves(root, me)
        if wins:
            self.root_moves = _first(self.root_moves, wins)
            max_depth = 1
        else:
            self.root_moves = _urgent_first(root, self.root_moves, gaps(root, 0) | gaps(root, 1))
        return super().run(max_depth)

    def prepare_lines(self, max_depth: int) -> None:
        """Multi-PV: the same root order (winning pushes, then pushes reaching a gap point)."""
        root = self.root
        wins = winning_moves(root, root.turn)
        hot = gaps(root, 0) | gaps(root, 1)
        self.root_moves = _urgent_first(root, _first(self.root_moves, wins), hot)
        self.max_lines_depth = max_depth


def _urgent_first(state, moves: list, hot: int) -> list:
    """`moves` with those whose run reaches a gap point (either colour's) first."""
    if not hot:
        return moves
    return _first(moves, [m for m in moves if _reach(state, m, hot) & hot])


def _first(moves: list, chosen: list) -> list:
    """`chosen` (a sublist of `moves`, in its own order), then the rest of `moves` in theirs."""
    if not chosen:
        return moves
    marked = set(chosen)
    return chosen + [m for m in moves if m not in marked]


class FiveEngine(AlphaBetaEngine):
    """Alpha-beta with Five's threat-aware horizon (FiveSearch)."""

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
    # A horizon that sees winning pushes, and threat-first root ordering (FiveSearch).
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


def pushes_toward(state, moves: list) -> list:
    """Two seats, in play: the slides among `moves` whose direction points at the opponent's
    pearl (it lies on the ray from the mover's pearl), the longest first. Only such a slide can
    push the opponent off the board, or shove it towards an edge; the others leave it where it
    is. Empty in the set-up and with more seats."""
    if state.players != 2 or state.in_setup:
        return []
    me = state.turn
    q, o = state.pos[me], state.pos[1 - me]
    if q < 0 or o < 0:
        return []
    rays = _rays(state.grid)
    toward = [m for m in moves if rays[m.d][q] >> o & 1]
    toward.sort(key=lambda m: -m.k)
    return toward


class SurvivalPushEvaluator(SurvivalEvaluator):
    """The strong level's evaluator: the same values, and the pushes towards the opponent
    (`pushes_toward`) searched first and searched on at the horizon (quiescence), so a push off
    the board, or a race of the two pearls towards an edge, is seen a few plies deeper than the
    nominal depth (docs/engines.md §5.2)."""

    def noisy_moves(self, state, moves: list) -> list:
        return pushes_toward(state, moves)

    def order_moves(self, state, moves: list) -> list:
        return _first(moves, pushes_toward(state, moves))


class SurvivalSearch(_Search):
    """Alpha-beta that searches one ply more at a horizon node whose side to move has at most
    `CRAMPED` slides (while the node is no deeper than twice the iteration's depth): a seat with
    no slide dies, so a cramped pearl is where Survival's games are lost, and with one or two
    slides the extra ply is cheap. Measured against the same search without it, and against
    plain UCT (docs/engines.md §5.2)."""

    CRAMPED = 2

    def _negamax(self, state, depth: int, alpha: float, beta: float, ply: int) -> float:
        if (depth <= 0 and ply <= 2 * self.iteration_depth
                and len(state.legal_moves()) <= self.CRAMPED):
            depth = 1
        return super()._negamax(state, depth, alpha, beta, ply)


class SurvivalEngine(AlphaBetaEngine):
    """Alpha-beta with the cramped-pearl extension (SurvivalSearch)."""

    search_class = SurvivalSearch


# Two seats: alpha-beta (80 % against plain UCT at 0.2 s a move, where UCT with this evaluator at
# the cut-off scored 30 %); three or four seats: the alpha-beta engines hand over to per-seat UCT.
# The strong level searches pushes towards the opponent first and on at the horizon, and one
# ply more where the side to move is cramped.
register_levels("pearl-survival", {
    **alphabeta_levels(SurvivalEvaluator),
    "strong": lambda: SurvivalEngine("strong", DEFAULT_LIMITS["strong"], SurvivalPushEvaluator()),
})
