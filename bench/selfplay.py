"""Engine self-play: how long games last and how they end, each level against itself.

    python -m bench.selfplay hasami-shogi --variant tenbin --games 6 --seconds 0.05
    python -m bench.selfplay glaisher --levels easy,medium --games 4

Each level plays `--games` games against itself at `--seconds` per move (short: this measures
game length, not strength); seeds and engine randomness are fixed, so a run is reproducible for a
node budget (`--nodes`) and nearly so for a time budget. Prints per level the mean, shortest and
longest game in plies, how the games ended (termination: count) and the results by seat.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from random import Random

import games
from ai_workers.engines import Limit, get_engine


def self_play(slug: str, level: str, limit: Limit, seed: int, variant: str | None, max_plies: int):
    """One game of `level` against itself; the final state (possibly cut off at `max_plies`)."""
    game = games.get_game(slug)
    state = game.new_state(seed=seed, variant=variant)
    engine, rng = get_engine(slug, level), Random(seed)
    while not state.is_terminal and state.ply < max_plies:
        state = state.apply(engine.search(state, limit=limit, rng=rng).move)
    return state


def result_text(state) -> str:
    if not state.is_terminal:
        return "cut off"
    if not state.outcome.winners:
        return "draw"
    return "won by seat " + "+".join(str(s) for s in state.outcome.winners)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slug")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--levels", default="easy,medium,strong")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=0.05, help="time per move")
    parser.add_argument("--nodes", type=int, default=None, help="node budget per move instead of time")
    parser.add_argument("--max-plies", type=int, default=2000)
    args = parser.parse_args(argv)
    limit = Limit(nodes=args.nodes) if args.nodes else Limit(seconds=args.seconds)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.seconds:g} s"
    print(f"{args.slug} {args.variant or 'standard'}: {args.games} self-play games per level, {budget} a move")
    for level in args.levels.split(","):
        finals = [self_play(args.slug, level, limit, seed, args.variant, args.max_plies)
                  for seed in range(args.games)]
        plies = [s.ply for s in finals]
        endings = Counter(s.outcome.termination.value if s.is_terminal else "cut_off" for s in finals)
        results = Counter(result_text(s) for s in finals)
        print(f"  {level:7} mean {statistics.mean(plies):6.1f} plies (min {min(plies)}, max {max(plies)}); "
              f"endings {dict(sorted(endings.items()))}; results {dict(sorted(results.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
