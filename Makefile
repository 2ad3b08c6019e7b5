# Pearlsite: `make run` serves on 127.0.0.1:8000 (PORT overrides) with a worker; `make test` runs
# the whole suite. Both install into .venv first. DATABASE_URL / REDIS_URL select PostgreSQL and
# Redis; without them: a SQLite file and a filesystem broker under ./var.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)

.PHONY: install run test chromium nginx gettext messages cluster-packages cluster test-cluster screenshots bench bench-moves bench-engines bench-perft bench-http bench-latency bench-levels bench-strength clean outdated bench-streams

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The Japanese catalogue (locale/ja/LC_MESSAGES/django.po) is compiled into its .mo at every install.
install: $(STAMP) gettext
	DJANGO_DEBUG=true $(PY) manage.py compilemessages --ignore=.venv --ignore=var -v 0

# GNU gettext's msgfmt (compilemessages) and xgettext (makemessages), from Debian when missing.
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || { apt-get update -qq && apt-get install -y -qq gettext; }

# Refresh the catalogue after marking new text: new entries arrive untranslated, and the tests fail
# until each has its Japanese (docs/i18n.md).
MAKEMESSAGES_IGNORE := --ignore=.venv --ignore=var --ignore=tests --ignore=bench --ignore=docs --ignore=examples --ignore=scripts --ignore=docker
messages: install
	DJANGO_DEBUG=true $(PY) manage.py makemessages -l ja --no-location $(MAKEMESSAGES_IGNORE)

# Local use runs with DEBUG on (development key, local host names); production sets DJANGO_*.
run bench-moves: export DJANGO_DEBUG ?= true
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py serve

test: install chromium nginx
	$(PY) -m pytest -q $(PYTEST_ARGS)

# The browser tests drive Debian's Chromium (Playwright's own browser downloads are not used).
# Piece labels are drawn as paths (games/glyphs.py); IPA Gothic draws the Japanese words of the
# rules pages in screenshots, and is installed whether or not Chromium already was.
CHROMIUM ?= /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && apt-get install -y -qq chromium; }
	@test -e /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf || { apt-get update -qq && apt-get install -y -qq fonts-ipafont-gothic; }

# The tests put docker/nginx.conf in front of gunicorn (tests/matches/test_served_by_gunicorn.py).
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { apt-get update -qq && apt-get install -y -qq nginx-light; }

# The topology of docs/scaling.md §7 on this machine (scripts/cluster.py): nginx, two web nodes, the
# streaming service, pgbouncer, a PostgreSQL primary and its streaming replica, Redis, two Celery
# worker nodes per lane and a beat, from Debian's packages (installed here when missing). Ctrl-C
# stops it all. CLUSTER_PORT (19400) is nginx's port; the others follow it (scripts/cluster.py).
PG_BINDIR = $(lastword $(sort $(wildcard /usr/lib/postgresql/*/bin)))
cluster-packages: nginx
	@{ test -x /usr/sbin/pgbouncer && test -n "$(PG_BINDIR)" && test -x "$(PG_BINDIR)/initdb" && command -v redis-server >/dev/null; } || \
	  { apt-get update -qq && apt-get install -y -qq pgbouncer postgresql redis-server; }
	@command -v ss >/dev/null || { apt-get update -qq && apt-get install -y -qq iproute2; }

cluster: install cluster-packages
	$(PY) scripts/cluster.py up $(if $(CLUSTER_PORT),--base-port $(CLUSTER_PORT),)

# The README walkthrough, a few hundred moves with engine replies and analyses, and five faults under
# that load, through nginx (tests/cluster/, about three minutes); prints the table of docs/scaling.md §7.
test-cluster: install cluster-packages
	PEARLSITE_CLUSTER_TEST=1 $(PY) -m pytest -q -s tests/cluster $(PYTEST_ARGS)

# PNGs of the lobby, a match page of every game (desktop, phone and dark), a clocked match, a rules
# page and a player page with its rating chart, and the lobby, a match and a rules page in
# Japanese (ja-*.png), in var/screenshots/.
screenshots: install chromium
	PEARLSITE_SCREENSHOTS=$(CURDIR)/var/screenshots $(PY) -m pytest -q tests/web/test_every_game_page.py tests/web/test_browser_japanese.py
	@ls var/screenshots

bench: bench-perft bench-playouts bench-moves bench-engines

bench-perft: install
	$(PY) -m bench.perft hasami-shogi --depth 3 --expect 63,3717,254219
	$(PY) -m bench.perft hasami-shogi --variant tenbin --depth 3 --expect 63,3645,246287

bench-playouts: install
	$(PY) -m bench.playouts --seconds 2

bench-moves: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py bench_moves

bench-engines: install
	$(PY) -m bench.engines

# The level table of docs/engines.md §5: 100 games per pairing, some hours on 2 cores.
bench-levels: install
	$(PY) -m bench.levels --json var/bench/levels.json --markdown var/bench/levels.md

# Each level's strength relative to random, adjacent levels until an SPRT decides: every game at
# 0.02 × the budgets, then five of them at the served budgets; Pearl Maze's walks at the served
# budgets with the solution files a deployment has (§5.3). The catalogue serves the file.
bench-strength: install
	$(PY) -m bench.levels hasami-shogi pearl-five ring-rugby mak-yek pearl-war dai-hasami-shogi \
		latrunculi pearl-survival glaisher pearl-yard --sprt --games 200 --max-plies 3000 \
		--scale 0.02 --strength ai_workers/engines/strength.json
	$(PY) -m bench.levels new-eleusis --sprt --games 200 --strength ai_workers/engines/strength.json
	$(PY) -m bench.levels glaisher pearl-yard pearl-survival pearl-five hasami-shogi --sprt --games 60 \
		--max-plies 3000 --scale 1 --strength ai_workers/engines/strength.json
	DJANGO_DEBUG=true $(PY) manage.py solve pearl-maze --cache
	DJANGO_DEBUG=true $(PY) manage.py solve pearl-maze --black outside --cache
	$(PY) -m bench.levels pearl-maze --puzzle-scale 1 --strength ai_workers/engines/strength.json

# BENCH_HTTP_SMOKE=1: a few seconds per phase, for CI.
# BENCH_BASELINE=<git ref>: that ref measured too, alternately, medians side by side (--baseline).
HTTP_SMOKE_ARGS := --clients 1,8 --seconds 2 --json var/bench/http-smoke.json
bench-http: install
	$(PY) -m bench.http_moves $(if $(BENCH_HTTP_SMOKE),$(HTTP_SMOKE_ARGS),) $(if $(BENCH_BASELINE),--baseline $(BENCH_BASELINE),)
bench-latency: install
	$(PY) -m bench.engine_latency

# The pins of requirements*.txt behind PyPI (name, pinned, latest), as pip sees them.
outdated: install
	@$(PY) scripts/outdated_pins.py requirements.txt requirements-dev.txt

clean:
	rm -rf $(VENV) var .pytest_cache

# Event streams: N streams held on the ASGI service beside the threaded gunicorn, a move's event
# latency at its subscribers, RSS and CPU (docs/scaling.md §6). BENCH_STREAMS_SMOKE=1: 200 streams on
# the ASGI service for a few seconds, for CI.
STREAMS_SMOKE_ARGS := --streams 200 --seconds 4 --servers asgi --json var/bench/streams-smoke.json
bench-streams: install
	$(PY) -m bench.streams $(if $(BENCH_STREAMS_SMOKE),$(STREAMS_SMOKE_ARGS),--json var/bench/streams.json)
