"""Random-playout speed per game: plies per second through the protocol's fast path.

    python -m bench.playouts                 # every registered game, every named variant
    python -m bench.playouts hasami-shogi --seconds 5
"""
from __future__ import annotations

import argparse
import time
from random import Random

import games


def measure(slug: str, variant: str, players: int, seconds: float) -> tuple[int, int, float]:
    """(playouts, plies, elapsed) for random playouts run for about `seconds`."""
    game = games.get_game(slug)
    rng = Random(0)
    playouts = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players=players, seed=playouts, variant=variant)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
            plies += 1
        playouts += 1
    return playouts, plies, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and variant")
    args = parser.parse_args(argv)
    print(f"{'game':<22} {'variant':<10} {'seats':>5} {'playouts':>8} {'plies':>8} "
          f"{'plies/s':>9} {'plies/game':>10}")
    for slug in args.slugs or sorted(games.GAMES):
        game = games.get_game(slug)
        for variant in game.variants:
            n, plies, elapsed = measure(slug, variant, game.min_players, args.seconds)
            print(f"{slug:<22} {variant:<10} {game.min_players:>5} {n:>8} {plies:>8} "
                  f"{plies / elapsed:>9.0f} {plies / max(n, 1):>10.1f}")


if __name__ == "__main__":
    main()
