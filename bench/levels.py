"""The engine level table: each level against the next, and the strong level against plain UCT.

    python -m bench.levels                                  # every game, 100 games per pairing
    python -m bench.levels hasami-shogi glaisher --games 20 --workers 2
    python -m bench.levels --json var/bench/levels.json --markdown var/bench/levels.md
    python -m bench.levels --render var/bench/levels.json var/bench/eleusis.json   # the table again
    python -m bench.levels hasami-shogi --sprt --games 200 --strength ai_workers/engines/strength.json

Pairings, for every two-seat game (and Pearl Survival at two seats): `easy` against `random`,
`medium` against `easy`, `strong` against `medium`, and `strong` against plain UCT (random
rollouts, no evaluator) at equal time, the strong level's budget each. The games of a pairing
alternate the seats, so half are played with each seat order; game i uses seed i.

Budgets. Every engine gets its level's time budget times `--scale`, as a node budget: the bench
first measures the engine's own speed on this machine (nodes per CPU second over a few positions of
the game) and converts. Node budgets make a long run reproducible and blind to other load on the
machine; CPU seconds make the conversion blind to it too.

Elo. A pairing's score is s = (wins + draws / 2) / games for the first-named engine; its Elo
difference is 400·log10(s / (1 − s)), and the 95 % interval is the Wilson score interval on s,
converted the same way (so an unbeaten pairing still gets a finite lower bound).

Sequential testing (`--sprt`). Each adjacent pairing (easy − random, medium − easy, strong −
medium) is played a pair of games at a time (a batch of `--workers` pairs), and stops as soon as
an SPRT on the Elo gap decides between H0: gap ≤ `--elo0` (0) and H1: gap ≥ `--elo1` (100), at
error rates `--alpha` and `--beta` (5 % each), or at `--games`. The log-likelihood ratio is the
usual normal approximation on the games' scores (as in chess engine testing):
LLR = n·(s1 − s0)·(2·x̄ − s0 − s1) / (2·σ²), s0 and s1 the expected scores at elo0 and elo1,
x̄ and σ² the mean and variance of the game scores (σ² at least 0.01, so an unbeaten pairing's
LLR is finite); bounds log(β / (1 − α)) and log((1 − β) / α); at least `--min-games`.
`--strength FILE` then writes (merging into FILE, game by game) each level's Elo relative to
`random`: the sum of the gaps along the ladder, with the sum of their 95 % bounds as a
(conservative) interval, and the games played; the catalogue serves it (`GET games/`).

New Eleusis (hidden information, 4–8 seats) plays four seats, two per level, seated ABAB and BABA
in turn, each level with its own (unscaled) budget, since those levels differ by the candidate
rules they consider and answer well within it; each of A's seats meets each of B's seats by
final score. Pearl Maze (one seat) prints each level's walk from the standard starts, at
`--puzzle-scale` × the budgets; with `--strength`, those walks are its levels' strength.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path
from random import Random

import games
from ai_workers.engines import LEVELS, Engine, Limit, get_engine
from ai_workers.engines.base import Budget
from bench.engines import plain_uct, play_game, random_plies

Z95 = 1.959964
UCT = "plain-uct"
LADDER = (("easy", "random"), ("medium", "easy"), ("strong", "medium"))
#: Two-player games whose first mover wins with perfect play (docs/engines.md §1.2).
DECIDED_FROM_THE_START = {"pearl-yard"}
DEFAULT_ENTRIES = ("pearl-maze", "dai-hasami-shogi", "glaisher", "hasami-shogi",
                   "hasami-shogi:tenbin", "latrunculi", "mak-yek", "pearl-five", "pearl-survival",
                   "pearl-war", "pearl-yard", "ring-rugby", "new-eleusis")


# -- statistics ----------------------------------------------------------------------------------
def elo(score: float) -> float:
    """The Elo difference that predicts `score` (±inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion `score` observed over `n` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Pairing:
    """The tally of engine A (the first-named) against engine B. Wins, draws and losses count
    seat-against-seat meetings (one per two-seat game, four per four-seat game); the score is the
    mean of the games' scores, and the interval counts games, not meetings."""

    game: str
    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    capped: int = 0
    plies: int = 0
    games: int = 0
    points: float = 0.0
    points_sq: float = 0.0
    llr: float | None = None
    decision: str | None = None        # SPRT: "H1" (gap ≥ elo1), "H0" (gap ≤ elo0), None: undecided

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5

    def interval(self) -> tuple[float, float]:
        low, high = wilson(self.score, self.games)
        # an unbeaten (or winless) pairing: the bound is the score itself, up to rounding
        return (elo(0.0 if low <= 1e-9 else low), elo(1.0 if high >= 1.0 - 1e-9 else high))

    def as_dict(self) -> dict:
        low, high = self.interval()
        return {**asdict(self), "score": self.score, "elo": _finite(elo(self.score)),
                "elo_low": _finite(low), "elo_high": _finite(high)}


def _finite(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 1)


def signed(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{value:+.0f}".replace("-", "−")


# -- engines and budgets -------------------------------------------------------------------------
def make_engine(slug: str, level: str) -> Engine:
    if level == UCT:
        return plain_uct(Limit(seconds=1.0))
    return get_engine(slug, level)


def level_seconds(slug: str, level: str) -> float | None:
    """The level's own time budget (plain UCT takes the strong level's)."""
    return get_engine(slug, "strong" if level == UCT else level).default_limit.seconds


def sample_positions(slug: str, variant: str | None, players: int, count: int = 3) -> list:
    """The start and a few positions reached by random play from it (never a finished one)."""
    game, rng = games.get_game(slug), Random(7)
    return [random_plies(game.new_state(players=players, seed=index, variant=variant), 12 * index, rng)
            for index in range(count)]


def node_rate(slug: str, variant: str | None, players: int, level: str,
              probe_seconds: float = 0.25) -> float | None:
    """The engine's nodes per CPU second over the sample positions, counting only the probes
    that ran into the budget (None if it answered early everywhere, as a proof does)."""
    nodes, cpu = 0, 0.0
    for state in sample_positions(slug, variant, players):
        started = time.process_time()
        result = make_engine(slug, level).search(state, limit=Limit(seconds=probe_seconds),
                                                 rng=Random(0))
        if result.seconds >= probe_seconds / 2:
            cpu += time.process_time() - started
            nodes += result.nodes
    return nodes / cpu if nodes and cpu > 0 else None


def node_budget(slug: str, variant: str | None, players: int, level: str,
                scale: float) -> int | None:
    """The level's scaled time budget in the engine's own nodes, from its CPU-time speed here.
    An engine that answers before its budget everywhere (a proof, a policy that does not search)
    gets the medium level's rate, or, if that one does not search either, None: it plays with
    its own budget, which it does not use up."""
    seconds = level_seconds(slug, level)
    if seconds is None:                       # the random player: one node, no search
        return 1
    rate = node_rate(slug, variant, players, level) or node_rate(slug, variant, players, "medium")
    return None if rate is None else max(1, round(rate * seconds * scale))


# -- playing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameTask:
    """One game as plain data, so that worker processes can play it."""

    slug: str
    variant: str | None
    seats: tuple[tuple[str, int | float | None], ...]   # (level, node budget / CPU s / None)
    seed: int
    opening_plies: int
    max_plies: int
    cpu_time: bool = False          # seats' budgets are CPU seconds a move, not nodes


def seat_limit(engine: Engine, budget: int | float | None, cpu_time: bool) -> Limit:
    """A seat's budget for every move: its node count, its CPU seconds (`--cpu-time`), or, for
    None, the engine's own default budget."""
    if budget is None:
        return engine.default_limit
    return Limit(seconds=budget) if cpu_time else Limit(nodes=int(budget))


def play(task: GameTask) -> dict:
    """Play one game to its end (or the cap); the final scores, winners and length."""
    game = games.get_game(task.slug)
    state = game.new_state(players=len(task.seats), seed=task.seed, variant=task.variant)
    engines = [make_engine(task.slug, level) for level, _ in task.seats]
    limits = [seat_limit(engine, budget, task.cpu_time)
              for engine, (_, budget) in zip(engines, task.seats)]
    rng = Random(task.seed)
    state = random_plies(state, task.opening_plies, rng)
    clock = Budget.__dict__["clock"]
    if task.cpu_time:               # the searches of this game time themselves in CPU seconds
        Budget.clock = staticmethod(time.process_time)
    try:
        state = play_game(state, engines, limits, rng, task.max_plies - state.ply)
    finally:
        Budget.clock = clock
    if not state.is_terminal:
        return {"ply": state.ply, "finished": False, "winners": [], "scores": []}
    return {"ply": state.ply, "finished": True, "winners": list(state.outcome.winners),
            "scores": list(state.outcome.scores)}


def seatings(players: int, n_games: int) -> list[tuple[bool, ...]]:
    """For each game, which seats A takes: the two games of a pair swap them (two seats: A first,
    then B first; four seats: ABAB, then BABA)."""
    out = []
    for index in range(n_games):
        first = index % 2 == 0
        out.append(tuple((seat % 2 == 0) == first for seat in range(players)))
    return out


def tally(pairing: Pairing, seating: tuple[bool, ...], result: dict) -> None:
    """Add one game: A's seats meet B's seats pairwise (by winners; by score with 3+ seats), and
    the game scores A's share of those meetings."""
    pairing.games += 1
    pairing.plies += result["ply"]
    a_seats = [s for s, is_a in enumerate(seating) if is_a]
    b_seats = [s for s, is_a in enumerate(seating) if not is_a]
    meetings = [(a, b) for a in a_seats for b in b_seats]
    if not result["finished"]:
        pairing.capped += 1
        pairing.draws += len(meetings)
        pairing.points += 0.5
        pairing.points_sq += 0.25
        return
    winners, scores = set(result["winners"]), result["scores"]
    points = 0.0
    for a, b in meetings:
        if len(seating) == 2:
            a_value, b_value = a in winners, b in winners
        else:
            a_value, b_value = scores[a], scores[b]
        if a_value > b_value:
            pairing.wins += 1
            points += 1.0
        elif a_value < b_value:
            pairing.losses += 1
        else:
            pairing.draws += 1
            points += 0.5
    pairing.points += points / len(meetings)
    pairing.points_sq += (points / len(meetings)) ** 2


# -- sequential testing --------------------------------------------------------------------------
VARIANCE_FLOOR = 0.01


def expected_score(gap: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-gap / 400.0))


def sprt_llr(pairing: Pairing, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (gap = elo1) against H0 (gap = elo0), by the normal
    approximation on the games' scores."""
    n = pairing.games
    if n < 2:
        return 0.0
    mean = pairing.points / n
    variance = max(pairing.points_sq / n - mean * mean, VARIANCE_FLOOR)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(pairing: Pairing, args) -> str | None:
    """H1, H0, or None while the test goes on (and below `--min-games`)."""
    pairing.llr = round(sprt_llr(pairing, args.elo0, args.elo1), 3)
    lower, upper = sprt_bounds(args.alpha, args.beta)
    if pairing.games < args.min_games:
        return None
    if pairing.llr >= upper:
        return "H1"
    if pairing.llr <= lower:
        return "H0"
    return None


def level_strength(pairings: list[dict]) -> dict[str, dict]:
    """Each level's Elo relative to `random`, chaining the adjacent gaps of one game's ladder:
    the sum of the gaps (infinite once a pairing is unbeaten), the sums of their 95 % bounds, and
    the games played on the way (the level's own pairing and all below it)."""
    by_pair = {(p["a"], p["b"]): p for p in pairings}
    out = {"random": {"elo": 0.0, "elo_low": 0.0, "elo_high": 0.0, "games": 0, "decision": None}}
    elo_sum, low_sum, high_sum, played = 0.0, 0.0, 0.0, 0
    for a, b in LADDER:
        p = by_pair.get((a, b))
        if p is None:
            break
        elo_sum += math.inf if p["elo"] is None and p["score"] >= 0.5 else (
            -math.inf if p["elo"] is None else p["elo"])
        low_sum += p["elo_low"] if p["elo_low"] is not None else -math.inf
        high_sum += p["elo_high"] if p["elo_high"] is not None else math.inf
        played += p["games"]
        out[a] = {"elo": _finite(elo_sum), "elo_low": _finite(low_sum), "elo_high": _finite(high_sum),
                  "games": played, "pairing_games": p["games"], "decision": p.get("decision")}
    return out


def entry_players(slug: str) -> int:
    game = games.get_game(slug)
    return 4 if game.has_hidden_information else max(2, game.min_players)


def entry_plan(entry: str, args) -> tuple:
    """(slug, variant, players, opening plies, budgets per level, pairings) of one entry."""
    slug, _, variant = entry.partition(":")
    variant = variant or None
    players = entry_players(slug)
    opening = 0 if games.get_game(slug).has_hidden_information else args.opening_plies
    if games.get_game(slug).has_hidden_information:
        # Its levels differ by what they consider, not by search (ai_workers/engines/
        # eleusis.py), and they answer well within their own budgets: play with those.
        budgets = dict.fromkeys(("random", "easy", "medium", "strong"))
    elif args.cpu_time:
        budgets = {level: (None if level_seconds(slug, level) is None else
                           level_seconds(slug, level) * args.scale)
                   for level in ("random", "easy", "medium", "strong", UCT)}
    else:
        budgets = {level: node_budget(slug, variant, players, level, args.scale)
                   for level in ("random", "easy", "medium", "strong", UCT)}
    print(f"{entry}: {'CPU-time' if args.cpu_time else 'node'} budgets " + ", ".join(
        f"{k} {'own' if v is None else format(v, ',')}" for k, v in budgets.items()),
          flush=True)
    pairs = list(LADDER)
    if not games.get_game(slug).has_hidden_information and not getattr(args, "sprt", False):
        pairs.append(("strong", UCT))
    if args.pairings:
        pairs = [(a, b) for a, b in pairs if f"{a}-{b}" in args.pairings]
    return slug, variant, players, opening, budgets, pairs


def pair_tasks(entry: str, plan: tuple, a: str, b: str, index: int, args) -> list:
    """The two games of pair `index` (one start, the seats swapped): (seating, task) each."""
    slug, variant, players, opening, budgets, _ = plan
    out = []
    for game_index in (2 * index, 2 * index + 1):
        seating = seatings(players, game_index + 1)[game_index]
        seats = tuple((a, budgets[a]) if is_a else (b, budgets[b]) for is_a in seating)
        out.append((seating, GameTask(slug, variant, seats, args.seed + index, opening,
                                      args.max_plies, args.cpu_time)))
    return out


def run_sequential(entries: list[str], args, on_entry=None) -> list[Pairing]:
    """The adjacent pairings of every entry, each played pair by pair (`--workers` pairs at a
    time) until its SPRT decides or `--games` are played; `on_entry(rows)` after each entry."""
    pairings = []
    started = time.perf_counter()
    # One worker plays in this process (no pool to start); more play in worker processes.
    with (ProcessPoolExecutor(max_workers=args.workers) if args.workers > 1 else nullcontext()) as pool:
        run = pool.map if pool is not None else (lambda fn, tasks, chunksize=1: map(fn, tasks))
        for entry in entries:
            plan = entry_plan(entry, args)
            for a, b in plan[5]:
                pairing, index = Pairing(entry, a, b), 0
                while pairing.games < args.games and pairing.decision is None:
                    batch = []
                    for _ in range(max(1, min(args.workers, (args.games - pairing.games) // 2))):
                        batch += pair_tasks(entry, plan, a, b, index, args)
                        index += 1
                    for (seating, _), result in zip(batch, run(play, [t for _, t in batch], chunksize=1), strict=True):
                        tally(pairing, seating, result)
                    pairing.decision = sprt_decision(pairing, args)
                print_row(pairing, time.perf_counter() - started, pairing.games, pairing.games)
                print(f"    SPRT elo0={args.elo0:g} elo1={args.elo1:g}: LLR {pairing.llr:+.2f} → "
                      f"{pairing.decision or 'undecided'} after {pairing.games} games", flush=True)
                pairings.append(pairing)
            if on_entry is not None:
                on_entry([p.as_dict() for p in pairings if p.game == entry])
    return pairings


def run_pairings(entries: list[str], args) -> list[Pairing]:
    """Every pairing of every entry, its games spread over `args.workers` processes."""
    plan = []            # (pairing, seating, task)
    for entry in entries:
        slug, variant, players, opening, budgets, pairs = entry_plan(entry, args)
        for a, b in pairs:
            pairing = Pairing(entry, a, b)
            for index, seating in enumerate(seatings(players, args.games)):
                seats = tuple((a, budgets[a]) if is_a else (b, budgets[b]) for is_a in seating)
                task = GameTask(slug, variant, seats, args.seed + index // 2, opening,
                                args.max_plies, args.cpu_time)
                plan.append((pairing, seating, task))
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for done, ((pairing, seating, _), result) in enumerate(
                zip(plan, pool.map(play, [task for _, _, task in plan], chunksize=1)), 1):
            tally(pairing, seating, result)
            if pairing.games == args.games:
                print_row(pairing, time.perf_counter() - started, done, len(plan))
    pairings, seen = [], set()
    for pairing, _, _ in plan:
        if id(pairing) not in seen:
            seen.add(id(pairing))
            pairings.append(pairing)
    return pairings


def print_row(pairing: Pairing, elapsed: float, done: int, total: int) -> None:
    low, high = pairing.interval()
    print(f"  {pairing.game:<22} {pairing.a:>7} vs {pairing.b:<10} {pairing.wins:>4}/"
          f"{pairing.draws:>3}/{pairing.losses:>4}  score {100 * pairing.score:5.1f}%  "
          f"Elo {signed(elo(pairing.score)):>5} [{signed(low)}, {signed(high)}]  "
          f"{pairing.plies / pairing.games:6.1f} plies  ({done}/{total} games, {elapsed:.0f}s)",
          flush=True)


def puzzle_walks(args) -> list[dict]:
    """Pearl Maze: each level's walk from each standard start, at its scaled node budget."""
    game, rows = games.get_game("pearl-maze"), []
    for variant in ("standard", "outside"):
        for level in ("random", "easy", "medium", "strong"):
            nodes = node_budget("pearl-maze", variant, 1, level, args.puzzle_scale)
            state, engine, rng = game.new_state(players=1, variant=variant), \
                make_engine("pearl-maze", level), Random(0)
            while not state.is_terminal:
                limit = engine.default_limit if nodes is None else Limit(nodes=nodes)
                state = state.apply(engine.search(state, limit=limit, rng=rng).move)
            rows.append({"variant": variant, "level": level, "nodes": nodes,
                         "walk": state.outcome.scores[0]})
            print(f"  pearl-maze {variant:<9} {level:<7} walk {state.outcome.scores[0]:>4.0f}",
                  flush=True)
    return rows


# -- reporting -----------------------------------------------------------------------------------
def report(pairings: list[dict], walks: list[dict], games_per_pairing: int, scale: float,
           opening_plies: int) -> str:
    """The level table in Markdown: a row per game, a column per pairing (JSON pairings in)."""
    columns = [(a, b) for a, b in LADDER] + [("strong", UCT)]
    by_key = {(p["game"], p["a"], p["b"]): p for p in pairings}
    lines = [f"{games_per_pairing} games per pairing, in pairs that share a start ({opening_plies} "
             f"random plies, or the deal) and swap the seats; every level at {scale:g} × its time "
             "budget, as nodes. Each cell: the first-named level's score, then the Elo difference "
             "with its 95 % interval; W/D/L counts seat-against-seat results.", "",
             "| game | " + " | ".join(f"{a} − {b}" for a, b in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for game in dict.fromkeys(p["game"] for p in pairings):
        cells = []
        for a, b in columns:
            p = by_key.get((game, a, b))
            if p is None:
                cells.append("—")
                continue
            cells.append(f"{100 * p['score']:.0f} % ({p['wins']}/{p['draws']}/{p['losses']}), "
                         f"{_elo_text(p['elo'], p['score'])} "
                         f"[{_elo_text(p['elo_low'], 0.0)}, {_elo_text(p['elo_high'], 1.0)}]")
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    if walks:
        lines += ["", "| Pearl Maze start | " + " | ".join(w["level"] for w in walks[:4]) + " |",
                  "|---|" + "---|" * 4]
        for variant in dict.fromkeys(w["variant"] for w in walks):
            row = [f"{w['walk']:.0f}" for w in walks if w["variant"] == variant]
            lines.append(f"| {variant} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def strength_report(data: dict) -> str:
    """The strength file (`--strength`) as Markdown: a row per game, each level's Elo relative
    to `random` [95 % interval] (games on the way), and the pairings with their SPRT outcome;
    Pearl Maze's walks in a table of their own."""
    lines = ["| game | scale | easy | medium | strong | pairings (W/D/L, LLR, decision) |",
             "|---|---|---|---|---|---|"]
    walks = []
    for entry, found in sorted(data["games"].items()):
        levels = found["levels"]
        if any("walks" in row for row in levels.values()):
            walks.append((entry, found))
            continue
        cells = []
        for level in LEVELS[1:]:
            row = levels[level]
            if row["elo"] is None:
                cells.append(f"≥ {_elo_text(row['elo_low'], 0.0)} ({row['games']})")
            else:
                cells.append(f"{_elo_text(row['elo'], 0.5)} [{_elo_text(row['elo_low'], 0.0)}, "
                             f"{_elo_text(row['elo_high'], 1.0)}] ({row['games']})")
        pairs = ", ".join(f"{p['a']}−{p['b']} {p['wins']}/{p['draws']}/{p['losses']} LLR "
                          f"{p['llr']:+.1f} {p['decision'] or 'undecided'}" for p in found["pairings"])
        lines.append(f"| {entry} | {found['run']['scale']:g} × | " + " | ".join(cells) + f" | {pairs} |")
    for entry, found in walks:
        walked = found["levels"]["random"]["walks"]
        starts = [v for v in games.get_game(entry).variants if v in walked]    # standard first
        lines += ["", f"| {entry} at {found['run']['scale']:g} ×: walk from | " + " | ".join(LEVELS)
                  + " |", "|---|" + "---|" * 4]
        for start in starts:
            lines.append(f"| {start} | " + " | ".join(
                str(found["levels"][level]["walks"][start]) for level in LEVELS) + " |")
    return "\n".join(lines) + "\n"


def _elo_text(value: float | None, score: float) -> str:
    """A JSON Elo figure (None stands for ±infinity: score 1 or 0)."""
    if value is None:
        return "+∞" if score >= 0.5 else "−∞"
    return signed(value)


def _run_record(args, argv: list[str] | None, scale: float) -> dict:
    import datetime
    import sys

    command = "python -m bench.levels " + " ".join(argv if argv is not None else sys.argv[1:])
    return {"command": command, "date": datetime.date.today().isoformat(),
            "budgets": "CPU seconds" if args.cpu_time else "nodes", "scale": scale,
            "sprt": {"elo0": args.elo0, "elo1": args.elo1, "alpha": args.alpha, "beta": args.beta,
                     "min_games": args.min_games, "max_games": args.games} if args.sprt else None}


def _merge(path: Path, entries: dict) -> None:
    """Replace these game entries of the results file at `path`, keeping the others."""
    data = json.loads(path.read_text()) if path.exists() else {"games": {}}
    data["games"].update(entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def entry_run(entry: str, args, argv: list[str] | None) -> dict:
    """The run record of one game: a game with hidden information plays its levels' own
    (served) budgets whatever `--scale` says (entry_plan), so its record says so."""
    if games.get_game(entry.partition(":")[0]).has_hidden_information:
        return {**_run_record(args, argv, 1.0), "budgets": "seconds"}
    return _run_record(args, argv, args.scale)


PAIRING_KEYS = ("a", "b", "wins", "draws", "losses", "games", "score", "elo", "elo_low", "elo_high", "llr",
                "decision")


def write_strength(path: Path, rows: list[dict], args, argv: list[str] | None) -> None:
    """Merge the run's per-level strength into `path`, one entry per game (other games kept)."""
    entries: dict[str, dict] = {}
    for entry in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == entry]
        entries[entry] = {"levels": level_strength(mine), "run": entry_run(entry, args, argv),
                          "pairings": [{k: r[k] for k in PAIRING_KEYS} for r in mine]}
    _merge(path, entries)


def write_walks(path: Path, walks: list[dict], args, argv: list[str] | None) -> None:
    """Merge Pearl Maze's measured strength into `path`: each level's walk from each standard
    start, at `--puzzle-scale` (a puzzle has no opponent: the walk is the strength, and
    `random`'s walk is the baseline), and the solution files the strong level could read."""
    from ai_workers.engines.solvers import cache

    levels = {w["level"]: {"walks": {}, "nodes": {}} for w in walks}
    for w in walks:
        levels[w["level"]]["walks"][w["variant"]] = int(w["walk"])
        levels[w["level"]]["nodes"][w["variant"]] = w["nodes"]
    # the strong level plays proofs from these files where they cover the walk (engines.md §2)
    solutions = [Path(name).name for name, _ in cache.files("pearl-maze", None)]
    _merge(path, {"pearl-maze": {"levels": levels, "run": {
        **_run_record(args, argv, args.puzzle_scale), "sprt": None, "solution_files": solutions}}})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", nargs="*", help="games, `slug` or `slug:variant` "
                        "(default: every game, and the tenbin variant of Hasami Shogi)")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (even)")
    parser.add_argument("--scale", type=float, default=0.02,
                        help="factor on every level's time budget")
    parser.add_argument("--puzzle-scale", type=float, default=0.2,
                        help="factor on every level's time budget for Pearl Maze's walks")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--opening-plies", type=int, default=2,
                        help="random plies that open each pair of games")
    parser.add_argument("--max-plies", type=int, default=300,
                        help="a game still running after this many plies counts as a draw")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-time", action="store_true",
                        help="budgets in CPU seconds a move (level time × scale, read with "
                             "time.process_time) instead of node counts from speed probes")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument("--pairings", nargs="+", default=None,
                        help="only these pairings, e.g. strong-medium strong-plain-uct")
    parser.add_argument("--render", type=Path, nargs="+", default=None,
                        help="print the table of earlier --json files instead of playing")
    parser.add_argument("--sprt", action="store_true",
                        help="adjacent levels only, each pairing until an SPRT decides (at most --games)")
    parser.add_argument("--elo0", type=float, default=0.0, help="SPRT H0: the gap is at most this")
    parser.add_argument("--elo1", type=float, default=100.0, help="SPRT H1: the gap is at least this")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--min-games", type=int, default=10, help="SPRT: games before any decision")
    parser.add_argument("--strength", type=Path, default=None,
                        help="merge each level's Elo relative to random into this JSON file")
    parser.add_argument("--render-strength", type=Path, default=None,
                        help="print the table of a --strength file instead of playing")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even, so that both seat orders are played equally")
    if args.render_strength:
        print(strength_report(json.loads(args.render_strength.read_text())))
        return 0
    if args.render:
        merged: dict = {}
        walks: list[dict] = []
        for path in args.render:           # later files replace earlier rows of the same pairing
            data = json.loads(path.read_text())
            merged.update({(p["game"], p["a"], p["b"]): p for p in data["pairings"]})
            walks = data.get("pearl_maze") or walks
        text = report(list(merged.values()), walks, data["games"], data["scale"],
                      data.get("opening_plies", args.opening_plies))
    else:
        entries = list(args.entries or DEFAULT_ENTRIES)
        walks = puzzle_walks(args) if "pearl-maze" in entries else []
        if walks and args.strength:
            write_walks(args.strength, walks, args, argv)
        played = [e for e in entries if e != "pearl-maze"]
        # with --strength, each game's entry is written as soon as its ladder is measured
        keep = (lambda rows: write_strength(args.strength, rows, args, argv)) if args.strength else None
        rows = [p.as_dict() for p in (run_sequential(played, args, keep) if args.sprt
                                      else run_pairings(played, args))]
        text = report(rows, walks, args.games, args.scale, args.opening_plies)
        if args.strength and not args.sprt:
            write_strength(args.strength, rows, args, argv)
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps({"games": args.games, "scale": args.scale,
                                             "opening_plies": args.opening_plies,
                                             "pairings": rows, "pearl_maze": walks}, indent=2))
    print("\n" + text)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
