#!/usr/bin/env bash
# Runs the README's walkthrough (the ```bash block after "<!-- walkthrough -->") verbatim against
# a fresh `make run` on a spare port, with its own SQLite file and broker folder.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${WALKTHROUGH_PORT:-8765}"
export PEARLSITE_VAR_DIR
PEARLSITE_VAR_DIR="$(mktemp -d)"
script="$(awk '/<!-- walkthrough -->/{found=1; next} found && /^```bash/{inside=1; next} inside && /^```/{exit} inside' README.md)"
[ -n "$script" ] || { echo "no walkthrough block in README.md"; exit 1; }

make install                      # before the clock starts: a fresh machine installs for minutes
PORT="$PORT" make run > "$PEARLSITE_VAR_DIR/server.log" 2>&1 &
server=$!
cleanup() {
  local worker="celery -A pearlsite worker .*$PEARLSITE_VAR_DIR"
  pkill -TERM -P "$server" 2>/dev/null || true      # `serve` stops its worker on the way out
  for _ in $(seq 40); do pgrep -f "$worker" >/dev/null || break; sleep 1; done
  pkill -KILL -f "$worker" 2>/dev/null || true
  kill "$server" 2>/dev/null || true
  rm -rf "$PEARLSITE_VAR_DIR"
}
trap cleanup EXIT
for _ in $(seq 300); do
  curl -fs "http://127.0.0.1:$PORT/api/v1/games/" >/dev/null 2>&1 && break
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/api/docs/" >/dev/null || { cat "$PEARLSITE_VAR_DIR/server.log"; exit 1; }
export BASE="http://127.0.0.1:$PORT"
if ! bash -euo pipefail -c "$script" > "$PEARLSITE_VAR_DIR/walkthrough.out" 2>&1; then
  cat "$PEARLSITE_VAR_DIR/walkthrough.out"; tail -50 "$PEARLSITE_VAR_DIR/server.log"; exit 1
fi
cat "$PEARLSITE_VAR_DIR/walkthrough.out"
grep -q '^walkthrough ok$' "$PEARLSITE_VAR_DIR/walkthrough.out" || { echo "the walkthrough did not finish"; exit 1; }
