"""Recycling gunicorn workers drops nothing. gunicorn runs docker/gunicorn.conf.py with a small
`max_requests`, so its workers restart every few seconds, and is also reloaded (HUP, as a deploy
does) and scaled down and up (TTOU, TTIN), while players on keep-alive connections post moves as
fast as they are answered. Asserted: no connection reset or other
connection error, and no move lost or recorded twice. The figures are printed (`pytest -s`)."""
from __future__ import annotations

import http.client
import random
import signal
import threading
import time
from collections import Counter

import pytest
from django.db import connection

from matches.models import Move
from tests.conftest import token_for
from tests.processes import Client, free_port, gunicorn, production_env

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]
PAIRS, SECONDS, MAX_REQUESTS = 6, 20.0, 50


@pytest.fixture
def server(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    # No Redis: this is about connections. The throttles are off so every request is a move.
    env = production_env(url, "", tmp_path, CELERY_BROKER_URL="memory://", WEB_CONCURRENCY="2",
                         GUNICORN_THREADS="4", PEARLSITE_THROTTLE_USER="off", PEARLSITE_THROTTLE_MOVES="off")
    port = free_port()
    process = gunicorn(env, port, "--max-requests", str(MAX_REQUESTS), "--max-requests-jitter", "10",
                       "--access-logfile", "/dev/null", "--log-level", "info")
    try:
        yield port, process
    finally:
        process.stop()


def _pair(django_user_model, n: int, port: int) -> tuple[int, list[Client]]:
    users = [django_user_model.objects.create_user(username=f"p{n}{side}", password="unused-pw-1") for side in "ab"]
    clients = [Client(port, token_for(user)) for user in users]
    status, body = clients[0].request("POST", "/api/v1/challenges/",
                                      {"game": "hasami-shogi", "opponents": [users[1].username]})
    assert status == 201, body
    status, body = clients[1].request("POST", f"/api/v1/challenges/{body['id']}/accept/")
    assert status == 200, body
    return body["match"], clients


def _play(match_id: int, clients: list[Client], stop: threading.Event, seen: dict, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        status, detail = _retrying(clients[0], "GET", f"/api/v1/matches/{match_id}/", None, seen)
        if detail["status"] != "active":
            return
        mover = clients[detail["to_move"]]
        if detail["to_move"] != 0:
            status, detail = _retrying(mover, "GET", f"/api/v1/matches/{match_id}/", None, seen)
        move = rng.choice(detail["legal_moves"])
        status, body = _retrying(mover, "POST", f"/api/v1/matches/{match_id}/moves/",
                                 {"move": move, "ply": detail["ply"]}, seen)
        assert status == 201, body
        seen["answered"].append((match_id, body["ply"], body["seat"], body["move"]))


def _retrying(client: Client, method: str, path: str, body, seen: dict):
    """A request; after a connection error (counted), the same request again."""
    for _ in range(5):
        try:
            status, answer = client.request(method, path, body)
        except (OSError, http.client.HTTPException) as exc:
            seen["errors"][type(exc).__name__] += 1
            continue
        seen["statuses"][status] += 1
        return status, answer
    raise AssertionError(f"{method} {path} never answered")


def test_stopping_workers_finish_requests_and_close_keep_alive_connections_cleanly(server, django_user_model):
    port, process = server
    seen = {"statuses": Counter(), "errors": Counter(), "answered": []}
    tables = [_pair(django_user_model, n, port) for n in range(PAIRS)]
    stop = threading.Event()
    threads = [threading.Thread(target=_play, args=(match_id, clients, stop, seen, n))
               for n, (match_id, clients) in enumerate(tables)]
    for thread in threads:
        thread.start()
    for number in (signal.SIGHUP, signal.SIGTTOU, signal.SIGTTIN):     # a deploy, a scale-down, back up
        time.sleep(SECONDS / 4)
        process.signal(number)
    time.sleep(SECONDS / 4)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    recycled = process.output().count("Autorestarting worker")
    answered = set(seen["answered"])
    recorded = set(Move.objects.values_list("match_id", "ply", "seat", "notation"))
    print(f"\n{PAIRS * 2} keep-alive players for {SECONDS:.0f} s, workers recycled {recycled} times "
          f"(max_requests {MAX_REQUESTS}): {sum(seen['statuses'].values())} answers {dict(seen['statuses'])}, "
          f"connection errors {dict(seen['errors']) or 0}; {len(answered)} moves answered, {len(recorded)} recorded")
    assert not [t for t in threads if t.is_alive()]
    assert recycled >= 5, process.output()[-3000:]
    assert answered == recorded                  # a retried move is neither lost nor recorded twice
    assert not seen["errors"], (seen["errors"], process.output()[-6000:])
