"""Where a move's time goes, in process: SQL statements per request and a CPU profile.

    DATABASE_URL=postgres://... python -m bench.move_profile [--moves 200] [--top 25] [--sql]

It migrates `DATABASE_URL`, makes two players with tokens and a Hasami Shogi match between them,
then plays `--moves` random legal moves through DRF's test client (the whole request path but the
HTTP server) under cProfile, and prints the statements of one move, of a match-detail read and of
an events read, and the functions that cost the most (cumulative time).
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import secrets
import sys
import time
from random import Random


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sql", action="store_true", help="print each statement of one move")
    parser.add_argument("--layers", action="store_true",
                        help="instead of cProfile: each layer's own CPU a move (bench/move_layers.py)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings_test")
    import django
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    import games
    from django.contrib.auth import get_user_model
    from matches.services.accounts import token_create

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    tag = secrets.token_hex(3)
    clients, names = [], []
    for side in "ab":
        user = get_user_model().objects.create_user(username=f"prof{tag}{side}", password=secrets.token_urlsafe(18))
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
        clients.append(client)
        names.append(user.username)

    def new_match() -> int:
        body = clients[0].post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": [names[1]]},
                               format="json").json()
        return clients[1].post(f"/api/v1/challenges/{body['id']}/accept/").json()["match"]

    rng = Random(1)
    rules = games.get_game("hasami-shogi")

    def moves_of_a_game() -> list[str]:
        state, moves = rules.new_state(2, seed=0), []
        while not state.is_terminal:
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state = state.play(move)
        return moves

    def play(match_id: int, ply: int, move: str):
        response = clients[ply % 2].post(f"/api/v1/matches/{match_id}/moves/", {"move": move, "ply": ply},
                                         format="json")
        assert response.status_code == 201, response.content
        return response

    match_id, moves = new_match(), moves_of_a_game()
    for ply in range(2):
        play(match_id, ply, moves[ply])
    for label, call in [("move", lambda: play(match_id, 2, moves[2])),
                        ("match detail", lambda: clients[0].get(f"/api/v1/matches/{match_id}/")),
                        ("events after", lambda: clients[0].get("/api/v1/events/?after=0")),
                        ("inbox", lambda: clients[0].get("/api/v1/matches/?my_turn=true"))]:
        with CaptureQueriesContext(connection) as queries:
            response = call()
        print(f"{label}: {len(queries.captured_queries)} statements, {len(response.content)} bytes")
        if args.sql:
            for query in queries.captured_queries:
                print("   ", query["sql"][:160])

    state = {"match_id": match_id, "moves": moves, "ply": 3}

    def play_many(count: int) -> None:
        for _ in range(count):
            if state["ply"] >= len(state["moves"]):
                state.update(match_id=new_match(), moves=moves_of_a_game(), ply=0)
            play(state["match_id"], state["ply"], state["moves"][state["ply"]])
            state["ply"] += 1

    cpu, wall = time.process_time(), time.perf_counter()
    play_many(args.moves)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"\n{args.moves} moves unprofiled: {1000 * cpu / args.moves:.2f} ms of this process's CPU and "
          f"{1000 * wall / args.moves:.2f} ms of wall time a move (new matches included)")
    if args.layers:
        from bench import move_layers
        clock = move_layers.install(type(rules.new_state(2, seed=0)))
        play_many(args.moves)                   # warm the wrapped paths, then measure
        clock.reset()
        cpu = time.process_time()
        play_many(args.moves)
        cpu = time.process_time() - cpu
        print(f"\n{args.moves} moves, each layer's own CPU a move (its nested layers not counted):")
        print("\n".join(move_layers.report(clock, cpu, args.moves)))
        return 0
    profile = cProfile.Profile(time.process_time)     # CPU time: waits on the database do not count
    profile.enable()
    play_many(args.moves)
    profile.disable()
    stats = pstats.Stats(profile)
    print(f"\n{args.moves} moves: {1000 * stats.total_tt / args.moves:.2f} ms of this process's CPU a move "
          "(profiled; the database's own time is not counted)")
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
