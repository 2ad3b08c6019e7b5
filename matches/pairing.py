"""Tournament pairing and tie-breaks (docs/tournaments.md). Pure: players are any hashable ids,
listed strongest first (their seed order); a pairing is (seat 0, seat 1), a bye (player, None).

- Round-robin: Berger tables (the circle method). Every pair meets once, seats alternate so each
  player's seat-0 count is within one of their seat-1 count; with an odd count, a bye each round.
- Swiss: players by score (seed order within a score), each paired with the best available
  opponent: same score first, the top half of a score group against its bottom half, colour
  preferences met where they can be; never a repeat, and nobody three seat-0 (or seat-1) games
  off even unless no other pairing exists. With an odd count the lowest-placed player who has not
  had one gets the bye. Backtracking finds a pairing whenever one exists; when none does (late
  in a long Swiss) `swiss_round` says so and the tournament ends.
- Tie-breaks: Buchholz (the sum of the opponents' scores) and Sonneborn–Berger (the opponents'
  scores weighted by the result against each: all of a beaten opponent's, half a drawn one's).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

BYE_SCORE = 1.0
SWISS, ROUND_ROBIN = "swiss", "round-robin"

Pairing = tuple[Hashable, "Hashable | None"]


@dataclass(frozen=True)
class Game:
    round: int
    first: Hashable                    # seat 0
    second: Hashable | None            # seat 1; None for a bye
    first_score: float | None = None   # 1, 0.5 or 0 for seat 0; None while undecided


# --- round-robin ----------------------------------------------------------------------------

def round_robin(players: Sequence[Hashable]) -> list[list[Pairing]]:
    """Every round of a single round-robin (n − 1 rounds, or n with an odd count)."""
    field_ = list(players) + ([None] if len(players) % 2 else [])
    n = len(field_)
    last = n - 1                         # stays put while the others turn around it
    turning = list(range(last))
    rounds = []
    for r in range(n - 1):
        circle = turning[r:] + turning[:r]
        boards = [(circle[0], last)] + [(circle[i], circle[last - i]) for i in range(1, n // 2)]
        rounds.append([_bye_last(field_, _berger_seats(a, b, r, last)) for a, b in boards])
    return rounds


def _berger_seats(a: int, b: int, round_: int, last: int) -> tuple[int, int]:
    """Seats by the players' numbers: between two of the turning players the lower number has
    seat 0 when the numbers differ by an odd amount (which evens out everyone's seats); the player
    who stays put alternates by round."""
    low, high = min(a, b), max(a, b)
    if high == last:
        return (low, high) if round_ % 2 == 0 else (high, low)
    return (low, high) if (high - low) % 2 else (high, low)


def _bye_last(field_: list, pair: tuple[int, int]) -> Pairing:
    a, b = field_[pair[0]], field_[pair[1]]
    return (b, None) if a is None else (a, b)


# --- Swiss ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entrant:
    id: Hashable
    score: float = 0.0
    opponents: frozenset = field(default_factory=frozenset)
    seats: tuple[int, ...] = ()        # the seat (0 or 1) of each game played, in order
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Seat-0 games minus seat-1 games."""
        return self.seats.count(0) - self.seats.count(1)

    @property
    def preference(self) -> int | None:
        """The seat this player is due, if any: the rarer one, else the other than last time."""
        if self.balance:
            return 0 if self.balance < 0 else 1
        return 1 - self.seats[-1] if self.seats else None


def entrants(players: Sequence[Hashable], games: Iterable[Game]) -> list[Entrant]:
    """Each player's Swiss record (score, opponents, seats, bye) from the games so far."""
    score = {p: 0.0 for p in players}
    opponents: dict = {p: set() for p in players}
    seats: dict = {p: [] for p in players}
    byes = set()
    for g in sorted(games, key=lambda g: g.round):
        if g.second is None:
            byes.add(g.first)
            score[g.first] += BYE_SCORE
            continue
        opponents[g.first].add(g.second)
        opponents[g.second].add(g.first)
        seats[g.first].append(0)
        seats[g.second].append(1)
        if g.first_score is not None:
            score[g.first] += g.first_score
            score[g.second] += 1.0 - g.first_score
    return [Entrant(p, score[p], frozenset(opponents[p]), tuple(seats[p]), p in byes) for p in players]


def swiss_round(players: Sequence[Entrant]) -> list[Pairing] | None:
    """The next round's pairings (seat 0 first), or None if no pairing avoids a repeat."""
    order = sorted(players, key=lambda e: -e.score)          # stable: seed order within a score
    # First with the seat rule (nobody more than two games off even), then, if that leaves no
    # pairing, without it: a repeat is never allowed, an uneven seat count rather than no round.
    for strict in (True, False):
        found = _pair_with_bye(order, strict)
        if found is not None:
            return found
    return None


def _pair_with_bye(order: list[Entrant], strict: bool) -> list[Pairing] | None:
    if len(order) % 2 == 0:
        found = _pair(tuple(order), strict, {})
        return None if found is None else [_seated(a, b) for a, b in found]
    fresh = [e for e in reversed(order) if not e.had_bye] or list(reversed(order))
    for bye in fresh:
        found = _pair(tuple(e for e in order if e is not bye), strict, {})
        if found is not None:
            return [_seated(a, b) for a, b in found] + [(bye.id, None)]
    return None


def _pair(rest: tuple[Entrant, ...], strict: bool, failed: dict) -> list[tuple[Entrant, Entrant]] | None:
    if not rest:
        return []
    key = frozenset(e.id for e in rest)
    if key in failed:
        return None
    top, others = rest[0], rest[1:]
    allowed = (e for e in others if e.id not in top.opponents and (not strict or _seatable(top, e)))
    for opponent in sorted(allowed, key=lambda e: _cost(top, e, rest)):
        found = _pair(tuple(e for e in others if e is not opponent), strict, failed)
        if found is not None:
            return [(top, opponent)] + found
    failed[key] = True
    return None


def _seatable(a: Entrant, b: Entrant) -> bool:
    """False when both are two games off even the same way: one of them would go to three."""
    return not (abs(a.balance) >= 2 and abs(b.balance) >= 2 and (a.balance > 0) == (b.balance > 0))


def _cost(top: Entrant, other: Entrant, rest: tuple[Entrant, ...]) -> tuple:
    """Lower is better: score difference, then a clash of due seats, then the distance from the
    ideal opponent (top half against bottom half of the score group), then seed order."""
    group = [e for e in rest if e.score == top.score]
    ideal = len(group) // 2
    position = group.index(other) if other in group else len(group)
    same = top.preference is not None and top.preference == other.preference
    clash = 1 + min(abs(top.balance), abs(other.balance)) if same else 0     # worse the further off
    return (abs(top.score - other.score), clash, abs(position - ideal), rest.index(other))


def _seated(a: Entrant, b: Entrant) -> Pairing:
    """Seat 0 to the player with fewer seat-0 games; then to the one who sat in seat 1 last;
    then to the higher placed player, unless they had seat 0 last time."""
    if a.balance != b.balance:
        return (a.id, b.id) if a.balance < b.balance else (b.id, a.id)
    if a.seats and b.seats and a.seats[-1] != b.seats[-1]:
        return (a.id, b.id) if a.seats[-1] == 1 else (b.id, a.id)
    return (b.id, a.id) if a.seats and a.seats[-1] == 0 else (a.id, b.id)


# --- standings and tie-breaks -------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    player: Hashable
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int


def standings(players: Sequence[Hashable], games: Iterable[Game], kind: str = SWISS) -> list[Standing]:
    """Players best first: by score, then (Swiss) Buchholz and Sonneborn–Berger, or (round-robin)
    Sonneborn–Berger and wins; then seed order. Undecided games count for nothing yet."""
    games = list(games)
    score = {p: 0.0 for p in players}
    results: dict = {p: [] for p in players}         # (opponent, my score) per decided game
    byes = {p: 0 for p in players}
    for g in games:
        if g.second is None:
            byes[g.first] += 1
            score[g.first] += BYE_SCORE
        elif g.first_score is not None:
            results[g.first].append((g.second, g.first_score))
            results[g.second].append((g.first, 1.0 - g.first_score))
            score[g.first] += g.first_score
            score[g.second] += 1.0 - g.first_score
    rows = []
    for p in players:
        mine = results[p]
        rows.append(Standing(
            p, score[p], sum(score[o] for o, _ in mine), sum(score[o] * s for o, s in mine),
            sum(s == 1 for _, s in mine), sum(s == 0.5 for _, s in mine), sum(s == 0 for _, s in mine), byes[p]))
    seed = {p: i for i, p in enumerate(players)}
    if kind == SWISS:
        return sorted(rows, key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, seed[s.player]))
    return sorted(rows, key=lambda s: (-s.score, -s.sonneborn_berger, -s.wins, seed[s.player]))
