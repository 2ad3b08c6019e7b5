"""EXPLAIN ANALYZE of the lists the API serves, against `DATABASE_URL` (load it first with
`python -m bench.http_moves --finished 100000`, pointing BENCH_DATABASE_URL at the same database).

    DATABASE_URL=postgres://... python -m bench.explain_lists [--player benchload7]

Prints, per list, the plan's top line, the execution time and whether it reads a whole table.
"""
from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="benchload7")
    parser.add_argument("--full", action="store_true", help="print whole plans")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings_test")
    import django
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from matches.models import Event
    from matches.rating_keys import RatingKey
    from matches.selectors import challenges, matches, players

    user = get_user_model().objects.get(username=args.player)
    lists = {
        "a player's matches (page 1)": matches.matches_query(player=args.player)[:50],
        "a player's matches (count)": matches.matches_query(player=args.player).order_by().values("pk"),
        "inbox ?my_turn=true": matches.matches_query(viewer=user, my_turn=True)[:50],
        "all matches (page 1)": matches.matches_query()[:50],
        "finished matches of a game (page 1)": matches.matches_query(status="finished", game="hasami-shogi")[:50],
        "events ?after=": Event.objects.filter(user=user, id__gt=0).order_by("id")[:50],
        "leaderboard": players.leaderboard_query(RatingKey("hasami-shogi", ""))[:50],
        "open challenges (seeks)": challenges.challenges_for(user, open_only=True)[:50],
        "my challenges": challenges.challenges_for(user)[:50],
    }
    for name, qs in lists.items():
        if name == "a player's matches (count)":
            sql, params = qs.query.sql_with_params()
            sql = f"SELECT count(*) FROM ({sql}) counted"
        else:
            sql, params = qs.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
            plan = [row[0] for row in cursor.fetchall()]
        seq = [line.strip() for line in plan if "Seq Scan" in line]
        took = next((line for line in plan if line.startswith("Execution Time")), "")
        print(f"{name}: {took}; {plan[0].strip()[:90]}" + (f"; seq scans: {seq}" if seq else ""))
        if args.full:
            print("\n".join("    " + line for line in plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
