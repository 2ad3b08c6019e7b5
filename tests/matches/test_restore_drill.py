"""The restore drill (docs/operations.md §Backups and restore), on PostgreSQL: a site with matches
in progress, ratings, a ladder, a tournament, analyses and tokens is dumped with scripts/backup.sh
and restored with scripts/restore.sh into a new database; every table (and sequence) of the copy
equals the original's; then gunicorn (docker/gunicorn.conf.py, two workers) serves the copy and a
match goes on through the API, and its /metrics adds up both workers' requests."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from prometheus_client.parser import text_string_to_metric_families

from matches.services import analysis, challenges, ladders, play, results, tournaments
from matches.services.accounts import token_create
from tests.services import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
METRICS_TOKEN = "drill-metrics-token-0123456789"


@pytest.fixture
def postgres_url():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"


def _site() -> tuple[int, str]:
    """A site in use: finished rated play, an engine match, a ladder game, a tournament round, an
    analysis, and a human match in progress whose id and mover's key are returned."""
    ann, ben, cid, dot = (factories.UserFactory(username=n) for n in ("ann", "ben", "cid", "dot"))
    clock = {"kind": "per_move", "days": 3}
    rated = factories.match(ann, ben, rated=True, time_control=clock)
    play.move_submit(match_id=rated.pk, user=ann, move="e1-e5", ply=0)
    results.match_resign(match_id=rated.pk, user=ben)
    analysis.analysis_request(match_id=rated.pk, user=ann, level="easy")
    engine = challenges.challenge_create(creator=cid, game="hasami-shogi", opponents=["ai:random"]).match
    play.move_submit(match_id=engine.pk, user=cid, move="e1-e5", ply=0)
    ladder = ladders.ladder_create(name="club ladder", game="hasami-shogi")
    for user in (ann, ben, cid):
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    ladder_game = ladders.ladder_challenge(ladder_id=ladder.pk, user=cid, opponent="ben")
    challenges.challenge_accept(challenge_id=ladder_game.pk, user=ben)
    cup = tournaments.tournament_create(creator=dot, name="winter cup", game="hasami-shogi", kind="round-robin",
                                        max_entrants=4)
    for user in (ann, ben, cid, dot):
        tournaments.tournament_join(tournament_id=cup.pk, user=user)
    tournaments.tournament_start(tournament_id=cup.pk, user=dot)
    live = factories.match(ann, dot, time_control=clock)
    play.move_submit(match_id=live.pk, user=ann, move="e1-e5", ply=0)
    return live.pk, token_create(user=dot)[1]


def _tables(url: str) -> dict[str, list]:
    """Every table's rows (in a stable order) and every sequence's position."""
    with psycopg.connect(url) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        found = {name: sorted((repr(row) for row in conn.execute(f'SELECT * FROM "{name}"')))
                 for name in names}
        found["<sequences>"] = list(conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"))
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(base: str, path: str, key: str | None = None, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Token {key}"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        raw = response.read().decode()
        return response.status, (json.loads(raw) if response.headers.get_content_type() == "application/json"
                                 else raw)


def _serve(url: str, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "pearlsite.settings_test",
           "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "2",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "PEARLSITE_METRICS_TOKEN": METRICS_TOKEN,
           "PEARLSITE_VAR_DIR": str(tmp_path / "var"), "CELERY_BROKER_URL": "filesystem://"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "docker/gunicorn.conf.py",
                               "pearlsite.wsgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return server, f"http://127.0.0.1:{port}"


def _wait_until_up(server: subprocess.Popen, base: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert server.poll() is None, server.stderr.read()
        try:
            with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=1):
                return
        except OSError:
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)


def _samples(text: str) -> dict[tuple, float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_a_dump_restores_into_a_working_site(postgres_url, tmp_path):
    match_id, key = _site()
    original = f"{postgres_url}/{connection.settings_dict['NAME']}"
    copy_name = f"{connection.settings_dict['NAME']}_restored"[:63]
    copy = f"{postgres_url}/{copy_name}"
    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy_name}"')
    dumped = subprocess.run(["bash", "scripts/backup.sh", str(tmp_path / "backups")], cwd=ROOT, check=True,
                            env={**os.environ, "DATABASE_URL": original}, capture_output=True, text=True)
    dump = dumped.stdout.strip().splitlines()[-1]
    server = None
    try:
        subprocess.run(["bash", "scripts/restore.sh", dump, copy], cwd=ROOT, check=True, capture_output=True)
        before = _tables(original)
        assert before["matches_match"] and before["matches_rating"] and before["matches_ladderentry"]
        assert before["matches_tournamentgame"] and before["matches_analysis"] and before["matches_enginejob"]
        assert _tables(copy) == before

        server, base = _serve(copy, tmp_path)
        _wait_until_up(server, base)
        status, detail = _call(base, f"/api/v1/matches/{match_id}/", key)
        assert status == 200 and detail["ply"] == 1 and detail["legal_moves"]
        status, moved = _call(base, f"/api/v1/matches/{match_id}/moves/", key,
                              {"move": detail["legal_moves"][0], "ply": 1})
        assert status == 201 and moved["match"]["ply"] == 2
        for _ in range(6):
            assert _call(base, "/api/v1/games/")[0] == 200
        samples = _samples(_call(base, "/metrics", token=METRICS_TOKEN)[1])
        count = "pearlsite_http_request_duration_seconds_count"
        assert samples[(count, (("method", "GET"), ("route", "api/v1/games/"), ("status", "200")))] == 6
        assert samples[(count, (("method", "POST"), ("route", "api/v1/matches/<id:pk>/moves/"),
                                ("status", "201")))] == 1
        assert _tables(original) == before            # the copy moved on, the original did not
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy_name}" WITH (FORCE)')


def test_backups_keep_the_newest_few(postgres_url, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    for stamp in ("20250101T000000Z", "20250102T000000Z", "20250103T000000Z"):
        (folder / f"pearlsite-{stamp}.dump").write_text("an older dump")
    (folder / "notes.txt").write_text("not a dump: left alone")
    env = {**os.environ, "DATABASE_URL": f"{postgres_url}/{connection.settings_dict['NAME']}",
           "PEARLSITE_BACKUP_KEEP": "2"}
    made = subprocess.run(["bash", "scripts/backup.sh", str(folder)], cwd=ROOT, check=True, env=env,
                          capture_output=True, text=True).stdout.strip()
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [Path(made).name, "pearlsite-20250103T000000Z.dump", "notes.txt"])
    refused = subprocess.run(["bash", "scripts/backup.sh", str(folder)], cwd=ROOT, capture_output=True, text=True,
                             env={**env, "PEARLSITE_BACKUP_KEEP": "0"})
    assert refused.returncode == 2 and "PEARLSITE_BACKUP_KEEP" in refused.stderr
