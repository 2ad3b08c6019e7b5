"""Event streams held open, and how fast a move reaches them: the ASGI service beside today's
threaded path, in one run.

    python -m bench.streams [--streams 100,1000,5000] [--servers threaded,asgi,daphne,granian] [--rounds 2]
                            [--seconds 20] [--moves-per-second 10] [--json var/bench/streams.json]

For each N and each server it opens N `GET events/stream/` connections (one account each, an
asyncio client emulating EventSource: it reconnects after `retry:` with Last-Event-ID when a
stream ends), then plays moves through the threaded gunicorn (the move path) in matches between
the first accounts, so each move concerns one or two of the N streams. It prints connections
held, the delivery latency of each event from its commit (the row's created_at) to the client
(p50, p99), and the RSS and CPU of the processes serving the streams:
- threaded: gunicorn gthread as docker/gunicorn.conf.py (one process per core, 8 threads) serves
  the streams and the moves;
- asgi: gunicorn with uvicorn workers (docker/gunicorn-streams.conf.py) serves the streams, the
  threaded gunicorn the moves;
- daphne, granian: the other ASGI servers on the same application and settings, for the choice of
  server: granian with one worker per core (`--interface asgi --workers 2` on two cores), daphne as
  the single process it runs.
With `--rounds R` each configuration runs R times, the servers alternating within each round (the
machine may be shared), and the table shows each figure's median over the rounds.
PostgreSQL `BENCH_DATABASE_URL` (default .../pearlsite_bench_streams) and Redis `BENCH_REDIS_URL`
(default REDIS_URL, else redis://127.0.0.1:6379/0) are used; the file-descriptor limit is raised
to its hard limit.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from random import Random

import uvloop

from bench import http_moves

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/pearlsite_bench_streams"
MOVE_PORT = 8720
PAIRS = 50


def server_env(database_url: str, redis_url: str) -> dict:
    env = http_moves.server_env(database_url)
    env.update({"REDIS_URL": redis_url, "CELERY_BROKER_URL": "memory://", "PEARLSITE_STREAMS_PER_ADDRESS": "0"})
    return env


def start(command: list[str], env: dict, port: int) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    for _ in range(400):
        try:
            http_moves.request(port, "GET", "/api/v1/games/")
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{command[:3]} did not start")


def gthread(env: dict, port: int) -> subprocess.Popen:
    return start([sys.executable, "-m", "gunicorn", "-c", "docker/gunicorn.conf.py", "pearlsite.wsgi:application",
                  "-b", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "--log-level", "warning"], env, port)


def uvicorn_service(env: dict, port: int) -> subprocess.Popen:
    return start([sys.executable, "-m", "gunicorn", "-c", "docker/gunicorn-streams.conf.py", "pearlsite.asgi:application",
                  "-b", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "--log-level", "warning"], env, port)


def daphne_service(env: dict, port: int) -> subprocess.Popen:
    """daphne runs one process (no worker management of its own)."""
    return start([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
                  "pearlsite.asgi:application"], env, port)


def granian_service(env: dict, port: int) -> subprocess.Popen:
    return start([sys.executable, "-m", "granian", "--interface", "asgi", "--workers", str(STREAM_WORKERS),
                  "--host", "127.0.0.1", "--port", str(port), "--backlog", "4096", "--log-level", "warning",
                  "pearlsite.asgi:application"], env, port)


STREAM_WORKERS = max(2, os.cpu_count() or 1)       # one process per core, as docker/gunicorn-streams.conf.py
STREAM_SERVERS = {"asgi": uvicorn_service, "daphne": daphne_service, "granian": granian_service}
SERVERS = ("threaded", *STREAM_SERVERS)


def parse_servers(value: str) -> list[str]:
    """`--servers`: a comma-separated list of known servers, each once, in the order given."""
    kinds = [kind.strip() for kind in value.split(",") if kind.strip()]
    unknown = [kind for kind in kinds if kind not in SERVERS]
    if unknown or not kinds or len(set(kinds)) != len(kinds):
        raise argparse.ArgumentTypeError(f"servers: a list of distinct names among {', '.join(SERVERS)}; got {value!r}")
    return kinds


def schedule(counts: list[int], kinds: list[str], rounds: int) -> list[tuple[int, str]]:
    """Every (streams, server) `rounds` times; within each count the servers alternate, and each
    round reverses the order of the last, so no server always runs first (or after the same one)."""
    runs = []
    for count in counts:
        for round_ in range(rounds):
            runs += [(count, kind) for kind in (kinds if round_ % 2 == 0 else kinds[::-1])]
    return runs


MEDIAN_FIGURES = ("opened_in_s", "held_before", "held_after", "connects", "moves", "events", "p50_ms", "p99_ms",
                  "rss_mb", "cpu_pct", "client_cpu_pct", "load")


def median_rows(rows: list[dict]) -> list[dict]:
    """One row per (streams, server): the median of each figure over its runs (a figure a run
    could not give, such as latency when nothing was delivered, is left out, not counted as zero)."""
    groups: dict[tuple[int, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["streams"], row["server"]), []).append(row)
    medians = []
    for (count, kind), runs in groups.items():
        row = {"server": kind, "streams": count, "runs": len(runs),
               "failed": sum(1 for r in runs if r.get("error"))}
        for figure in MEDIAN_FIGURES:
            values = [r[figure] for r in runs if r.get(figure) is not None]
            row[figure] = round(statistics.median(values), 1) if values else None
        medians.append(row)
    return medians


def stop(process: subprocess.Popen) -> None:
    """Stop the server and every worker of its process group (workers finishing a stream would
    otherwise keep its port)."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process group (the server's master and workers), MB."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != pid:             # process group
                continue
            with open(f"/proc/{entry}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            continue
    return round(total / 2**20, 1)


def tree_cpu(pid: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) == pid:
                total += (int(fields[11]) + int(fields[12])) / ticks
        except OSError:
            continue
    return total


# --- accounts and matches, written directly (the bench measures streams, not sign-ups) ------------

def setup_accounts(env: dict, count: int) -> tuple[list[str], list[tuple[int, str, str]]]:
    """`count` accounts with a token each, and PAIRS matches between the first ones: (match, token a, token b)."""
    script = f"""
import json, secrets, django
django.setup()
from django.contrib.auth import get_user_model
from matches.services import accounts, challenges
User = get_user_model()
tag = secrets.token_hex(4)
users = User.objects.bulk_create([User(username=f"s{{tag}}{{i}}", password="!") for i in range({count})])
tokens = [accounts.token_create(user=u)[1] for u in users]
pairs = []
for i in range(0, min({count}, {PAIRS * 2}) - 1, 2):
    c = challenges.challenge_create(creator=users[i], game="hasami-shogi", variant=None, options={{}},
                                    opponents=[users[i + 1].username], rated=False, time_control=None)
    c = challenges.challenge_accept(challenge_id=c.pk, user=users[i + 1])
    pairs.append((c.match_id, tokens[i], tokens[i + 1]))
print(json.dumps({{"tokens": tokens, "pairs": pairs}}))
"""
    out = subprocess.run([sys.executable, "-c", script], check=False, cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "pearlsite.settings"},
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return data["tokens"], [tuple(p) for p in data["pairs"]]


# --- the asyncio EventSource --------------------------------------------------------------------

class Stream:
    def __init__(self, token: str):
        self.token, self.last_id, self.open, self.retry = token, None, False, 3.0
        self.latencies: list[float] = []
        self.connects = 0

    async def run(self, port: int, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self._once(port, stop)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                pass
            self.open = False
            if not stop.is_set():
                await asyncio.sleep(self.retry)

    async def _once(self, port: int, stop: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
        self.connects += 1
        resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
        writer.write((f"GET /api/v1/events/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {self.token}\r\n"
                      f"Accept: text/event-stream\r\n{resume}\r\n").encode())
        try:
            status = await reader.readline()
            headers = (await reader.readuntil(b"\r\n\r\n")).decode().lower()
            if b" 200 " not in status:
                return
            self.open = True
            chunked = "transfer-encoding: chunked" in headers
            buffer = b""
            while not stop.is_set():
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        return
                    data = await reader.readexactly(size + 2)
                    buffer += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                    buffer += data
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    self._event(block.decode())
        finally:
            writer.close()

    def _event(self, block: str) -> None:
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "retry" in fields:
            self.retry = int(fields["retry"]) / 1000
        if "id" in fields:
            self.last_id = fields["id"]
        if "data" in fields:
            created = datetime.fromisoformat(json.loads(fields["data"])["created_at"]).timestamp()
            self.latencies.append(time.time() - created)


def play_moves(port: int, pairs: list[tuple[int, str, str]], seconds: float, rate: float,
               stop: threading.Event) -> int:
    """Moves through the threaded server, `rate` per second spread over the matches."""
    rng, played = Random(1), 0
    games = {match: (http_moves.random_game(rng), 0) for match, _, _ in pairs}
    deadline = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < deadline and not stop.is_set():
        match, a, b = pairs[turn % len(pairs)]
        turn += 1
        moves, ply = games[match]
        if ply >= len(moves):
            continue
        try:
            status, body = http_moves.request(port, "POST", f"/api/v1/matches/{match}/moves/",
                                              {"move": moves[ply], "ply": ply}, token=(a, b)[ply % 2])
        except (OSError, http.client.HTTPException):
            continue                  # the threaded server drowned: the move is counted as not made
        if status == 409 and body.get("code") == "stale_ply":      # a timed-out move that was made after all
            games[match] = (moves, body["detail"]["ply"])
            continue
        if status != 201:
            raise RuntimeError(f"move: {status} {body}")
        games[match] = (moves, ply + 1)
        played += 1
        time.sleep(max(0.0, 1 / rate))
    return played


async def measure(kind: str, port: int, move_port: int, server: subprocess.Popen, tokens: list[str], pairs, seconds: float,
                  rate: float) -> dict:
    stop = asyncio.Event()
    streams = [Stream(token) for token in tokens]
    tasks = []
    opening = time.monotonic()
    for start in range(0, len(streams), 250):           # connect in waves (the listen backlog)
        tasks += [asyncio.create_task(s.run(port, stop)) for s in streams[start:start + 250]]
        await asyncio.sleep(0.2)
    # Until every stream is open, or none opened for 10 s (the threaded server holds a dozen).
    best, best_at = 0, time.monotonic()
    while (held := sum(s.open for s in streams)) < len(streams) and time.monotonic() - best_at < 10:
        if held > best:
            best, best_at = held, time.monotonic()
        await asyncio.sleep(0.25)
    opened_in = time.monotonic() - opening
    await asyncio.sleep(2)
    held_before = sum(s.open for s in streams)
    for s in streams:
        s.latencies.clear()
    cpu_before, started = tree_cpu(server.pid), time.monotonic()
    client_before = time.process_time()
    stop_moves = threading.Event()
    moves = await asyncio.to_thread(play_moves, move_port, pairs, seconds, rate, stop_moves)
    await asyncio.sleep(2)                               # the last moves' events arrive
    held_after = sum(s.open for s in streams)
    cpu = tree_cpu(server.pid) - cpu_before
    wall = time.monotonic() - started
    client_cpu = time.process_time() - client_before
    rss = tree_rss_mb(server.pid)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ms = sorted(x * 1000 for s in streams for x in s.latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0] if ms else 0.0] * 99
    return {"server": kind, "streams": len(streams), "opened_in_s": round(opened_in, 1),
            "held_before": held_before, "held_after": held_after,
            "connects": sum(s.connects for s in streams), "moves": moves, "events": len(ms),
            "p50_ms": round(statistics.median(ms), 1) if ms else None, "p99_ms": round(q[98], 1) if ms else None,
            "rss_mb": rss, "cpu_s": round(cpu, 1), "cpu_pct": round(100 * cpu / wall, 1),
            "client_cpu_pct": round(100 * client_cpu / wall, 1), "load": round(os.getloadavg()[0], 1)}


def run_one(env: dict, run: int, count: int, kind: str, seconds: float, rate: float) -> dict:
    """One configuration on fresh accounts and matches; a server that fails to start or to serve
    is a row with its error (a figure, not the end of the run)."""
    tokens, pairs = setup_accounts(env, count)
    move_port, stream_port = MOVE_PORT + 2 * run, MOVE_PORT + 2 * run + 1     # never a port in use
    moves_server = gthread(env, move_port)
    stream_server = moves_server
    try:
        if kind != "threaded":
            stream_server = STREAM_SERVERS[kind](env, stream_port)
        return uvloop.run(measure(kind, stream_port if kind != "threaded" else move_port, move_port,
                                  stream_server, tokens, pairs, seconds, rate))
    except RuntimeError as error:
        return {"server": kind, "streams": count, "error": str(error)[-500:]}
    finally:
        if stream_server is not moves_server:
            stop(stream_server)
        stop(moves_server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", default="100,1000,5000")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves-per-second", type=float, default=10.0)
    parser.add_argument("--servers", type=parse_servers, default="threaded,asgi")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BENCH_REDIS_URL", os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    env = server_env(database_url, redis_url)
    http_moves.migrate(database_url)
    rows = []
    for run, (count, kind) in enumerate(schedule([int(n) for n in args.streams.split(",")], args.servers, args.rounds)):
        row = run_one(env, run, count, kind, args.seconds, args.moves_per_second)
        rows.append(row)
        print(json.dumps(row), flush=True)
    medians = median_rows(rows)
    print(f"\n{'server':9} {'streams':>7} {'runs':>4} {'open s':>6} {'held':>11} {'connects':>8} {'moves':>5} "
          f"{'events':>6} {'p50 ms':>8} {'p99 ms':>8} {'RSS MB':>7} {'CPU %':>6} {'client %':>8} {'load':>5}")
    for r in medians:
        runs = f"{r['runs']}" + (f"!{r['failed']}" if r["failed"] else "")
        print(f"{r['server']:9} {r['streams']:>7} {runs:>4} {r['opened_in_s']!s:>6} "
              f"{r['held_before']!s:>5}/{r['held_after']!s:<5} {r['connects']!s:>8} {r['moves']!s:>5} "
              f"{r['events']!s:>6} {r['p50_ms']!s:>8} {r['p99_ms']!s:>8} {r['rss_mb']!s:>7} {r['cpu_pct']!s:>6} "
              f"{r['client_cpu_pct']!s:>8} {r['load']!s:>5}")
    print(f"(medians over --rounds {args.rounds}; runs !k: k runs failed; granian {STREAM_WORKERS} workers, "
          f"asgi {STREAM_WORKERS} uvicorn workers, daphne 1 process)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"runs": rows, "medians": medians}, indent=2))
    dropped = [r for r in rows if r["server"] == "asgi" and (r.get("error") or r["held_after"] < r["streams"] or not r["events"])]
    if dropped:
        sys.exit(f"the ASGI service dropped streams or delivered nothing: {dropped}")


if __name__ == "__main__":
    main()
