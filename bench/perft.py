"""Perft (leaf positions at each depth) from a game's start position, with timings.

    python -m bench.perft hasami-shogi --variant tenbin --depth 3
    python -m bench.perft glaisher --depth 2 --option setup=ring2
"""
from __future__ import annotations

import argparse
import time

import games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slug")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.option)
    game = games.get_game(args.slug)
    state = game.new_state(players=args.players, options=options, variant=args.variant)
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        leaves = games.perft(state, depth)
        elapsed = time.perf_counter() - start
        print(f"{args.slug} {args.variant or 'standard'} perft({depth}) = {leaves:,} "
              f"in {elapsed:.2f}s ({leaves / max(elapsed, 1e-9):,.0f} leaves/s)")


if __name__ == "__main__":
    main()
