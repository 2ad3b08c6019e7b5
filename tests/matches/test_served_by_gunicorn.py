"""The production server itself (gunicorn with docker/gunicorn.conf.py, threaded workers keeping
connections alive) answers HEAD without a body, so the next answer on the same connection is
intact, and reads chunked request bodies (up to the body limit); behind docker/nginx.conf the same,
and nginx refuses over-long request lines and headers in JSON before gunicorn's HTML page could.
Anonymous calls only: the server never touches the database here."""
from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serving(server: subprocess.Popen, port: int, name: str, seconds: float):
    """Yield `port` once `server` accepts connections on it; stop the server afterwards."""
    deadline = time.monotonic() + seconds
    try:
        while True:
            assert server.poll() is None, server.stderr.read()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"{name} did not start"
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gunicorn")
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pearlsite.settings_test", "GUNICORN_BIND": f"127.0.0.1:{port}",
           "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "2", "DATABASE_URL": f"sqlite:///{tmp / 'unused.sqlite3'}",
           "PEARLSITE_VAR_DIR": str(tmp / "var"), "CELERY_BROKER_URL": "filesystem://",
           "PEARLSITE_MAX_BODY_BYTES": "1024"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "docker/gunicorn.conf.py",
                               "pearlsite.wsgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    yield from _serving(server, port, "gunicorn", 60)


def test_head_then_get_on_one_kept_alive_connection(gunicorn):
    connection = http.client.HTTPConnection("127.0.0.1", gunicorn, timeout=10)
    connection.request("GET", "/api/v1/games/")
    got = connection.getresponse()
    body = got.read()
    connection.request("HEAD", "/api/v1/games/")
    head = connection.getresponse()
    assert head.status == 200 and head.read() == b""
    assert head.getheader("Content-Length") == str(len(body))
    connection.request("GET", "/api/v1/games/")        # the same connection: intact after the HEAD
    again = connection.getresponse()
    assert again.status == 200 and again.read() == body
    connection.close()


def _chunked_post(port: int, path: str, body: bytes) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", path, body=iter([body[:5], body[5:]]), encode_chunked=True,
                       headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    response = connection.getresponse()
    answer = response.status, json.loads(response.read())
    connection.close()
    return answer


def test_a_chunked_body_reaches_the_view(gunicorn):
    status, body = _chunked_post(gunicorn, "/api/v1/accounts/", b'{"username": "chunky", "password": ')
    assert (status, body["code"]) == (400, "parse_error")      # read and parsed, not taken as empty


def test_a_chunked_body_over_the_limit_is_413(gunicorn):
    status, body = _chunked_post(gunicorn, "/api/v1/accounts/", b'{"username": "' + b"x" * 5000 + b'"}')
    assert (status, body["code"]) == (413, "payload_too_large")


# --- behind docker/nginx.conf, as in docker/compose.yaml -------------------------------------

NGINX = "/usr/sbin/nginx"


@pytest.fixture(scope="module")
def nginx(gunicorn, tmp_path_factory):
    assert Path(NGINX).exists(), "nginx is missing: make nginx (apt-get install nginx-light)"
    tmp = tmp_path_factory.mktemp("nginx")
    port = _free_port()
    config = (ROOT / "docker" / "nginx.conf").read_text()
    config = config.replace("server web1:8000", f"server 127.0.0.1:{gunicorn}").replace(
        "server web2:8000", f"server 127.0.0.1:{gunicorn}").replace(
        "server stream:8001;", f"server 127.0.0.1:{gunicorn};").replace(
        "listen 8080;", f"listen 127.0.0.1:{port};").replace("client_max_body_size 64k;", "client_max_body_size 1k;")
    config = f"pid {tmp}/nginx.pid;\n" + config.replace(
        "access_log /dev/stdout;", f"access_log {tmp}/access.log;").replace(
        "error_log /dev/stderr warn;", f"error_log {tmp}/error.log warn;").replace(
        "include /etc/nginx/pearlsite_streaming.conf;", f"include {ROOT / 'docker' / 'nginx-streaming.conf'};")
    (tmp / "nginx.conf").write_text(config)
    server = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(tmp / "error.log"),
                               "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    yield from _serving(server, port, "nginx", 30)


def test_behind_nginx_head_then_get_on_one_connection(nginx):
    test_head_then_get_on_one_kept_alive_connection(nginx)


def test_behind_nginx_a_chunked_body_reaches_the_view(nginx):
    test_a_chunked_body_reaches_the_view(nginx)


def test_behind_nginx_a_chunked_body_over_the_limit_is_413_in_json(nginx):
    status, body = _chunked_post(nginx, "/api/v1/accounts/", b'{"username": "' + b"x" * 5000 + b'"}')
    assert (status, body["code"]) == (413, "payload_too_large")


def test_an_over_long_request_line_is_refused_in_json(nginx):
    connection = http.client.HTTPConnection("127.0.0.1", nginx, timeout=10)
    connection.request("GET", "/api/v1/players/?q=" + "x" * 6000)
    response = connection.getresponse()
    assert response.status == 414 and response.getheader("Content-Type") == "application/json"
    assert json.loads(response.read())["code"] == "request_line_too_long"
    connection.close()


def test_an_over_long_header_is_refused_in_json(nginx):
    connection = http.client.HTTPConnection("127.0.0.1", nginx, timeout=10)
    connection.request("GET", "/api/v1/games/", headers={"X-Padding": "x" * 6000})
    response = connection.getresponse()
    assert response.status == 431 and json.loads(response.read())["code"] == "header_too_large"
    connection.close()
