"""A Redis outage is not an API outage. Production processes (gunicorn with docker/gunicorn.conf.py
and the shipped settings, a Celery worker, Celery beat) share one private redis-server as broker,
rate-limit store and wake-up channel, on PostgreSQL. Players move steadily (some against engines);
Redis is stopped for `FAULTS_REDIS_OUTAGE_SECONDS` (default 60), then started again empty
(`FAULTS_REDIS_HANG=1`: paused with SIGSTOP instead, so connections open and nothing answers).

Asserted: no answer >= 500; reads, moves, challenges, sign-in and pages answered during the
outage; no lost move (every 201 is in the database, every person's move in the database got a
201); every engine reply delivered once Redis is back. The figures are printed (`pytest -s`)."""
from __future__ import annotations

import os
import random
import shutil
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.db import connection
from django.db.models import F

from matches.models import EngineJob, Match, Move
from tests.conftest import token_for
from tests.processes import (
    Client,
    Process,
    RedisServer,
    celery_worker,
    free_port,
    gunicorn,
    production_env,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]
OUTAGE_SECONDS = float(os.environ.get("FAULTS_REDIS_OUTAGE_SECONDS", "60"))
HANG = os.environ.get("FAULTS_REDIS_HANG") == "1"
STEADY_SECONDS = 8.0          # play before the outage and after the recovery
PAIRS, ENGINE_PLAYERS = 2, 3
PASSWORD = "Outage-test-pw-7"


@dataclass
class Tally:
    """What the players saw."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter = field(default_factory=Counter)
    during_outage: Counter = field(default_factory=Counter)
    created: list = field(default_factory=list)        # (match, ply, seat, move) of every 201
    errors: list = field(default_factory=list)         # connection errors (each retried)
    failures: list = field(default_factory=list)       # a player's thread ended on an error
    outage: bool = False
    move_seconds: dict = field(default_factory=lambda: {"before": [], "outage": [], "after": []})
    phase: str = "before"

    def saw(self, what: str, status: int) -> None:
        with self.lock:
            self.statuses[status] += 1
            if self.outage:
                self.during_outage[(what, status)] += 1

    def timed(self, seconds: float) -> None:
        with self.lock:
            self.move_seconds[self.phase].append(seconds)

    def latency(self) -> str:
        return "; ".join(f"{phase} median {1000 * statistics.median(s):.0f} ms, max {1000 * max(s):.0f} ms, "
                         f"{sum(x > 1 for x in s)} over 1 s" for phase, s in self.move_seconds.items() if s)


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def site(tmp_path, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    port = free_port()
    env = production_env(_database_url(), redis_server.url, tmp_path, WEB_CONCURRENCY="2", GUNICORN_THREADS="4",
                         PEARLSITE_ENGINE_SWEEP_SECONDS="2", PEARLSITE_ENGINE_LEASE_GRACE="5",
                         PEARLSITE_REDIS_RETRY_SECONDS="2", LOG_LEVEL="WARNING")
    started = []
    try:
        started.append(gunicorn(env, port, "--access-logfile", "/dev/null"))
        started.append(celery_worker(env, "-Q", "ai-move", "--hostname", f"outage-{os.getpid()}@%h"))
        started.append(_beat(env, tmp_path))
        yield redis_server, port, started
    finally:
        for process in started:
            process.stop()
        redis_server.stop()


def _beat(env, tmp_path):
    return Process([sys.executable, "-m", "celery", "-A", "pearlsite", "beat", "--loglevel", "INFO",
                    "--schedule", str(tmp_path / "beat-schedule")], env, "beat: Starting")


def _players(django_user_model, settings, count: int) -> list[tuple[str, str]]:
    """Accounts with tokens; the last one's password hashed as production hashes (it signs in)."""
    users = [django_user_model.objects.create_user(username=f"player{i}", password=PASSWORD) for i in range(count)]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    users[-1].set_password(PASSWORD)
    users[-1].save(update_fields=["password"])
    return [(user.username, token_for(user)) for user in users]


def _new_match(clients: list[Client], usernames: list[str], tally: Tally) -> int:
    opponents = [usernames[1]] if len(clients) == 2 else ["ai:random"]
    status, body = clients[0].request("POST", "/api/v1/challenges/", {"game": "hasami-shogi", "opponents": opponents})
    tally.saw("challenge", status)
    assert status == 201, body
    if body["match"] is None:
        status, body = clients[1].request("POST", f"/api/v1/challenges/{body['id']}/accept/")
        tally.saw("challenge", status)
        assert status == 200, body
    return body["match"]


def _move(client: Client, match_id: int, ply: int, move: str, tally: Tally) -> tuple[int, dict]:
    """POST the move; after a connection error, the same move again (a retry is safe)."""
    for _ in range(5):
        started = time.monotonic()
        try:
            status, body = client.request("POST", f"/api/v1/matches/{match_id}/moves/", {"move": move, "ply": ply})
        except OSError as exc:
            tally.errors.append(repr(exc))
            continue
        tally.timed(time.monotonic() - started)
        tally.saw("move", status)
        return status, body
    raise AssertionError(f"move {move} at ply {ply} of match {match_id} never answered")


def _play(clients: list[Client], usernames: list[str], stop: threading.Event, tally: Tally, seed: int) -> None:
    """Play one match after another: each seat's own client (and connection) moves for it."""
    rng = random.Random(seed)
    match_id = _new_match(clients, usernames, tally)
    while not stop.is_set():
        status, detail = clients[0].request("GET", f"/api/v1/matches/{match_id}/")
        tally.saw("read", status)
        assert status == 200, detail
        if detail["status"] != "active":
            match_id = _new_match(clients, usernames, tally)
            continue
        seat = detail["to_move"]
        if seat >= len(clients):                 # the engine's turn
            time.sleep(0.2)
            continue
        mover = clients[seat]
        if seat != 0:
            status, detail = mover.request("GET", f"/api/v1/matches/{match_id}/")
            tally.saw("read", status)
            assert status == 200, detail
        move = rng.choice(detail["legal_moves"])
        status, body = _move(mover, match_id, detail["ply"], move, tally)
        assert status in (201, 429), body
        if status == 201:
            with tally.lock:
                tally.created.append((match_id, body["ply"], body["seat"], body["move"]))
        time.sleep(0.6 if status == 201 else 2.0)


def _outage_checks(port: int, player: tuple[str, str], match_id: int, tally: Tally) -> int:
    """Sign-in, a challenge the engine answers first, pages and reads while Redis is down; the
    new match's id."""
    anon = Client(port)
    status, body = anon.request("POST", "/api/v1/auth/token/", {"username": player[0], "password": PASSWORD})
    tally.saw("sign-in", status)
    assert status == 200, body
    signed_in = Client(port, body["token"])
    status, body = signed_in.request("POST", "/api/v1/challenges/",
                                     {"game": "hasami-shogi", "opponents": ["ai:random"], "seat": 1})
    tally.saw("challenge", status)
    assert status == 201 and body["match"], body
    engine_first = body["match"]
    for path in ("/accounts/login/", "/games/", f"/matches/{match_id}/", "/api/v1/games/",
                 f"/api/v1/matches/{match_id}/moves/"):
        status, _ = anon.request("GET", path)
        tally.saw("page" if not path.startswith("/api/") else "read", status)
        assert status == 200, path
    status, body = anon.request("GET", "/readyz")
    assert (status, body["down"]) == (503, ["redis", "broker"]), body
    assert anon.request("GET", "/healthz")[0] == 200
    anon.close()
    signed_in.close()
    return engine_first


def _engines_caught_up() -> bool:
    if EngineJob.objects.filter(kind=EngineJob.Kind.REPLY, status__in=EngineJob.LIVE).exists():
        return False
    waiting = [m for m in Match.objects.filter(status="active").prefetch_related("seats")
               if m.seats.get(seat=m.to_move).ai_level]
    return not waiting


def test_players_keep_playing_through_a_redis_outage(site, django_user_model, settings):
    redis_server, port, processes = site
    players = _players(django_user_model, settings, 2 * PAIRS + ENGINE_PLAYERS)
    tally, stop = Tally(), threading.Event()
    tables = [players[2 * i: 2 * i + 2] for i in range(PAIRS)] + [[p] for p in players[2 * PAIRS:]]
    threads = []
    for n, table in enumerate(tables):
        clients = [Client(port, token) for _, token in table]
        threads.append(threading.Thread(target=_guarded, args=(tally, _play, clients, [u for u, _ in table],
                                                              stop, tally, n)))
        threads[-1].start()
    time.sleep(STEADY_SECONDS)
    (redis_server.hang if HANG else redis_server.stop)()
    tally.outage, tally.phase, down_at = True, "outage", time.monotonic()
    time.sleep(min(5.0, OUTAGE_SECONDS / 2))
    engine_first = _outage_checks(port, players[-1], Match.objects.order_by("id").first().pk, tally)
    time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_at)))
    moves_during = Move.objects.count()
    (redis_server.resume if HANG else redis_server.start)()              # started: empty, nothing saved
    tally.outage, tally.phase, back_at = False, "after", time.monotonic()
    probe = Client(port)
    wait_for(lambda: probe.request("GET", "/readyz")[0] == 200, 30, "/readyz not ready after Redis returned")
    ready_again = time.monotonic() - back_at
    probe.close()
    wait_for(lambda: Match.objects.get(pk=engine_first).ply > 0, 60,
             "the engine's first move, asked for during the outage, never came", every=0.2)
    first_reply = time.monotonic() - back_at
    time.sleep(max(0.0, STEADY_SECONDS - first_reply))
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    wait_for(_engines_caught_up, 60, "engine replies still missing 60 s after Redis returned", every=0.5)
    caught_up = time.monotonic() - back_at
    answered, recorded = set(tally.created), set(_people_moves())

    print(f"\nRedis down {OUTAGE_SECONDS:.0f} s: {sum(tally.statuses.values())} requests, statuses "
          f"{dict(sorted(tally.statuses.items()))}; during the outage {dict(sorted(tally.during_outage.items()))}; "
          f"{len(answered)} moves answered 201, {len(recorded)} people's moves recorded, "
          f"{Move.objects.count()} moves in all ({Move.objects.count() - moves_during} after Redis returned); "
          f"connection errors {len(tally.errors)}. After Redis returned: /readyz 200 in {ready_again:.1f} s, "
          f"the engine reply asked for during the outage in {first_reply:.1f} s, every engine reply in "
          f"{caught_up:.1f} s. Moves answered in: {tally.latency()}")
    output = "\n".join(p.output()[-3000:] for p in processes)
    assert not [t for t in threads if t.is_alive()], "a player is stuck"
    assert not tally.failures, (tally.failures, output)
    assert not [s for s in tally.statuses if s >= 500], (tally.statuses, output)
    assert not tally.errors, tally.errors
    assert tally.during_outage[("move", 201)] > 0, tally.during_outage
    assert answered <= recorded, answered - recorded                     # every 201 is in the database
    assert recorded <= answered, recorded - answered                     # every person's move got its 201


def _people_moves() -> list[tuple[int, int, int, str]]:
    """Every move a person's seat made, as (match, ply, seat, notation)."""
    return list(Move.objects.filter(match__seats__seat=F("seat"), match__seats__user__isnull=False)
                .values_list("match_id", "ply", "seat", "notation"))


def _guarded(tally: Tally, target, *args) -> None:
    """Run a player; an error in its thread becomes the test's failure."""
    try:
        target(*args)
    except BaseException as exc:   # noqa: BLE001 — reported by the test
        with tally.lock:
            tally.failures.append(repr(exc))
