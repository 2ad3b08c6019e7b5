"""Real processes for fault tests: a throw-away redis-server, gunicorn with the production
configuration (docker/gunicorn.conf.py), a Celery worker, and a small HTTP client that keeps its
connection alive. Each starts on a free port and is stopped by its fixture."""
from __future__ import annotations

import http.client
import json
import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, seconds: float, message: str, every: float = 0.05) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(every)


class RedisServer:
    """A redis-server without persistence: stopping it loses whatever it held."""

    def __init__(self, tmp: Path):
        self.port, self.tmp, self.proc = free_port(), tmp, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)], stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        wait_for(lambda: _pings(client), 10, "redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def hang(self) -> None:
        """Stop answering without closing anything (connections wait: a hung host or network)."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)


def _pings(client) -> bool:
    try:
        return client.ping()
    except redis.RedisError:
        return False


def production_env(database_url: str, redis_url: str, tmp: Path, **extra: str) -> dict:
    """The production settings as shipped (DEBUG off, a generated key, throttles and all), over
    plain HTTP on the loopback."""
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "pearlsite.settings", "DATABASE_URL": database_url,
            "REDIS_URL": redis_url, "CELERY_BROKER_URL": redis_url, "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PEARLSITE_HTTPS": "false", "PEARLSITE_VAR_DIR": str(tmp), "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT), **extra}


class Process:
    """A child process whose output is kept (and shown when a test fails)."""

    def __init__(self, command: list[str], env: dict, ready: str, seconds: float = 60):
        self.lines: list[str] = []
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, start_new_session=True)
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()
        wait_for(lambda: any(ready in line for line in self.lines) or self.proc.poll() is not None, seconds,
                 f"{command[2:4]} did not start")
        assert self.proc.poll() is None, "".join(self.lines)

    def signal(self, number: int) -> None:
        self.proc.send_signal(number)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def output(self) -> str:
        return "".join(self.lines)


def gunicorn(env: dict, port: int, *args: str) -> Process:
    return Process([sys.executable, "-m", "gunicorn", "-c", "docker/gunicorn.conf.py", "-b", f"127.0.0.1:{port}",
                    *args, "pearlsite.wsgi:application"], env, "Booting worker")


def celery_worker(env: dict, *args: str) -> Process:
    return Process([sys.executable, "-m", "celery", "-A", "pearlsite", "worker", "--pool", "solo",
                    "--loglevel", "INFO", "--without-mingle", "--without-gossip", *args], env, " ready.")


class Client:
    """One keep-alive HTTP/1.1 connection, as a player's app or a balancer holds one, reused the
    way urllib3 and nginx reuse one: not after the server closed it while it was idle."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict | str]:
        headers = {"Content-Type": "application/json"}
        if self.conn.sock is not None and select.select([self.conn.sock], [], [], 0)[0]:
            # Readable while idle: the server closed it. Like urllib3 (requests) and nginx, do not
            # send on it: open a new one.
            self.conn.close()
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        try:
            self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()           # a new connection next time; the caller sees the error
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()           # http.client reconnects on the next request
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw.decode()

    def close(self) -> None:
        self.conn.close()
