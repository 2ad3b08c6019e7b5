"""Engine reply latency through HTTP: challenge `ai:<level>`, move, and time until the reply shows.

    python -m bench.engine_latency                       # starts `manage.py serve` on the defaults
    REDIS_URL=redis://127.0.0.1:6379/5 python -m bench.engine_latency --port 8151
    python -m bench.engine_latency --base http://127.0.0.1:8000 -n 50

Without --base it starts `manage.py serve` (web, reply worker, analysis worker) on --port with a
fresh var folder (SQLite file and filesystem broker unless DATABASE_URL/REDIS_URL say otherwise),
and stops it afterwards (rate limits off). Each round: a new challenge (the engine plays second), one move, then
`GET matches/{id}/` every --poll seconds until the engine's reply is there; the match is resigned
afterwards so the engine-match quota never binds. Prints p50/p90/max of the reply latency (move
request sent → reply visible) and of the move request alone.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THROTTLED = ("ANON", "USER", "CHALLENGE", "MOVES", "REGISTRATION")


def _call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + "/api/v1/" + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    while True:
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            if exc.code == 429:                     # throttled: wait as told, then try again
                time.sleep(float(exc.headers.get("Retry-After", "1")))
                continue
            raise RuntimeError(f"{method} {path}: {exc.code} {exc.read()[:300]!r}") from None


def _round(base: str, token: str, level: str, poll: float, timeout: float) -> tuple[float, float]:
    """(reply latency, move request time) of one challenge."""
    match = _call(base, "POST", "challenges/", {"game": "hasami-shogi", "opponents": [f"ai:{level}"]}, token)["match"]
    move = _call(base, "GET", f"matches/{match}/", token=token)["legal_moves"][0]
    started = time.perf_counter()
    _call(base, "POST", f"matches/{match}/moves/", {"move": move, "ply": 0}, token)
    answered = time.perf_counter() - started
    while _call(base, "GET", f"matches/{match}/?legal=none", token=token)["ply"] < 2:
        if time.perf_counter() - started > timeout:
            raise RuntimeError(f"no reply in match {match} within {timeout} s")
        time.sleep(poll)
    latency = time.perf_counter() - started
    _call(base, "POST", f"matches/{match}/resign/", token=token)
    return latency, answered


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(base: str, rounds: int, level: str, poll: float, timeout: float) -> dict:
    name = "bench-" + secrets.token_hex(4)
    token = _call(base, "POST", "accounts/", {"username": name, "password": secrets.token_hex(12)})["token"]
    _round(base, token, level, poll, timeout)                  # warm-up (imports, connections)
    latencies, requests = zip(*(_round(base, token, level, poll, timeout) for _ in range(rounds)))
    return {"rounds": rounds, "level": level,
            "reply_p50": statistics.median(latencies), "reply_p90": _percentile(latencies, 0.9),
            "reply_max": max(latencies), "move_request_p50": statistics.median(requests)}


def _serve(port: int, var_dir: str) -> subprocess.Popen:
    # As `make run` (development settings); rate limits off, since the bench polls every 20 ms.
    env = {"DJANGO_DEBUG": "true", **os.environ, "PORT": str(port), "PEARLSITE_VAR_DIR": var_dir,
           "PYTHONUNBUFFERED": "1", **{f"PEARLSITE_THROTTLE_{scope}": "off" for scope in THROTTLED}}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    log = open(Path(var_dir) / "serve.log", "w")
    server = subprocess.Popen([sys.executable, "manage.py", "serve"], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/games/", timeout=2)
            return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {log.name}") from None
            time.sleep(0.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="a running server (default: start `manage.py serve`)")
    parser.add_argument("--port", type=int, default=8150)
    parser.add_argument("-n", "--rounds", type=int, default=30)
    parser.add_argument("--level", default="random")
    parser.add_argument("--poll", type=float, default=0.02, help="seconds between polls")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    server = None
    with tempfile.TemporaryDirectory(prefix="pearlsite-bench-") as var_dir:
        base = args.base
        if base is None:
            server = _serve(args.port, var_dir)
            base = f"http://127.0.0.1:{args.port}"
        try:
            result = measure(base, args.rounds, args.level, args.poll, args.timeout)
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=60)
    broker = "redis" if os.environ.get("REDIS_URL") or os.environ.get("CELERY_BROKER_URL") else "filesystem"
    print(f"ai:{result['level']} reply latency over {result['rounds']} rounds ({broker} broker): "
          f"p50 {result['reply_p50']:.3f} s, p90 {result['reply_p90']:.3f} s, max {result['reply_max']:.3f} s; "
          f"move request p50 {result['move_request_p50']:.3f} s")


if __name__ == "__main__":
    main()
