"""Engine strength and speed: level-vs-level and engine-vs-plain-UCT matches, nodes/s per game.

    python -m bench.engines                         # every game, the default (small) budgets
    python -m bench.engines hasami-shogi --games 20 --seconds 0.5
    python -m bench.engines --speed-only --timing      # nodes/s and reply time per level

For each game it prints a win-rate table. Rows:
- `strong vs uct`: the strong level's engine against plain UCT (random rollouts, no evaluator) at
  the *same* time per move (`--seconds`); this is the number the engines are judged by;
- `strong vs eval-uct`: the same, against UCT driven by the game's own evaluator and rollout
  policy (the `uct` level, where a game has one): which search suits the game;
- `strong vs medium`, `medium vs easy`, `easy vs random`: each level with its own default budget,
  scaled by `--scale` so a run stays short.
One-seat puzzles print each level's score over a whole puzzle instead. Seats alternate between
games; in games for more seats the engine under test plays one seat and
the opponent engine all the others (the seat rotates). A game still running after `--max-plies`
plies is counted as a draw ("capped"). Score = (wins + draws / 2) / games.
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from random import Random

import games
from ai_workers.engines import Engine, Limit, MCTSEngine, get_engine, levels_for


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    capped: int = 0
    plies: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def plain_uct(limit: Limit) -> Engine:
    return MCTSEngine("plain-uct", limit)


def play_game(state, engines: list, limits: list, rng: Random, max_plies: int):
    """Play to the end (or the cap); `engines[seat]` moves for each seat. Returns the final state."""
    plies = 0
    while not state.is_terminal and plies < max_plies:
        seat = state.current_player
        result = engines[seat].search(state, limit=limits[seat], rng=rng)
        state = state.apply(result.move)
        plies += 1
    return state


def match(slug: str, make_a, make_b, limit_a: Limit, limit_b: Limit, n_games: int,
          max_plies: int, seed: int = 0, variant: str | None = None) -> Tally:
    """`n_games` games of engine A against B (B takes every other seat); A's tally."""
    game = games.get_game(slug)
    players = game.min_players if game.min_players > 1 else None
    tally = Tally()
    for i in range(n_games):
        state = game.new_state(players=players, seed=seed + i, variant=variant)
        a_seat = i % state.players
        engines = [make_a() if s == a_seat else make_b() for s in range(state.players)]
        limits = [limit_a if s == a_seat else limit_b for s in range(state.players)]
        final = play_game(state, engines, limits, Random(seed * 1000 + i), max_plies)
        tally.plies += final.ply
        if not final.is_terminal:
            tally.draws += 1
            tally.capped += 1
        elif a_seat in final.outcome.winners and len(final.outcome.winners) == 1:
            tally.wins += 1
        elif not final.outcome.winners or a_seat in final.outcome.winners:
            tally.draws += 1
        else:
            tally.losses += 1
    return tally


def random_plies(state, plies: int, rng: Random):
    """`state` after up to `plies` random plies, stopping short of the end."""
    for _ in range(plies):
        following = state.apply(rng.choice(state.legal_moves()))
        if following.is_terminal:
            break
        state = following
    return state


def warmed_up(slug: str, plies: int, seed: int = 1):
    """The start position after up to `plies` random plies, stopping short of the end."""
    game = games.get_game(slug)
    return random_plies(game.new_state(players=game.min_players, seed=seed), plies, Random(plies))


def speed(slug: str, level: str, seconds: float, warmup_plies: int = 20) -> tuple[float, float]:
    """(nodes/s from the start, nodes/s after `warmup_plies` random plies) for one level."""
    out = []
    for plies in (0, warmup_plies):
        state = warmed_up(slug, plies)
        result = get_engine(slug, level).search(state, limit=Limit(seconds=seconds), rng=Random(0))
        out.append(result.nodes / max(result.seconds, 1e-9))
    return out[0], out[1]


def reply_times(slug: str, plies: int = 20) -> dict:
    """Each level's reply time with its own default budget: (start, mid-game) seconds."""
    start, mid = warmed_up(slug, 0), warmed_up(slug, plies)
    out = {}
    for level in levels_for(slug):
        engine = get_engine(slug, level)
        times = []
        for state in (start, mid):
            started = time.perf_counter()
            engine.search(state, rng=Random(0))
            times.append(time.perf_counter() - started)
        out[level] = (engine.default_limit.seconds, times[0], times[1])
    return out


def puzzle_scores(slug: str, table, scale: float) -> None:
    """One-seat puzzles: play each level to the end (budgets scaled) and print its score."""
    game = games.get_game(slug)
    for level, make in table.items():
        engine, started = make(), time.perf_counter()
        limit = engine.default_limit.scaled(scale)
        state = game.new_state(players=1, seed=0)
        while not state.is_terminal:
            state = state.apply(engine.search(state, limit=limit, rng=Random(0)).move)
        print(f"  {level:<10} score {state.outcome.scores[0]:>6.0f} "
              f"({state.outcome.termination.value}, {time.perf_counter() - started:.1f}s)",
              flush=True)


def print_row(label: str, tally: Tally, elapsed: float) -> None:
    print(f"  {label:<22} {tally.games:>5} {tally.wins:>5} {tally.draws:>5} {tally.losses:>6} "
          f"{tally.capped:>6} {100 * tally.score:>6.1f}% {tally.plies / max(tally.games, 1):>7.1f} "
          f"{elapsed:>7.1f}s", flush=True)


def bench_game(slug: str, args) -> None:
    game = games.get_game(slug)
    table = levels_for(slug)
    print(f"\n{slug} {args.variant or ''} ({game.min_players}-{game.max_players} seats)",
          flush=True)
    start_nps, mid_nps = speed(slug, "strong", args.speed_seconds)
    plain = "plain UCT: not run (it would search the hidden true state)"
    if not game.has_hidden_information:
        uct_start, uct_mid = speed_plain(slug, args.speed_seconds)
        plain = f"plain UCT {uct_start:,.0f} / {uct_mid:,.0f} playouts/s"
    print(f"  speed: strong {start_nps:,.0f} nodes/s at the start, {mid_nps:,.0f} mid-game; "
          f"{plain}", flush=True)
    if args.timing:
        for level, (budget, t0, t1) in reply_times(slug).items():
            budget_text = f"{budget:.2f}s" if budget is not None else "none"
            print(f"  reply {level:<10} budget {budget_text:>6}: {t0:.3f}s at the start, "
                  f"{t1:.3f}s mid-game", flush=True)
    if game.max_players == 1 and not args.speed_only:
        puzzle_scores(slug, table, args.scale)
    if args.speed_only or game.has_hidden_information or game.max_players == 1:
        return
    print(f"  {'pairing':<22} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'capped':>6} "
          f"{'score':>7} {'plies':>7} {'time':>8}")
    equal = Limit(seconds=args.seconds)
    rows = [("strong vs uct", lambda: table["strong"](), lambda: plain_uct(equal), equal, equal)]
    if "uct" in table:      # the game's evaluator under UCT: is alpha-beta the better search?
        rows.append(("strong vs eval-uct", table["strong"], table["uct"], equal, equal))
    for a, b in (("strong", "medium"), ("medium", "easy"), ("easy", "random")):
        la = table[a]().default_limit.scaled(args.scale)
        lb = table[b]().default_limit.scaled(args.scale)
        rows.append((f"{a} vs {b}", table[a], table[b], la, lb))
    for label, make_a, make_b, la, lb in rows:
        if args.only and args.only not in label:
            continue
        started = time.perf_counter()
        tally = match(slug, make_a, make_b, la, lb, args.games, args.max_plies, args.seed,
                      args.variant)
        print_row(label, tally, time.perf_counter() - started)


def speed_plain(slug: str, seconds: float) -> tuple[float, float]:
    """Plain UCT playouts/s from the start and after 20 random plies."""
    out = []
    for plies in (0, 20):
        result = plain_uct(Limit(seconds=seconds)).search(warmed_up(slug, plies), rng=Random(0))
        out.append(result.nodes / max(result.seconds, 1e-9))
    return out[0], out[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--games", type=int, default=6, help="games per pairing")
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="time per move for strong vs plain UCT")
    parser.add_argument("--scale", type=float, default=0.1,
                        help="factor on each level's own budget in level-vs-level rows")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--speed-seconds", type=float, default=1.0)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--timing", action="store_true",
                        help="also time each level's reply at its own default budget")
    parser.add_argument("--only", default="", help="run only the rows whose label contains this")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default=None, help="a named variant for the matches")
    args = parser.parse_args(argv)
    for slug in args.slugs or sorted(games.GAMES):
        bench_game(slug, args)


if __name__ == "__main__":
    main()
