"""The move path against the database's own limit, side by side in one run.

    python -m bench.http_moves [--clients 1,8,32] [--seconds 10] [--finished 100000] [--json var/bench/http.json]
    python -m bench.http_moves --baseline REF [--rounds 3] [...]

It migrates a PostgreSQL database of its own (`BENCH_DATABASE_URL`, default
postgres://postgres@127.0.0.1:5432/pearlsite_bench), starts gunicorn on it with the production
settings of `docker/gunicorn.conf.py`, and for each number of concurrent players runs
- the floor: the same transaction in raw psycopg (lock the match row, insert the move, update the
  match's snapshot, commit), one connection per player;
- HTTP moves: each player submits random legal moves (games pre-computed, so the client costs
  nothing measurable) through `POST matches/{id}/moves/`, both seats from one token pair;
then single-client reads (`GET matches/{id}/`, `GET events/?after=`) and the cost of a move early
(ply ≤ 20) against late (ply ≥ 100) in a game. It prints one table and writes the figures as JSON.
`--finished N` first loads N finished matches (with seats and moves) so that list costs are
measured against a full table. Each server's own output goes to `var/bench/server-<port>.log`.

`--baseline REF` measures the code at git REF beside this checkout in the same invocation: REF is
checked out in a temporary `git worktree` and served at the same time by the same interpreter (this
virtualenv) from its own database on the same PostgreSQL (`<database>_baseline`, port + 1). Each
phase (the floor and HTTP moves at each number of players, the reads) runs for one side and then
the other, the order alternating from phase to phase, `--rounds` times, so the machine's load
weighs on both alike. It prints every round, then the medians side by side with their ratio
(current ÷ baseline).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import psycopg

import games
from bench import proc_cpu

ROOT = Path(__file__).resolve().parent.parent
GAME = "hasami-shogi"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/pearlsite_bench"


@dataclass
class Series:
    """Latencies (seconds) of one measured phase and the wall time they were taken over."""
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0

    def add(self, other: Series) -> None:
        self.latencies.extend(other.latencies)

    def summary(self) -> dict:
        ms = sorted(x * 1000 for x in self.latencies)
        if not ms:
            return {"n": 0}
        q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0]] * 99
        return {"n": len(ms), "p50_ms": round(statistics.median(ms), 3), "p99_ms": round(q[98], 3),
                "rate_per_s": round(len(ms) / self.wall, 1) if self.wall else None}


# --- the server ----------------------------------------------------------------------------------

def server_env(database_url: str, root: Path = ROOT) -> dict:
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": database_url, "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PEARLSITE_HTTPS": "false", "CELERY_BROKER_URL": "memory://",
        "PYTHONPATH": str(root),
    })
    # A benchmark measures the move path, not the limits that guard it.
    for scope in ("ANON", "USER", "LOGIN", "REGISTRATION", "CHALLENGE", "ANALYSIS", "MOVES"):
        env[f"PEARLSITE_THROTTLE_{scope}"] = "off"
    return env


def migrate(database_url: str, root: Path = ROOT) -> None:
    admin = database_url.rsplit("/", 1)[0] + "/postgres"
    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, check=True,
                   env=server_env(database_url, root))


def start_server(database_url: str, port: int, workers: int | None, worker_class: str | None,
                 root: Path = ROOT) -> subprocess.Popen:
    command = [sys.executable, "-m", "gunicorn", "pearlsite.wsgi:application", "-b", f"127.0.0.1:{port}",
               "--log-level", "warning", "--access-logfile", "/dev/null"]
    if (root / "docker" / "gunicorn.conf.py").exists():
        command += ["-c", "docker/gunicorn.conf.py"]
    if workers:
        command += ["-w", str(workers)]
    if worker_class:
        command += ["-k", worker_class]
    # The server's own output (a log line a request, in JSON) goes to a file, for both trees alike:
    # written to this terminal or a pipe it would cost what whoever reads them on this machine takes.
    log_path = ROOT / "var" / "bench" / f"server-{port}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, cwd=root, env=server_env(database_url, root), start_new_session=True,
                                   stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            request(port, "GET", "/api/v1/games/")
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
            conn: http.client.HTTPConnection | None = None) -> tuple[int, dict | str]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    if own:
        conn.close()
    kind = response.getheader("Content-Type", "")
    return response.status, json.loads(raw) if kind.startswith("application/json") else raw.decode()


# --- players and their games ---------------------------------------------------------------------

@dataclass
class Pair:
    tokens: tuple[str, str]
    usernames: tuple[str, str]


def make_pairs(port: int, count: int, tag: str) -> list[Pair]:
    pairs = []
    for i in range(count):
        names, tokens = [], []
        for side in "ab":
            name = f"bench{tag}{i}{side}"
            password = secrets.token_urlsafe(18)   # nothing like the name (the validators check)
            status, body = request(port, "POST", "/api/v1/accounts/", {"username": name, "password": password})
            if status not in (200, 201):
                raise RuntimeError(f"register {name}: {status} {body}")
            names.append(name)
            tokens.append(body["token"])
        pairs.append(Pair(tuple(tokens), tuple(names)))
    return pairs


def new_match(port: int, pair: Pair) -> int:
    status, body = request(port, "POST", "/api/v1/challenges/", {"game": GAME, "opponents": [pair.usernames[1]]},
                           token=pair.tokens[0])
    if status != 201:
        raise RuntimeError(f"challenge: {status} {body}")
    status, body = request(port, "POST", f"/api/v1/challenges/{body['id']}/accept/", token=pair.tokens[1])
    if status != 200:
        raise RuntimeError(f"accept: {status} {body}")
    return body["match"]


def random_game(rng: Random) -> list[str]:
    state = games.get_game(GAME).new_state(2, seed=0)
    moves = []
    while not state.is_terminal:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return moves


# --- the two loads -------------------------------------------------------------------------------

def run_threads(count: int, target) -> Series:
    """Run `target(i, deadline, series)` in `count` threads for the phase; return the merged series."""
    results = [Series() for _ in range(count)]
    barrier = threading.Barrier(count + 1)
    threads = [threading.Thread(target=target, args=(i, barrier, results[i])) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    merged = Series(wall=time.perf_counter() - started)
    for series in results:
        merged.add(series)
    return merged


def floor_phase(database_url: str, match_ids: list[int], seconds: float) -> Series:
    def player(i: int, barrier: threading.Barrier, series: Series) -> None:
        match_id = match_ids[i]
        with psycopg.connect(database_url) as conn:
            state = conn.execute("SELECT state FROM matches_match WHERE id = %s", (match_id,)).fetchone()[0]
            conn.commit()
            snapshot = json.dumps(state)
            barrier.wait()
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                with conn.transaction():
                    ply = conn.execute("SELECT ply FROM matches_match WHERE id = %s FOR UPDATE",
                                       (match_id,)).fetchone()[0]
                    conn.execute("INSERT INTO matches_move (match_id, ply, seat, notation, created_at) "
                                 "VALUES (%s, %s, %s, %s, now())", (match_id, ply + 1, ply % 2, "a1-a2"))
                    conn.execute("UPDATE matches_match SET ply = %s, to_move = %s, state = %s, updated_at = now() "
                                 "WHERE id = %s", (ply + 1, (ply + 1) % 2, snapshot, match_id))
                series.latencies.append(time.perf_counter() - started)
    return run_threads(len(match_ids), player)


def http_phase(port: int, pairs: list[Pair], seconds: float, seed: int, by_ply: dict | None = None) -> Series:
    def player(i: int, barrier: threading.Barrier, series: Series) -> None:
        rng = Random(seed * 1000 + i)
        pair = pairs[i]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            match_id, moves = new_match(port, pair), random_game(rng)
            for ply, move in enumerate(moves):
                if time.perf_counter() >= deadline:
                    break
                started = time.perf_counter()
                try:
                    status, body = request(port, "POST", f"/api/v1/matches/{match_id}/moves/",
                                           {"move": move, "ply": ply}, token=pair.tokens[ply % 2], conn=conn)
                except (http.client.HTTPException, OSError):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    status, body = request(port, "POST", f"/api/v1/matches/{match_id}/moves/",
                                           {"move": move, "ply": ply}, token=pair.tokens[ply % 2], conn=conn)
                took = time.perf_counter() - started
                if status != 201:
                    raise RuntimeError(f"move {move} at ply {ply}: {status} {body}")
                series.latencies.append(took)
                if by_ply is not None:
                    by_ply["early" if ply < 20 else "late" if ply >= 100 else "middle"].append(took)
        conn.close()
    return run_threads(len(pairs), player)


def read_phase(port: int, pair: Pair, match_id: int, path: str, seconds: float) -> Series:
    def reader(i: int, barrier: threading.Barrier, series: Series) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            status, body = request(port, "GET", path.format(match=match_id), token=pair.tokens[0], conn=conn)
            if status != 200:
                raise RuntimeError(f"GET {path}: {status} {body}")
            series.latencies.append(time.perf_counter() - started)
        conn.close()
    return run_threads(1, reader)


def floor_matches(database_url: str, port: int, pairs: list[Pair]) -> list[int]:
    return [new_match(port, pair) for pair in pairs]


# --- a full table --------------------------------------------------------------------------------

def load_finished(database_url: str, count: int) -> None:
    """Insert `count` finished two-seat matches with a short record, by SQL, unless already there."""
    with psycopg.connect(database_url) as conn:
        have = conn.execute("SELECT count(*) FROM matches_match WHERE status = 'finished'").fetchone()[0]
        if have >= count:
            return
        missing = count - have
        users = [row[0] for row in conn.execute(
            "SELECT id FROM auth_user WHERE username LIKE 'benchload%%' ORDER BY id").fetchall()]
        for i in range(len(users), 200):
            users.append(conn.execute(
                "INSERT INTO auth_user (username, password, is_superuser, is_staff, is_active, first_name, "
                "last_name, email, date_joined) VALUES (%s, '!', false, false, true, '', '', '', now()) "
                "RETURNING id", (f"benchload{i}",)).fetchone()[0])
        state = json.dumps(games.get_game(GAME).new_state(2, seed=0).to_dict())
        print(f"loading {missing} finished matches ...", flush=True)
        conn.execute("""
            WITH made AS (
              INSERT INTO matches_match (game, variant, options, seed, players, status, ply, state, result,
                                         rated, time_warned, created_at, updated_at, finished_at)
              SELECT %s, 'standard', '{}', g, 2, 'finished', 2, %s,
                     '{"winners": [0], "scores": [1.0, 0.0], "termination": "resignation"}', false, false,
                     now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval,
                     now() - (g || ' minutes')::interval
              FROM generate_series(1, %s) AS g RETURNING id, seed)
            INSERT INTO matches_matchseat (match_id, seat, user_id, ai_level, offer)
            SELECT made.id, s, (%s::int[])[1 + (made.seed * 7 + s) %% 200], '', ''
            FROM made CROSS JOIN generate_series(0, 1) AS s""", (GAME, state, missing, users))
        conn.execute("""
            INSERT INTO matches_move (match_id, ply, seat, notation, created_at)
            SELECT m.id, p, p - 1, 'a1-a2', m.created_at FROM matches_match m CROSS JOIN generate_series(1, 2) p
            WHERE m.status = 'finished' AND NOT EXISTS (SELECT 1 FROM matches_move x WHERE x.match_id = m.id)""")
        conn.execute("ANALYZE")


# --- the run -------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase")
    parser.add_argument("--finished", type=int, default=0, help="finished matches to load first")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: its config)")
    parser.add_argument("--worker-class", default=None, help="gunicorn worker class (default: its config)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_HTTP_PORT", "8790")))
    parser.add_argument("--json", default=str(ROOT / "var" / "bench" / "http.json"))
    parser.add_argument("--baseline", metavar="REF", help="also measure git REF, alternating with this checkout")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline: runs of each")
    args = parser.parse_args(argv)
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    if args.baseline:
        report = compare(args, database_url)
        print_comparison(report)
    else:
        report = run_once(args, database_url, ROOT)
        print_report(report)
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {args.json}")
    return 0


@dataclass
class Side:
    """One code tree under test: its server, database and players."""
    root: Path
    database_url: str
    port: int
    server: subprocess.Popen | None = None
    pairs: list[Pair] = field(default_factory=list)
    floor_ids: list[int] = field(default_factory=list)

    def start(self, args, players: int) -> None:
        migrate(self.database_url, self.root)
        if args.finished:
            load_finished(self.database_url, args.finished)
        self.server = start_server(self.database_url, self.port, args.workers, args.worker_class, self.root)
        self.pairs = make_pairs(self.port, players, secrets.token_hex(3))
        self.floor_ids = floor_matches(self.database_url, self.port, self.pairs)

    def stop(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)

    def level(self, args, count: int, by_ply: dict | None) -> dict:
        """The floor and the HTTP moves of `count` players, with the CPU each move cost."""
        floor = floor_phase(self.database_url, self.floor_ids[:count], args.seconds)
        before = proc_cpu.snapshot(self.server.pid)
        moves = http_phase(self.port, self.pairs[:count], args.seconds, seed=count, by_ply=by_ply)
        after = proc_cpu.snapshot(self.server.pid)
        row = {"floor": floor.summary(), "http_move": moves.summary()}
        if before and after and moves.latencies:
            spent = after - before
            row["cpu_ms_per_move"] = {part: round(1000 * getattr(spent, part) / len(moves.latencies), 2)
                                      for part in ("web", "database", "client")}
        return row

    def reads(self, args) -> dict:
        pair = self.pairs[0]
        match_id, seconds = new_match(self.port, pair), args.seconds / 2
        return {
            "match_detail": read_phase(self.port, pair, match_id, "/api/v1/matches/{match}/", seconds).summary(),
            "events_after": read_phase(self.port, pair, match_id, "/api/v1/events/?after=0", seconds).summary(),
            "inbox": read_phase(self.port, pair, match_id, "/api/v1/matches/?player=" + pair.usernames[0],
                                seconds).summary(),
        }


def _levels(args) -> list[int]:
    return [int(x) for x in args.clients.split(",")]


def _empty_report(args) -> dict:
    return {"game": GAME, "seconds": args.seconds, "finished_matches": args.finished, "levels": {}}


def run_once(args, database_url: str, root: Path) -> dict:
    """The whole benchmark against a server running the code in `root`."""
    levels, side = _levels(args), Side(root, database_url, args.port)
    report = _empty_report(args)
    try:
        side.start(args, max(levels))
        by_ply: dict[str, list[float]] = {"early": [], "middle": [], "late": []}
        for count in levels:
            report["levels"][count] = side.level(args, count, by_ply if count == 1 else None)
        report["reads"] = side.reads(args)
        report["by_ply"] = {k: Series(v).summary() for k, v in by_ply.items()}
    finally:
        side.stop()
    return report


# --- baseline and current, interleaved -------------------------------------------------------------

def compare(args, database_url: str) -> dict:
    """Both trees served at once (each on its own port and database); every phase is run for one and
    then the other, the order alternating from phase to phase, `args.rounds` times."""
    checkout = Path(tempfile.mkdtemp(prefix="pearlsite-baseline-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), args.baseline],
                   check=True, stdout=subprocess.DEVNULL)
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    sides = {"baseline": Side(checkout, database_url + "_baseline", args.port + 1),
             "current": Side(ROOT, database_url, args.port)}
    levels = _levels(args)
    runs: dict[str, list[dict]] = {name: [_empty_report(args) for _ in range(args.rounds)] for name in sides}
    try:
        for side in sides.values():
            side.start(args, max(levels))
        for round_ in range(args.rounds):
            for index, count in enumerate([*levels, "reads"]):
                # Alternating from phase to phase and, for each phase, from round to round.
                order = ["baseline", "current"] if (round_ + index) % 2 == 0 else ["current", "baseline"]
                print(f"round {round_ + 1}/{args.rounds}, {count}: {' then '.join(order)}", flush=True)
                for name in order:
                    run = runs[name][round_]
                    if count == "reads":
                        run["reads"], run["by_ply"] = sides[name].reads(args), {}
                    else:
                        run["levels"][count] = sides[name].level(args, count, None)
    finally:
        for side in sides.values():
            side.stop()
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)], check=False)
    return {"baseline_ref": args.baseline, "baseline_commit": commit, "rounds": args.rounds, "runs": runs}


def _median(runs: list[dict], *path) -> float | None:
    values = []
    for run in runs:
        value = run
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None:
            values.append(value)
    return statistics.median(values) if values else None


def comparison_rows(report: dict) -> list[tuple[str, float | None, float | None]]:
    """(figure, baseline median, current median) for each figure of the runs."""
    base, current = report["runs"]["baseline"], report["runs"]["current"]
    rows = []
    for count in base[0]["levels"]:
        for label, path in ((f"{count} clients: move p50 ms", ("http_move", "p50_ms")),
                            (f"{count} clients: move p99 ms", ("http_move", "p99_ms")),
                            (f"{count} clients: moves per s", ("http_move", "rate_per_s")),
                            (f"{count} clients: floor tx per s", ("floor", "rate_per_s")),
                            (f"{count} clients: web CPU ms a move", ("cpu_ms_per_move", "web")),
                            (f"{count} clients: PostgreSQL CPU ms a move", ("cpu_ms_per_move", "database"))):
            rows.append((label, _median(base, "levels", count, *path), _median(current, "levels", count, *path)))
    for name in base[0]["reads"]:
        rows.append((f"read {name} p50 ms", _median(base, "reads", name, "p50_ms"),
                     _median(current, "reads", name, "p50_ms")))
    return rows


def print_comparison(report: dict) -> None:
    for name in ("baseline", "current"):
        for i, run in enumerate(report["runs"][name], 1):
            print(f"\n{name} run {i}:", end="")
            print_report(run)
    print(f"\nMedians of {report['rounds']} runs each, alternating; baseline {report['baseline_ref']} "
          f"({report['baseline_commit']}), current this checkout")
    print("| figure | baseline | current | current ÷ baseline |")
    print("|---|---|---|---|")
    for label, base, current in comparison_rows(report):
        ratio = f"{current / base:.3f}" if base and current is not None else "–"
        shown = [f"{v:,.2f}" if v is not None else "–" for v in (base, current)]
        print(f"| {label} | {shown[0]} | {shown[1]} | {ratio} |")


def print_report(report: dict) -> None:
    print(f"\n{report['game']}, {report['seconds']:.0f} s a phase, {report['finished_matches']} finished matches loaded")
    print("| clients | floor p50 / p99 / rate | HTTP move p50 / p99 / rate | p50 ÷ floor | rate ÷ floor |")
    print("|---|---|---|---|---|")
    for count, row in report["levels"].items():
        f, h = row["floor"], row["http_move"]
        print(f"| {count} | {f['p50_ms']:.2f} ms / {f['p99_ms']:.2f} ms / {f['rate_per_s']:,.0f} tx/s "
              f"| {h['p50_ms']:.2f} ms / {h['p99_ms']:.2f} ms / {h['rate_per_s']:,.0f} per s "
              f"| {h['p50_ms'] / f['p50_ms']:.1f}× | {100 * h['rate_per_s'] / f['rate_per_s']:.0f} % |")
    for count, row in report["levels"].items():
        if "cpu_ms_per_move" in row:
            cpu = row["cpu_ms_per_move"]
            print(f"CPU a move at {count} clients (new matches included): web {cpu['web']:.2f} ms, "
                  f"PostgreSQL {cpu['database']:.2f} ms, this client {cpu['client']:.2f} ms")
    floor_p50 = report["levels"][min(report["levels"])]["floor"]["p50_ms"]
    for name, row in report["reads"].items():
        print(f"{name}: p50 {row['p50_ms']:.2f} ms (÷ single-client floor {row['p50_ms'] / floor_p50:.1f}×), "
              f"p99 {row['p99_ms']:.2f} ms")
    for name, row in report["by_ply"].items():
        if row["n"]:
            print(f"moves {name} in the game (1 client): p50 {row['p50_ms']:.2f} ms over {row['n']}")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pearlsite.settings")
    sys.exit(main())
