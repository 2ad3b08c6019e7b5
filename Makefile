# Pearlsite: `make run` serves on 127.0.0.1:8000 (PORT overrides) with a worker; `make test` runs
# the whole suite. Both install into .venv first. DATABASE_URL / REDIS_URL select PostgreSQL and
# Redis; without them: a SQLite file and a filesystem broker under ./var.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)

.PHONY: install run test bench bench-moves bench-engines bench-perft bench-http bench-latency clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# Local use runs with DEBUG on (development key, local host names); production sets DJANGO_*.
run: install
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(PY) manage.py serve

test: install
	$(PY) -m pytest -q $(PYTEST_ARGS)

bench: bench-perft bench-playouts bench-moves bench-engines

bench-perft: install
	$(PY) -m bench.perft hasami-shogi --depth 3 --expect 63,3717,254219
	$(PY) -m bench.perft hasami-shogi --variant tenbin --depth 3 --expect 63,3645,246287

bench-playouts: install
	$(PY) -m bench.playouts --seconds 2

bench-moves: install
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(PY) manage.py bench_moves

bench-engines: install
	$(PY) -m bench.engines

# BENCH_HTTP_SMOKE=1: a few seconds per phase, for CI.
bench-http: install
	$(PY) -m bench.http_moves $(if $(BENCH_HTTP_SMOKE),--clients 1,8 --seconds 2 --json var/bench/http-smoke.json,)
bench-latency: install
	$(PY) -m bench.engine_latency

clean:
	rm -rf $(VENV) var .pytest_cache
