"""The topology of docs/scaling.md §7 on one machine, from stock parts (`make cluster`):

    nginx (docker/nginx.conf)  ->  web1, web2 (gunicorn, docker/gunicorn.conf.py)
                               ->  stream (gunicorn + uvicorn, docker/gunicorn-streams.conf.py)
    every web and worker process -> pgbouncer (transaction pooling) -> PostgreSQL primary
    lag-tolerant reads           -> PostgreSQL replica (pg_basebackup -R, streaming)
    Redis; Celery worker nodes reply1, reply2 (ai-move), analysis1, analysis2 (analysis-user,
    analysis-system), notify1, notify2 (notify); one beat.

`python scripts/cluster.py up [--base-port N]` starts it all in the foreground, prints the address,
and stops everything on Ctrl-C (or SIGTERM): each part in reverse order, nothing left running.
Ports: nginx at N, web1 N+1, web2 N+2, stream N+3, pgbouncer N+4, primary N+5, replica N+6, Redis
N+7 (default N = 19400). Data lives under a fresh folder (--dir), removed on the way out unless
--keep. Run as root, PostgreSQL and pgbouncer run as the `postgres` user (both refuse root).

tests/cluster/ drives the same class (`Cluster`) and puts faults into it.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), default=None)
NGINX = "/usr/sbin/nginx"
PGBOUNCER = "/usr/sbin/pgbouncer"
DB = "pearlsite"
# name -> (queues, hostname prefix): two nodes of each lane.
LANES = {"reply": "ai-move", "analysis": "analysis-user,analysis-system", "notify": "notify"}


def _as_postgres() -> list[str]:
    """PostgreSQL and pgbouncer refuse to run as root: drop to the `postgres` user (exec, no fork,
    so signals reach the server itself)."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid", "postgres", "--regid", "postgres", "--init-groups", "--"]


def _wait(condition, seconds: float, what: str) -> float:
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise RuntimeError(f"{what}: not ready after {seconds} s")
        time.sleep(0.05)
    return time.monotonic() - started


def _accepts(port: int) -> bool:
    import socket
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


@dataclass
class Part:
    name: str
    command: list[str]
    env: dict
    log: Path
    port: int | None = None
    proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def signal_group(self, number: int) -> None:
        """A signal to the part's whole process group (SIGSTOP/SIGCONT: a node that hangs, then resumes)."""
        os.killpg(self.proc.pid, number)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole process group: a machine lost, workers and children with it."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def stop(self, sig: int = signal.SIGTERM, seconds: float = 40) -> None:
        if not self.running:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)        # any child left behind
        except ProcessLookupError:
            pass


class Cluster:
    def __init__(self, base_port: int = 19400, folder: Path | None = None, extra_env: dict | None = None,
                 web_concurrency: int = 2, threads: int = 4):
        self.base = base_port
        self.ports = {"nginx": base_port, "web1": base_port + 1, "web2": base_port + 2, "stream": base_port + 3,
                      "pgbouncer": base_port + 4, "primary": base_port + 5, "replica": base_port + 6,
                      "redis": base_port + 7}
        self.dir = Path(folder or tempfile.mkdtemp(prefix=f"pearlsite-cluster-{base_port}-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o755)
        self.logs = self.dir / "logs"
        self.logs.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.logs, "postgres", "postgres")     # PostgreSQL writes its logs here too
        self.parts: dict[str, Part] = {}
        self.extra_env = extra_env or {}
        self.web_concurrency, self.threads = web_concurrency, threads
        self.url = f"http://127.0.0.1:{self.ports['nginx']}"

    # --- addresses --------------------------------------------------------------------------
    def dsn(self, part: str, dbname: str = DB) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.ports[part]}/{dbname}"

    @property
    def app_env(self) -> dict:
        redis_url = f"redis://127.0.0.1:{self.ports['redis']}/0"
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pearlsite.settings",
               "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.ports['pgbouncer']}/{DB}",
               "DATABASE_TRANSACTION_POOLING": "true",
               "DATABASE_REPLICA_URL": f"postgres://postgres@127.0.0.1:{self.ports['replica']}/{DB}",
               "REDIS_URL": redis_url, "CELERY_BROKER_URL": redis_url,
               "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": self._secret(),
               "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "PEARLSITE_HTTPS": "false",
               "PEARLSITE_NUM_PROXIES": "1", "FORWARDED_ALLOW_IPS": "127.0.0.1",
               "PEARLSITE_VAR_DIR": str(self.dir / "var"), "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT),
               "WEB_CONCURRENCY": str(self.web_concurrency), "GUNICORN_THREADS": str(self.threads),
               "STREAM_CONCURRENCY": "1"}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        env.update(self.extra_env)
        return env

    def _secret(self) -> str:
        path = self.dir / "secret"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(50))
        return path.read_text()

    # --- PostgreSQL -------------------------------------------------------------------------
    def _pg(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([*_as_postgres(), *args], check=False, cwd="/", capture_output=True, text=True)
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout}{done.stderr}")
        return done

    def _pg_ctl(self, data: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return self._pg(str(PG_BIN / "pg_ctl"), "-D", str(data), *args, check=check)

    def _pg_dir(self, name: str) -> Path:
        return self.dir / name

    def start_primary(self) -> None:
        data = self._pg_dir("primary")
        if not data.exists():
            data.mkdir()
            if os.geteuid() == 0:
                shutil.chown(data, "postgres", "postgres")
            self._pg(str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                     "--no-instructions")
            with open(data / "postgresql.conf", "a") as conf:
                conf.write(f"\nport = {self.ports['primary']}\nlisten_addresses = '127.0.0.1'\n"
                           f"unix_socket_directories = '{data}'\nwal_level = replica\nmax_wal_senders = 5\n"
                           "hot_standby = on\ntimezone = 'UTC'\nmax_connections = 120\n"
                           # A throw-away cluster: no fsync (a crash of this machine loses it anyway).
                           "fsync = off\nfull_page_writes = off\nshared_buffers = 64MB\n")
            with open(data / "pg_hba.conf", "a") as hba:
                hba.write("host replication all 127.0.0.1/32 trust\n")
        self._pg_ctl(data, "-l", str(self.logs / "primary.log"), "-w", "start")
        with psycopg.connect(self.dsn("primary", "postgres"), autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB]).fetchone():
                conn.execute(f"CREATE DATABASE {DB}")

    def start_replica(self) -> None:
        data = self._pg_dir("replica")
        if not data.exists():
            data.mkdir(mode=0o700)
            if os.geteuid() == 0:
                shutil.chown(data, "postgres", "postgres")
            self._pg(str(PG_BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(self.ports["primary"]),
                     "-U", "postgres", "-D", str(data), "-R", "-X", "stream", "-c", "fast")
            with open(data / "postgresql.conf", "a") as conf:
                conf.write(f"\nport = {self.ports['replica']}\nunix_socket_directories = '{data}'\n"
                           "hot_standby_feedback = on\n")
        self._pg_ctl(data, "-l", str(self.logs / "replica.log"), "-w", "start")

    def stop_pg(self, name: str) -> None:
        data = self._pg_dir(name)
        if (data / "postmaster.pid").exists():
            self._pg_ctl(data, "-m", "fast", "-w", "stop", check=False)

    def sql(self, part: str, statement: str, params=None) -> list[tuple]:
        with psycopg.connect(self.dsn(part), autocommit=True, connect_timeout=3) as conn:
            cursor = conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else []

    # --- pgbouncer --------------------------------------------------------------------------
    def _pgbouncer_part(self, *options: str) -> Part:
        folder = self.dir / "pgbouncer"
        folder.mkdir(exist_ok=True)
        (folder / "users.txt").write_text('"postgres" ""\n')
        config = (ROOT / "docker" / "pgbouncer.ini").read_text()
        for old, new in (("host=db port=5432", f"host=127.0.0.1 port={self.ports['primary']}"),
                         ("listen_addr = 0.0.0.0", "listen_addr = 127.0.0.1"),
                         ("listen_port = 6432", f"listen_port = {self.ports['pgbouncer']}"),
                         ("unix_socket_dir = /tmp", f"unix_socket_dir = {folder}"),
                         ("auth_type = scram-sha-256", "auth_type = trust"),
                         ("auth_file = /etc/pgbouncer/userlist.txt", f"auth_file = {folder / 'users.txt'}"),
                         ("admin_users = pearlsite", "admin_users = postgres"),
                         ("stats_users = pearlsite", "stats_users = postgres")):
            if old not in config:
                raise RuntimeError(f"docker/pgbouncer.ini has no {old!r}")
            config = config.replace(old, new)
        (folder / "pgbouncer.ini").write_text(config)
        if os.geteuid() == 0:
            for path in (folder, folder / "users.txt", folder / "pgbouncer.ini"):
                shutil.chown(path, "postgres", "postgres")
        return Part("pgbouncer", [*_as_postgres(), PGBOUNCER, *options, str(folder / "pgbouncer.ini")], dict(os.environ),
                    self.logs / "pgbouncer.log", self.ports["pgbouncer"])

    def start_pgbouncer(self) -> None:
        part = self._pgbouncer_part()
        part.start()
        self.parts["pgbouncer"] = part
        _wait(lambda: _accepts(part.port), 20, "pgbouncer")

    def restart_pgbouncer(self) -> float:
        """pgbouncer's online restart (`pgbouncer -R`): the new process takes the listening socket
        and every client and server connection over from the old one through its Unix socket, and
        the old one exits; no client sees its connection closed. Seconds until the old one is gone."""
        old, started = self.parts["pgbouncer"], time.monotonic()
        new = self._pgbouncer_part("-R")
        new.start()
        try:
            old.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise RuntimeError("pgbouncer -R did not take over: " + (self.logs / "pgbouncer.log").read_text()[-2000:])
        if not new.running:
            raise RuntimeError("the new pgbouncer exited: " + (self.logs / "pgbouncer.log").read_text()[-2000:])
        self.parts["pgbouncer"] = new
        return time.monotonic() - started

    def stop_pgbouncer(self) -> None:
        """A plain stop (SIGINT: PAUSE, let transactions in progress end, close every client)."""
        self.parts["pgbouncer"].stop(signal.SIGINT, seconds=30)

    def pgbouncer_pools(self) -> dict:
        """SHOW POOLS of the pearlsite database: client connections active and waiting, server
        connections active, idle and used."""
        with psycopg.connect(self.dsn("pgbouncer", "pgbouncer"), autocommit=True, prepare_threshold=None) as conn:
            cursor = conn.cursor()
            cursor.execute("SHOW POOLS")
            names = [c.name for c in cursor.description]
            for row in cursor.fetchall():
                pool = dict(zip(names, row))
                if pool["database"] == DB:
                    return pool
        return {}

    # --- the application --------------------------------------------------------------------
    def _app(self, name: str, command: list[str], port: int | None = None, **env: str) -> Part:
        part = Part(name, command, {**self.app_env, **env}, self.logs / f"{name}.log", port)
        self.parts[name] = part
        return part

    def _define_app(self) -> None:
        py = sys.executable
        for node in ("web1", "web2"):
            self._app(node, [py, "-m", "gunicorn", "-c", "docker/gunicorn.conf.py", "pearlsite.wsgi:application"],
                      self.ports[node], GUNICORN_BIND=f"127.0.0.1:{self.ports[node]}")
        self._app("stream", [py, "-m", "gunicorn", "-c", "docker/gunicorn-streams.conf.py",
                             "pearlsite.asgi:application"], self.ports["stream"],
                  GUNICORN_BIND=f"127.0.0.1:{self.ports['stream']}")
        for lane, queues in LANES.items():
            for number in (1, 2):
                self._app(f"{lane}{number}", [py, "-m", "celery", "-A", "pearlsite", "worker", "-Q", queues,
                                              "--hostname", f"{lane}{number}@%h", "--concurrency", "1",
                                              "--without-mingle", "--without-gossip", "--loglevel", "INFO"])
        self._app("beat", [py, "-m", "celery", "-A", "pearlsite", "beat", "--loglevel", "INFO",
                           "--schedule", str(self.dir / "var" / "celerybeat-schedule")])

    def nginx_conf(self) -> Path:
        """docker/nginx.conf with this machine's addresses and files."""
        folder = self.dir / "nginx"
        folder.mkdir(exist_ok=True)
        p = self.ports
        config = (ROOT / "docker" / "nginx.conf").read_text()
        for old, new in (("server web1:8000", f"server 127.0.0.1:{p['web1']}"),
                         ("server web2:8000", f"server 127.0.0.1:{p['web2']}"),
                         ("server stream:8001", f"server 127.0.0.1:{p['stream']}"),
                         ("listen 8080;", f"listen 127.0.0.1:{p['nginx']};"),
                         ("access_log /dev/stdout;", f"access_log {folder / 'access.log'};"),
                         ("error_log /dev/stderr warn;", f"error_log {folder / 'error.log'} warn;"),
                         ("include /etc/nginx/pearlsite_streaming.conf;",
                          f"include {ROOT / 'docker' / 'nginx-streaming.conf'};")):
            if old not in config:
                raise RuntimeError(f"docker/nginx.conf has no {old!r}")
            config = config.replace(old, new)
        config = f"pid {folder / 'nginx.pid'};\nworker_processes 1;\n" + config.replace("worker_processes auto;\n", "")
        # Connection counts at this layer (stub_status), on the loopback only.
        config = config.rstrip().removesuffix("}") + (
            f"    server {{ listen 127.0.0.1:{p['nginx'] + 10}; location = /nginx_status {{ stub_status; }} }}\n}}\n")
        (folder / "nginx.conf").write_text(config)
        return folder / "nginx.conf"

    def start_app(self, name: str) -> float:
        """Start (or start again) one part; seconds until it serves (web) or is ready (workers)."""
        part = self.parts[name]
        started = time.monotonic()
        part.start()
        if part.port:
            _wait(lambda: _accepts(part.port) or not part.running, 90, name)
            if not part.running:
                raise RuntimeError(f"{name} exited: " + part.log.read_text()[-3000:])
        elif name != "beat":
            size = part.log.stat().st_size if part.log.exists() else 0
            _wait(lambda: b" ready." in part.log.read_bytes()[size - 1 if size else 0:] or not part.running, 90, name)
        return time.monotonic() - started

    def start(self) -> None:
        started = time.monotonic()
        self.start_primary()
        self.start_replica()
        redis = Part("redis", ["redis-server", "--port", str(self.ports["redis"]), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--dir", str(self.dir)], dict(os.environ),
                     self.logs / "redis.log", self.ports["redis"])
        redis.start()
        self.parts["redis"] = redis
        self.start_pgbouncer()
        _wait(lambda: _accepts(redis.port), 20, "redis")
        # Migrations go to the primary itself (DDL and its locks are no pooled work).
        migrate_env = {**self.app_env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.ports['primary']}/{DB}"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=migrate_env,
                       check=True)
        self._define_app()
        for name in ("web1", "web2", "stream"):
            self.parts[name].start()
        for name in [n for n in self.parts if n[-1] in "12" and not n.startswith("web")] + ["beat"]:
            self.parts[name].start()
        for name in ("web1", "web2", "stream"):
            part = self.parts[name]
            _wait(lambda part=part: _accepts(part.port) or not part.running, 120, name)
            if not part.running:
                raise RuntimeError(f"{name} exited: " + part.log.read_text()[-3000:])
        nginx = Part("nginx", [NGINX, "-p", str(self.dir / "nginx"), "-c", str(self.nginx_conf()), "-e",
                               str(self.dir / "nginx" / "error.log"), "-g", "daemon off;"], dict(os.environ),
                     self.logs / "nginx.log", self.ports["nginx"])
        nginx.start()
        self.parts["nginx"] = nginx
        _wait(lambda: _accepts(nginx.port) or not nginx.running, 20, "nginx")
        for name, part in self.parts.items():
            if part.port is None and name != "beat":
                _wait(lambda part=part: b" ready." in part.log.read_bytes() or not part.running, 120, name)
            if not part.running:
                raise RuntimeError(f"{name} exited: " + part.log.read_text()[-3000:])
        self.started_in = time.monotonic() - started

    def stop(self) -> None:
        """nginx first (no new requests), then every application process at once (each finishes
        what it is doing), then pgbouncer, Redis, the replica and the primary."""
        signals = {"nginx": signal.SIGQUIT, "pgbouncer": signal.SIGINT}
        layers = [["nginx"], [n for n in self.parts if n not in ("nginx", "pgbouncer", "redis")],
                  ["pgbouncer", "redis"]]
        for layer in layers:
            parts = [self.parts[n] for n in layer if n in self.parts and self.parts[n].running]
            for part in parts:
                part.proc.send_signal(signals.get(part.name, signal.SIGTERM))
            deadline = time.monotonic() + 40
            for part in parts:
                try:
                    part.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    pass
                part.kill()                  # whatever is left of its process group
        self.stop_pg("replica")
        self.stop_pg("primary")

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- what each layer holds --------------------------------------------------------------
    def connection_counts(self) -> dict:
        counts = {}
        try:
            import urllib.request
            status = urllib.request.urlopen(f"http://127.0.0.1:{self.ports['nginx'] + 10}/nginx_status",
                                            timeout=3).read().decode()
            counts["nginx active"] = int(status.split("Active connections:")[1].split()[0])
        except OSError:
            counts["nginx active"] = None
        counts["nginx upstream"] = _established(self.ports["web1"]) + _established(self.ports["web2"]) \
            + _established(self.ports["stream"])
        try:
            pool = self.pgbouncer_pools()
            counts["pgbouncer clients"] = pool["cl_active"] + pool["cl_waiting"]
            counts["pgbouncer servers"] = pool["sv_active"] + pool["sv_idle"] + pool["sv_used"] + pool["sv_tested"] \
                + pool["sv_login"]
        except psycopg.Error:
            counts["pgbouncer clients"] = counts["pgbouncer servers"] = None
        for part in ("primary", "replica"):
            try:
                counts[f"{part} backends"] = self.sql(
                    part, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")[0][0] - 1
            except psycopg.Error:
                counts[f"{part} backends"] = None
        return counts


def _established(port: int) -> int:
    """Established TCP connections to a local listening port (`ss`)."""
    out = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"], check=False,
                         capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.strip()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["up"])
    parser.add_argument("--base-port", type=int, default=int(os.environ.get("CLUSTER_PORT", "19400")))
    parser.add_argument("--dir", type=Path, default=None, help="data folder (default: a new temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the data folder on the way out")
    args = parser.parse_args()
    cluster = Cluster(args.base_port, args.dir)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    # Ctrl-C stops the cluster even when a shell started this in the background (which ignores it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cluster.start()
        print(f"Pearlsite cluster up in {cluster.started_in:.1f} s: {cluster.url} (logs in {cluster.logs}); "
              "Ctrl-C stops it", flush=True)
        for name, port in cluster.ports.items():
            print(f"  {name:10} 127.0.0.1:{port}", flush=True)
        while not stopping:
            time.sleep(0.5)
            dead = [n for n, p in cluster.parts.items() if not p.running]
            if dead:
                print(f"stopped by itself: {', '.join(dead)} (see {cluster.logs})", flush=True)
                break
    except KeyboardInterrupt:
        pass
    finally:
        print("stopping the cluster", flush=True)
        cluster.stop()
        if not args.keep:
            cluster.remove()


if __name__ == "__main__":
    main()
