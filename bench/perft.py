"""Perft (leaf positions at each depth) from a game's start position, with timings.

    python -m bench.perft hasami-shogi --variant tenbin --depth 3 --expect 63,3645,246287
    python -m bench.perft glaisher --depth 2 --option setup=ring2 --option reserve=0

Option values are read as JSON where they parse (`reserve=0` is the integer 0, `tenbin=true` the
boolean), else as text (`setup=ring2`). With `--expect`, a count that differs exits non-zero.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import games


def option_value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slug")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--expect", default="", help="comma-separated counts for depths 1, 2, ...")
    args = parser.parse_args(argv)
    options = {name: option_value(value) for name, value in (item.split("=", 1) for item in args.option)}
    expected = [int(n) for n in args.expect.replace("_", "").split(",") if n.strip()]
    game = games.get_game(args.slug)
    state = game.new_state(players=args.players, options=options, variant=args.variant)
    label = game.variant_of(game.normalize_options(options, args.variant))
    failed = False
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        leaves = games.perft(state, depth)
        elapsed = time.perf_counter() - start
        check = ""
        if depth <= len(expected):
            ok = leaves == expected[depth - 1]
            failed |= not ok
            check = " ok" if ok else f" EXPECTED {expected[depth - 1]:,}"
        print(f"{args.slug} {label} perft({depth}) = {leaves:,}{check} "
              f"in {elapsed:.2f}s ({leaves / max(elapsed, 1e-9):,.0f} leaves/s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
