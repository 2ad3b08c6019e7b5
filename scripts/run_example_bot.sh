#!/usr/bin/env bash
# Runs examples/bot.py for one whole game against an engine seat (ai:random) on a fresh `make run`
# with the embedded defaults (its own SQLite file and file broker in a temporary folder), on port
# 8766 (EXAMPLE_BOT_PORT overrides; EXAMPLE_BOT_GAME picks the game, default pearl-yard).
# Exits non-zero if the server does not come up or the game does not finish.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${EXAMPLE_BOT_PORT:-8766}"
GAME="${EXAMPLE_BOT_GAME:-pearl-yard}"
unset DATABASE_URL REDIS_URL CELERY_BROKER_URL     # the embedded defaults: SQLite and a file broker
export PEARLSITE_VAR_DIR
PEARLSITE_VAR_DIR="$(mktemp -d)"

# The server and its worker get their own process group, so they can be stopped together by id.
PORT="$PORT" setsid make run > "$PEARLSITE_VAR_DIR/server.log" 2>&1 &
server=$!
cleanup() {
  kill -TERM -- "-$server" 2>/dev/null || true          # warm shutdown of the server and worker
  for _ in $(seq 40); do kill -0 -- "-$server" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$server" 2>/dev/null || true
  rm -rf "$PEARLSITE_VAR_DIR"
}
trap cleanup EXIT

BASE="http://127.0.0.1:$PORT"
for _ in $(seq 120); do
  curl -fs "$BASE/api/v1/games/" >/dev/null 2>&1 && break
  sleep 1
done
curl -fs "$BASE/api/v1/games/" >/dev/null || { echo "the server did not start"; cat "$PEARLSITE_VAR_DIR/server.log"; exit 1; }

if ! .venv/bin/python examples/bot.py --base "$BASE" --username example-bot --password correct-horse-battery \
    --challenge "$GAME" --opponent ai:random --until-finished --interval 0.5 --timeout 300 --seed 1; then
  echo "the example bot's game did not finish"; tail -50 "$PEARLSITE_VAR_DIR/server.log"; exit 1
fi
echo "example bot ok"
