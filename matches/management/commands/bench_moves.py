"""`manage.py bench_moves`: how long one move submission takes, end to end through the API
(authentication, row lock, ply check, rules, snapshot, history, events), against the configured
database. Prints the median and percentiles; removes what it created unless --keep.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pearlsite python manage.py bench_moves --moves 400
"""
from __future__ import annotations

import statistics
import time
from random import Random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

import games
from matches.models import Match
from matches.services import accounts, challenges

PLAYERS = ("bench-black", "bench-white")


class Command(BaseCommand):
    help = "Measure move submission latency (median of a loop of submissions)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=400)
        parser.add_argument("--game", default="hasami-shogi")
        parser.add_argument("--keep", action="store_true", help="keep the bench users and matches")

    def handle(self, *args, **options):
        # The loop measures the move path: no rate limit, no DEBUG query log.
        unlimited = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}}
        with override_settings(DEBUG=False, REST_FRAMEWORK=unlimited):
            self._bench(**options)

    def _bench(self, *, moves: int, game: str, keep: bool, **options):
        User = get_user_model()
        users = [User.objects.get_or_create(username=name)[0] for name in PLAYERS]
        clients = []
        for user in users:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.token_create(user=user)[1]}")
            clients.append(client)
        rng = Random(0)
        timings: list[float] = []
        matches: list[int] = []
        try:
            while len(timings) < moves:
                matches.append(self._play_one(game, users, clients, rng, timings, moves))
        finally:
            if not keep:
                Match.objects.filter(pk__in=matches).delete()
                User.objects.filter(username__in=PLAYERS).delete()
        self._report(game, timings, len(matches))

    def _play_one(self, game, users, clients, rng, timings, target) -> int:
        challenge = challenges.challenge_create(creator=users[0], game=game, opponents=[PLAYERS[1]])
        challenge = challenges.challenge_accept(challenge_id=challenge.pk, user=users[1])
        match = Match.objects.get(pk=challenge.match_id)
        state = games.get_game(game).state_from_dict(match.state)
        while not state.is_terminal and len(timings) < target:
            move = str(rng.choice(state.legal_moves()))
            client = clients[state.current_player]
            started = time.perf_counter()
            response = client.post(f"/api/v1/matches/{match.pk}/moves/", {"move": move, "ply": state.ply},
                                   format="json")
            timings.append(time.perf_counter() - started)
            if response.status_code != 201:
                raise RuntimeError(f"move {move} refused: {response.content!r}")
            state = state.play(move)
        return match.pk

    def _report(self, game: str, timings: list[float], matches: int) -> None:
        ms = sorted(t * 1000 for t in timings)
        q = statistics.quantiles(ms, n=100)
        self.stdout.write(
            f"{len(ms)} move submissions ({game}, {matches} matches) against {connection.vendor}: "
            f"median {statistics.median(ms):.2f} ms, p90 {q[89]:.2f} ms, p99 {q[98]:.2f} ms, "
            f"mean {statistics.fmean(ms):.2f} ms, {1000 / statistics.fmean(ms):.0f} moves/s on one client")
