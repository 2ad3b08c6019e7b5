"""The whole topology of docs/scaling.md §7 (scripts/cluster.py: nginx, two web nodes, the streaming
service, pgbouncer in transaction pooling, a PostgreSQL primary and its streaming replica, Redis,
two Celery worker nodes per lane and a beat), driven through nginx only:

1. the README walkthrough, verbatim;
2. many players playing engines at once (moves, engine replies, resignations, analyses), with each
   player checking every state they read against their own last move;
3. under that load, one fault at a time: a web node killed, a reply worker node killed mid-search,
   pgbouncer restarted, the replica stopped, the replica's replay paused until it lags by seconds.

Then, from the primary: no move lost or recorded twice, every move answered by exactly one engine
reply, every event once, every analysis done; no 5xx beyond the requests in flight on the killed
web node; no player ever read a state older than their own last move. A table of the faults (errors,
recovery) and the connections held at each layer is printed and written to var/bench/cluster.json.

Run with PEARLSITE_CLUSTER_TEST=1 (`make test-cluster`); about three minutes on two cores.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from tests.processes import Client

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from cluster import Cluster

pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(not os.environ.get("PEARLSITE_CLUSTER_TEST"),
                                 reason="the cluster test runs with PEARLSITE_CLUSTER_TEST=1 (make test-cluster)")]

PLAYERS = int(os.environ.get("PEARLSITE_CLUSTER_PLAYERS", "16"))
PLIES_PER_MATCH = 10          # a player resigns after this many plies and asks for an analysis
PIN_SECONDS = 3.0             # PEARLSITE_REPLICA_PIN_SECONDS below
ENV = {
    # Many players from one address: the rate limits would measure themselves, not the cluster.
    **{f"PEARLSITE_THROTTLE_{scope}": "off" for scope in
       ("ANON", "USER", "LOGIN", "REGISTRATION", "CHALLENGE", "ANALYSIS", "MOVES")},
    "PEARLSITE_LOGIN_FAILURES": "off",
    # A lost search comes back within seconds, not the production half minute.
    "PEARLSITE_ENGINE_LEASE_GRACE": "3", "PEARLSITE_ENGINE_SWEEP_SECONDS": "2",
    "PEARLSITE_REPLICA_MAX_LAG": "1", "PEARLSITE_REPLICA_CHECK_SECONDS": "0.5",
    "PEARLSITE_REPLICA_PIN_SECONDS": str(PIN_SECONDS),
    "PEARLSITE_MAX_ACTIVE_ENGINE_MATCHES": "0", "PEARLSITE_MAX_PENDING_ANALYSES": "0",
    # Replies think twice as long (~0.35 s): a worker node killed as a search starts dies in it.
    "PEARLSITE_AI_TIME_SCALE": "2",
}


@dataclass
class Outcome:
    started: float
    ended: float
    method: str
    path: str
    status: int | None          # None: the connection failed


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    outcomes: list = field(default_factory=list)
    in_flight: dict = field(default_factory=dict)
    stale: list = field(default_factory=list)
    moves: list = field(default_factory=list)            # (match, ply, notation) answered 201
    analyses: list = field(default_factory=list)
    replica_reads: int = 0

    def failures(self, since: float, until: float) -> list[Outcome]:
        with self.lock:
            return [o for o in self.outcomes if since <= o.ended <= until and (o.status is None or o.status >= 500)]

    def overlapping(self, since: float, until: float) -> int:
        """Requests in flight at some moment between `since` and `until`."""
        with self.lock:
            return sum(1 for o in self.outcomes if o.started <= until and o.ended >= since)


class Player(threading.Thread):
    def __init__(self, url_port: int, name: str, log: Log, stop: threading.Event):
        super().__init__(daemon=True, name=name)
        self.port, self.username, self.log, self.stop = url_port, name, log, stop
        self.client = Client(url_port)
        self.rng = random.Random(name)
        self.last_written: dict[int, int] = {}        # match -> the ply after my last move in it
        self.finished = 0                              # matches this player has finished
        self.event_ids: list[int] = []                 # every event read, in order
        self.error: BaseException | None = None

    # Every request goes through here: timed, counted, a failure retried (idempotent reads; a
    # move is resent with its ply, which the API answers 201 again if it had landed).
    def call(self, method: str, path: str, body: dict | None = None, ok=(200, 201, 202)) -> tuple[int, object]:
        for _ in range(200):
            key = object()
            started = time.monotonic()
            with self.log.lock:
                self.log.in_flight[key] = started
            try:
                status, answer = self.client.request(method, path, body)
            except (OSError, http.client.HTTPException):     # refused, reset, or cut in the middle
                status, answer = None, None
            ended = time.monotonic()
            with self.log.lock:
                del self.log.in_flight[key]
                self.log.outcomes.append(Outcome(started, ended, method, path, status))
            if status is not None and status < 500:
                return status, answer
            time.sleep(0.2)
        raise AssertionError(f"{method} {path}: no answer after 200 tries")

    def run(self) -> None:
        try:
            self.play()
        except Exception as exc:                # shown by the test  # noqa: BLE001
            self.error = exc

    def play(self) -> None:
        status, answer = self.call("POST", "/api/v1/accounts/", {"username": self.username,
                                                                 "password": "cluster-horse-battery"})
        assert status == 201, answer
        self.client.token = answer["token"]
        while not self.stop.is_set():
            status, answer = self.call("POST", "/api/v1/challenges/", {"game": "hasami-shogi",
                                                                       "opponents": ["ai:easy"]})
            assert status == 201 and answer["match"], answer
            self.play_match(answer["match"])

    def check_fresh(self, match: int, ply: int, where: str) -> None:
        if ply < self.last_written.get(match, 0):
            with self.log.lock:
                self.log.stale.append((self.username, match, where, ply, self.last_written[match]))

    def play_match(self, match: int) -> None:
        moves = 0
        while not self.stop.is_set():
            status, detail = self.call("GET", f"/api/v1/matches/{match}/")
            assert status == 200, detail
            self.check_fresh(match, detail["ply"], "match")
            if detail["status"] != "active" or detail["ply"] >= PLIES_PER_MATCH:
                break
            if detail["to_move"] != 0 or not detail["legal_moves"]:
                time.sleep(0.1)                          # the engine is thinking
                continue
            move = self.rng.choice(detail["legal_moves"])
            status, played = self.call("POST", f"/api/v1/matches/{match}/moves/",
                                       {"move": move, "ply": detail["ply"]})
            assert status == 201, (status, played)
            with self.log.lock:
                self.log.moves.append((match, played["ply"], move))
            self.last_written[match] = detail["ply"] + 1
            moves += 1
            if moves % 2 == 0:
                self.read_lists_after_the_pin(match)
        if self.stop.is_set():
            return
        status, detail = self.call("GET", f"/api/v1/matches/{match}/")
        if detail["status"] == "active":
            status, answer = self.call("POST", f"/api/v1/matches/{match}/resign/")
            # 409 match_finished: the engine's reply ended it meanwhile, or this is the resend of a
            # resignation that had landed before its answer was lost.
            assert status == 200 or (status, answer["code"]) == (409, "match_finished"), answer
        status, answer = self.call("POST", f"/api/v1/matches/{match}/analysis/", {"level": "easy"})
        assert status in (200, 202), answer
        with self.log.lock:
            self.log.analyses.append(answer["id"])
        self.read_events()
        # The export (a lag-tolerant read, streamed by .iterator() without server-side cursors
        # behind pgbouncer) holds every match this player has finished, this one included.
        self.finished += 1
        status, export = self.call("GET", f"/api/v1/players/{self.username}/matches/export?format=ndjson")
        assert status == 200, export
        exported = len([line for line in export.splitlines() if line.strip()])
        if exported < self.finished:
            with self.log.lock:
                self.log.stale.append((self.username, match, "export", exported, self.finished))

    def read_events(self) -> None:
        """Every event since the last one read, page by page, from the streaming service (nginx
        routes events/ there), as a bot reads them."""
        while True:
            after = self.event_ids[-1] if self.event_ids else 0
            status, page = self.call("GET", f"/api/v1/events/?after={after}&limit=200")
            assert status == 200, page
            self.event_ids += [event["id"] for event in page["results"]]
            if not page["more"]:
                return

    def read_lists_after_the_pin(self, match: int) -> None:
        """Idle past the read-your-writes pin, then read the lag-tolerant lists (the replica's,
        unless it lags): my match must show my last move."""
        self.stop.wait(PIN_SECONDS + 0.3)
        status, page = self.call("GET", f"/api/v1/matches/?player={self.username}&status=active")
        assert status == 200, page
        for item in page["results"]:
            if item["id"] == match:
                self.check_fresh(match, item["ply"], "list")
        status, player = self.call("GET", f"/api/v1/players/{self.username}/")
        assert status == 200, player
        for item in player["recent_matches"]:
            if item["id"] == match and "ply" in item:
                self.check_fresh(match, item["ply"], "player page")


def _walkthrough(url: str) -> str:
    text = (ROOT / "README.md").read_text()
    block = text.split("<!-- walkthrough -->", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], check=False, env={**os.environ, "BASE": url},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _replica_commits(cluster: Cluster) -> int:
    return cluster.sql("replica", "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")[0][0]


def _lag(cluster: Cluster) -> float:
    return float(cluster.sql("replica", "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() "
                                        "THEN 0 ELSE EXTRACT(EPOCH FROM clock_timestamp() - "
                                        "pg_last_xact_replay_timestamp()) END")[0][0])


def _wait(condition, seconds: float) -> float | None:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    return None


@pytest.fixture(scope="module")
def cluster():
    started = Cluster(int(os.environ.get("PEARLSITE_CLUSTER_PORT", "19400")), extra_env=ENV)
    try:
        started.start()
        yield started
    finally:
        started.stop()
        if os.environ.get("PEARLSITE_CLUSTER_KEEP"):
            print(f"cluster data and logs kept in {started.dir}")
        else:
            started.remove()


def test_the_cluster_under_load_and_faults(cluster, capsys):
    report = {"started_in_s": round(cluster.started_in, 1)}
    clock = time.monotonic()
    assert _walkthrough(cluster.url).rstrip().endswith("walkthrough ok")
    report["walkthrough_s"] = round(time.monotonic() - clock, 1)

    log, stop = Log(), threading.Event()
    players = [Player(cluster.ports["nginx"], f"load{n:02d}", log, stop) for n in range(PLAYERS)]
    for player in players:
        player.start()
    replica_before = _replica_commits(cluster)
    rows, counts = [], {}

    def phase(name: str, inject, seconds: float, recover=None):
        time.sleep(2)
        started = time.monotonic()
        extra = inject() or {}
        injected = time.monotonic()
        time.sleep(seconds)
        back = recover() if recover else None
        time.sleep(2)
        counts[name] = cluster.connection_counts()
        ended = time.monotonic()
        failures = log.failures(started, ended)
        in_flight = log.overlapping(started, injected)
        last = max((f.ended for f in failures), default=started)
        rows.append({"fault": name, "5xx": sum(1 for f in failures if f.status is not None),
                     "connection errors": sum(1 for f in failures if f.status is None),
                     "in flight at the fault": in_flight,
                     "errors seen for (s)": round(last - started, 2) if failures else 0.0,
                     "recovered in (s)": None if back is None else round(back, 2), **extra})

    # The baseline: load only.
    phase("none (load only)", lambda: None, 15)

    # A web node lost: its process group killed at once; a new one started 5 s later.
    def kill_web():
        cluster.parts["web1"].kill()
    phase("web node web1 killed", kill_web, 5, lambda: cluster.start_app("web1"))

    # A reply worker node lost mid-search: killed while reply jobs run; its job's lease runs out and
    # the sweep sends it again; a new node joins 3 s later.
    kill_at = {}

    def kill_worker():
        # Mid-search, and on this node for certain: the other reply node is held (SIGSTOP, a few
        # seconds at most) until a reply search starts, which only reply1 can then have taken, and
        # reply1 is killed at once (a search lasts ~0.35 s here; this looks every 10 ms).
        other, node = cluster.parts["reply2"], cluster.parts["reply1"]
        taken = "SELECT id FROM matches_enginejob WHERE kind = 'reply' AND status = 'running' AND started_at > %s"
        with psycopg.connect(cluster.dsn("primary"), autocommit=True) as conn:
            for _ in range(10):
                other.signal_group(signal.SIGSTOP)
                try:
                    held = conn.execute("SELECT clock_timestamp()").fetchone()[0]
                    deadline = time.monotonic() + 3
                    while time.monotonic() < deadline:
                        running = [row[0] for row in conn.execute(taken, [held])]
                        if running:
                            node.kill()
                            kill_at["running"] = running
                            return
                        time.sleep(0.01)
                finally:
                    other.signal_group(signal.SIGCONT)
                time.sleep(0.5)
        raise AssertionError("no reply search was seen starting on reply1")

    def worker_back():
        started = time.monotonic()
        cluster.start_app("reply1")
        # Every job that was running at the kill is done again (the one on reply1 by a retry).
        waited = _wait(lambda: cluster.sql("primary", "SELECT count(*) FROM matches_enginejob WHERE id = ANY(%s) "
                                                      "AND status IN ('queued', 'sent', 'running')",
                                           [kill_at["running"]])[0][0] == 0, 60)
        return None if waited is None else time.monotonic() - started + 3
    phase("reply worker node reply1 killed mid-search", kill_worker, 3, worker_back)
    retried = cluster.sql("primary", "SELECT count(*) FROM matches_enginejob WHERE id = ANY(%s) AND attempts > 1",
                          [kill_at["running"]])[0][0]
    rows[-1]["searches cut and redone"] = retried

    # pgbouncer restarted online (-R): the new process takes every connection over from the old.
    restarted = {}
    phase("pgbouncer restarted online (-R)", lambda: restarted.update(s=cluster.restart_pgbouncer()), 3,
          lambda: restarted["s"])

    # pgbouncer stopped and started again: its clients' connections close; a request between two
    # of its statements at that moment fails (the in-flight ones), the next finds a new connection.
    def stop_and_start():
        started = time.monotonic()
        cluster.stop_pgbouncer()
        cluster.start_pgbouncer()
        restarted["plain"] = time.monotonic() - started
    phase("pgbouncer stopped and started", stop_and_start, 3, lambda: restarted["plain"])

    # The replica stopped for 5 s, then started; reads go to the primary meanwhile.
    def replica_back():
        cluster.start_replica()
        started = time.monotonic()
        before = _replica_commits(cluster)
        # In use again: lag-tolerant reads reach it (each player reads lists after every 2 moves).
        waited = _wait(lambda: _replica_commits(cluster) > before + 20, 30)
        return None if waited is None else time.monotonic() - started
    phase("replica stopped", lambda: cluster.stop_pg("replica"), 5, replica_back)

    # The replica's replay paused until it lags by seconds; reads that would see an older state
    # than a player's last move must not come from it.
    lag_seen = {}

    def pause():
        cluster.sql("replica", "SELECT pg_wal_replay_pause()")

    def resume():
        lag_seen["max"] = _lag(cluster)
        cluster.sql("replica", "SELECT pg_wal_replay_resume()")
        return _wait(lambda: _lag(cluster) == 0.0, 30)
    phase("replica replay paused 8 s", pause, 8, resume)
    rows[-1]["replica lag at resume (s)"] = round(lag_seen["max"], 1)

    stop.set()
    for player in players:
        player.join(timeout=60)
    errors = [f"{p.name}: {p.error!r}" for p in players if p.error is not None]
    assert not errors, errors

    # Settle: every engine job done, every analysis finished.
    settled = _wait(lambda: cluster.sql("primary", "SELECT count(*) FROM matches_enginejob "
                                                   "WHERE status IN ('queued', 'sent', 'running')")[0][0] == 0, 90)
    assert settled is not None, cluster.sql("primary", "SELECT id, kind, status, attempts, last_error FROM "
                                                       "matches_enginejob WHERE status IN ('queued','sent','running')")
    replica_reads = _replica_commits(cluster) - replica_before
    # Each player reads the rest of their events; what they read is what the primary holds for
    # them, each once.
    events_read_twice = events_not_read = events_read_not_held = 0
    for player in players:
        player.read_events()
        held = {row[0] for row in cluster.sql("primary", "SELECT e.id FROM matches_event e JOIN auth_user u ON "
                                                         "u.id = e.user_id WHERE u.username = %s", [player.name])}
        events_read_twice += len(player.event_ids) - len(set(player.event_ids))
        events_not_read += len(held - set(player.event_ids))
        events_read_not_held += len(set(player.event_ids) - held)
    # Each time a web process stopped reading the replica (lag past the bound, or down), it logged it.
    left = sum(cluster.parts[node].log.read_text().count("read replica not used") for node in ("web1", "web2"))

    # --- what the primary holds --------------------------------------------------------------
    sql = cluster.sql
    answered = {(m, p): n for m, p, n in log.moves}
    recorded = {(m, p): n for m, p, n, seat in sql("primary", "SELECT match_id, ply, notation, seat FROM matches_move "
                                                              "WHERE seat = 0 AND match_id IN (SELECT match_id FROM "
                                                              "matches_matchseat s JOIN auth_user u ON u.id = s.user_id "
                                                              "WHERE u.username LIKE 'load%%')")}
    lost = [key for key, move in answered.items() if recorded.get(key) != move]
    unanswered = [key for key in recorded if key not in answered]       # recorded, never acknowledged
    duplicated_moves = len(log.moves) - len(answered)
    # Every player move in a match still going on when its reply was due has one engine reply
    # right after it, and an engine move comes only after a player move.
    moves = sql("primary", "SELECT m.match_id, m.ply, m.seat FROM matches_move m JOIN matches_matchseat s ON "
                           "s.match_id = m.match_id AND s.seat = 0 JOIN auth_user u ON u.id = s.user_id "
                           "WHERE u.username LIKE 'load%%' ORDER BY 1, 2")
    by_match: dict[int, list] = {}
    for match, ply, seat in moves:
        by_match.setdefault(match, []).append((ply, seat))
    # A move's ply is the match's ply after it (1 = the first move); the player has seat 0.
    gaps = [m for m, ms in by_match.items() if [p for p, _ in ms] != list(range(1, len(ms) + 1))
            or any(seat != (ply - 1) % 2 for ply, seat in ms)]
    missing_replies = sql("primary", "SELECT count(*) FROM matches_match m WHERE m.status = 'active' AND "
                                     "m.id = ANY(%s) AND (SELECT count(*) FROM matches_move v WHERE v.match_id = m.id) "
                                     "%% 2 = 1", [list(by_match)])[0][0]
    failed_jobs = sql("primary", "SELECT count(*) FROM matches_enginejob WHERE status = 'failed'")[0][0]
    # Events: each engine move tells its player once ("move"), no event twice.
    event_dups = sql("primary", "SELECT count(*) FROM (SELECT user_id, kind, payload FROM matches_event "
                                "WHERE kind IN ('move', 'your_turn') GROUP BY 1, 2, 3 HAVING count(*) > 1) d")[0][0]
    engine_moves = {(m, p) for m, ms in by_match.items() for p, s in ms if s == 1}
    move_events = {(e[0], e[1]) for e in sql(
        "primary", "SELECT (payload->>'match')::bigint, (payload->>'ply')::int FROM matches_event e JOIN auth_user u "
                   "ON u.id = e.user_id WHERE u.username LIKE 'load%%' AND kind = 'move'")}
    analyses = dict(sql("primary", "SELECT status, count(*) FROM matches_analysis WHERE id = ANY(%s) GROUP BY 1",
                        [log.analyses]))
    total_5xx = sum(1 for o in log.outcomes if o.status is not None and o.status >= 500)
    report.update({
        "players": PLAYERS, "requests": len(log.outcomes), "player moves": len(answered),
        "engine replies": len(engine_moves), "analyses": len(log.analyses), "analyses by status": analyses,
        "lag-tolerant reads on the replica (transactions)": replica_reads,
        "times a web process left the replica for the primary": left,
        "moves lost": len(lost), "moves recorded but never acknowledged": len(unanswered),
        "moves duplicated": duplicated_moves, "matches with gaps or two moves in a row": len(gaps),
        "moves without their engine reply": missing_replies, "engine jobs failed": failed_jobs,
        "events twice": event_dups, "engine replies without their event": len(engine_moves - move_events),
        "events without their move": len(move_events - engine_moves),
        "events read (through the streaming service)": sum(len(p.event_ids) for p in players),
        "events read twice": events_read_twice, "events held but not read": events_not_read,
        "events read but not held": events_read_not_held,
        "stale reads": log.stale, "5xx in all": total_5xx,
        "faults": rows, "connections": counts,
    })
    _print_report(report, capsys)

    assert not lost and not unanswered and duplicated_moves == 0 and not gaps, report
    assert missing_replies == 0 and failed_jobs == 0, report
    assert event_dups == 0 and engine_moves == move_events, report
    assert events_read_twice == events_not_read == events_read_not_held == 0, report
    assert analyses.get("done", 0) == len(log.analyses), report
    assert not log.stale, log.stale
    assert replica_reads > 0 and left > 0
    assert rows[2]["searches cut and redone"] >= 1, "no search was running on the killed worker node"
    # Errors only where a part was taken away with requests in it: the killed web node, the
    # stopped pgbouncer; none at all elsewhere.
    for row in rows:
        errors = row["5xx"] + row["connection errors"]
        if row["fault"] in ("web node web1 killed", "pgbouncer stopped and started"):
            assert errors <= row["in flight at the fault"], row
        else:
            assert errors == 0, row
    assert len(answered) >= 200, len(answered)


def _print_report(report: dict, capsys) -> None:
    out = ROOT / "var" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "cluster.json").write_text(json.dumps(report, indent=2, default=str))
    lines = ["", ("| fault | 5xx | connection errors | in flight at the fault | errors seen for (s) "
                  "| recovered in (s) | notes |"), "|---|---|---|---|---|---|---|"]
    base = {"fault", "5xx", "connection errors", "in flight at the fault", "errors seen for (s)", "recovered in (s)"}
    for row in report["faults"]:
        notes = "; ".join(f"{k} {v}" for k, v in row.items() if k not in base)
        lines.append(f"| {row['fault']} | {row['5xx']} | {row['connection errors']} | {row['in flight at the fault']} "
                     f"| {row['errors seen for (s)']} | {row['recovered in (s)']} | {notes} |")
    names = list(next(iter(report["connections"].values())))
    lines += ["", "| after | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for phase, counts in report["connections"].items():
        lines.append(f"| {phase} | " + " | ".join(str(counts[n]) for n in names) + " |")
    lines += [""] + [f"{k}: {v}" for k, v in report.items() if k not in ("faults", "connections")]
    with capsys.disabled():
        print("\n".join(lines))
