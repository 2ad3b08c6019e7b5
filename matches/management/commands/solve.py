"""`manage.py solve pearl-maze|pearl-yard [options]`: prove a Glass Pearl puzzle's or game's
value with the solvers of `ai_workers.engines.solvers`, print the result, the line, the proof's
size and time, and with `--cache` write the table of proven moves the engines play from."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import games
from ai_workers.engines.solvers import cache, maze, yard

SEAT_NAMES = {yard.POLICE: "Police", yard.THIEF: "Thief"}


class Command(BaseCommand):
    help = ("Solve pearl-maze (the longest walk, proved) or pearl-yard (who wins, in how many "
            "plies); --cache writes the proven moves for the engines to var/solutions/.")

    def add_arguments(self, parser):
        parser.add_argument("game", choices=("pearl-maze", "pearl-yard"))
        parser.add_argument("--size", type=int, help="board N×N (maze 9–19, default 19; yard 9, 11, 13)")
        parser.add_argument("--n", type=int, help="maze: side of the white square (default 4)")
        parser.add_argument("--black", choices=("corner", "outside"), help="maze: black's start")
        parser.add_argument("--push-off", action="store_true", help="maze: the push_off=yes variant")
        parser.add_argument("--first", choices=("police", "thief"), help="yard: who plays ply 1")
        parser.add_argument("--seconds", type=float, help="stop after this long (unproved if unfinished)")
        parser.add_argument("--max-plies", type=int, default=40, help="yard: deepest search (plies)")
        parser.add_argument("--memo-limit", type=int,
                            help="maze: forget finished positions past this many (huge searches)")
        parser.add_argument("--beam", type=int,
                            help="maze: first look for a long walk by beam search of this width")
        parser.add_argument("--cache", action="store_true",
                            help="write the proven moves to the solutions directory (or --out)")
        parser.add_argument("--cache-from", type=int, default=1000,
                            help="maze: keep positions whose proof took at least this many positions")
        parser.add_argument("--out", type=Path, help="the solution file to write (implies --cache)")

    def handle(self, *args, **opts):
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
        rules = games.get_game(opts["game"])
        chosen = {name: opts[name] for name in ("size", "n", "black", "first") if opts.get(name)}
        if opts["push_off"]:
            chosen["push_off"] = "yes"
        try:
            options = rules.normalize_options(chosen)
            state = rules.new_state(options=options)
        except games.GameError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{rules.slug} " + " ".join(f"{k}={v}" for k, v in options.items()))
        if rules.slug == "pearl-maze":
            self._maze(state, options, opts)
        else:
            self._yard(state, options, opts)

    # -- Pearl Maze -------------------------------------------------------------------------
    def _maze(self, state, options: dict, opts: dict) -> None:
        if options["goal"] != "none":
            raise CommandError("the solver proves the longest walk (goal=none)")
        beam, seconds = [], opts["seconds"]
        if opts["beam"]:        # a quarter of the time limit, if any, goes to the beam
            started = time.perf_counter()
            beam = maze.beam_walk(state, opts["beam"], seconds=seconds and seconds / 4)
            spent = time.perf_counter() - started
            seconds = seconds and max(0.0, seconds - spent)
            self.stdout.write(f"beam search (width {opts['beam']}): {len(beam)} steps in "
                              f"{spent:.1f} s: {''.join(beam)}")
        solver = maze.MazeSolver.for_state(state, memo_limit=opts["memo_limit"],
                                           heavy_from=opts["cache_from"])
        cpu = time.process_time()
        found = maze.solve(state, seconds=seconds, solver=solver)
        cpu = time.process_time() - cpu
        if found.proven:
            self.stdout.write(f"longest walk: {found.length} steps (proved: no walk is longer)")
        else:
            self.stdout.write(f"not proved within the budget; longest walk found: "
                              f"{max(found.length, len(beam))} steps")
        line = found.line if found.length >= len(beam) else beam
        self.stdout.write(f"line: {''.join(line)}")
        self.stdout.write(f"proof: {found.positions:,} positions, {found.seconds:.1f} s "
                          f"({cpu:.1f} s CPU)")
        if found.proven and (opts["cache"] or opts["out"]):
            occ, black = state.whites | (1 << state.black), state.black
            table = solver.table(occ, black, solver.heavy)
            path = opts["out"] or cache.solutions_dir() / cache.maze_file(
                state.size, options["n"], options["black"], state.push_off)
            result = {"length": found.length, "line": "".join(found.line), "proven": True,
                      "positions": found.positions, "seconds": round(found.seconds, 2)}
            cache.write(path, maze.GAME_SLUG, options, result,
                        {f"{key:x}": [maze.LETTERS[d], left] for key, (d, left) in table.items()})
            self.stdout.write(f"cache: {path} ({len(table):,} positions)")
        elif opts["cache"] or opts["out"]:
            self.stdout.write("cache: nothing written (no proof)")

    # -- Pearl Yard -------------------------------------------------------------------------
    def _yard(self, state, options: dict, opts: dict) -> None:
        solver = yard.YardSolver(state.size)
        cpu = time.process_time()
        found = yard.solve(state, max_depth=opts["max_plies"], seconds=opts["seconds"],
                           solver=solver)
        cpu = time.process_time() - cpu
        if found.winner is None:
            self.stdout.write(f"unresolved: neither side forces a win within {found.searched_to} plies")
        else:
            self.stdout.write(f"result: {SEAT_NAMES[found.winner]} wins; the shortest forced win "
                              f"ends on ply {found.plies} (neither side forces one within "
                              f"{found.plies - 1} plies)")
            self.stdout.write(f"line: {' '.join(found.line)}")
        self.stdout.write(f"proof: {found.proof_size:,} positions in the proof tree; "
                          f"{found.nodes:,} positions searched, {found.table_size:,} table entries; "
                          f"{found.seconds:.2f} s ({cpu:.2f} s CPU)")
        if found.winner is not None and (opts["cache"] or opts["out"]):
            table = solver.proof_table(yard.node_of(state), found.winner, found.plies)
            path = opts["out"] or cache.solutions_dir() / cache.yard_file(state.size, options["first"])
            result = {"winner": found.winner, "plies": found.plies, "line": found.line,
                      "proof_size": found.proof_size, "nodes": found.nodes,
                      "seconds": round(found.seconds, 2)}
            cache.write(path, yard.GAME_SLUG, options, result,
                        {yard.node_key(node): [move, plies] for node, (move, plies) in table.items()})
            self.stdout.write(f"cache: {path} ({len(table):,} positions)")
