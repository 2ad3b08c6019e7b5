#!/usr/bin/env bash
# Restore a dump made by scripts/backup.sh into a new, empty database (docs/operations.md §Backups).
#
#   scripts/restore.sh DUMP postgres://user@host:5432/NEW_DATABASE
#
# The database is created here and must not exist yet: a restore never writes over a live one.
# Point the site at it (DATABASE_URL) once this finishes, then run `manage.py migrate` (a no-op
# unless the code is newer than the dump).
set -euo pipefail

dump="${1:?usage: restore.sh DUMP postgres://user@host:port/NEW_DATABASE}"
target="${2:?usage: restore.sh DUMP postgres://user@host:port/NEW_DATABASE}"
case "$target" in
  postgres://*|postgresql://*) ;;
  *) echo "restore.sh: the target must be a postgres:// URL" >&2; exit 2 ;;
esac
test -r "$dump" || { echo "restore.sh: cannot read $dump" >&2; exit 2; }

# The server's URL without the database name (and its query), to create the database from.
base="${target%%\?*}"
database="${base##*/}"
server="${base%/*}/postgres"
if ! [[ "$database" =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]]; then
  echo "restore.sh: '$database' is not a plain database name" >&2; exit 2
fi
psql --dbname="$server" --quiet --set=ON_ERROR_STOP=1 --command="CREATE DATABASE \"$database\""
pg_restore --exit-on-error --no-owner --no-privileges --jobs=2 --dbname="$target" "$dump"
echo "restored $dump into $database"
