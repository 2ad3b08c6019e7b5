#!/usr/bin/env bash
# A PostgreSQL backup of the site's database, keeping the newest N (docs/operations.md §Backups).
#
#   DATABASE_URL=postgres://user@host:5432/pearlsite scripts/backup.sh [FOLDER]
#
# FOLDER (default $PEARLSITE_BACKUP_DIR, else ./var/backups) receives pearlsite-<UTC time>.dump in
# pg_dump's custom format (compressed; pg_restore restores it whole or in part). A dump is written
# under a temporary name and renamed once pg_restore can read its table of contents, so a dump cut
# short never counts as a backup and never pushes a good one out. Then all but the newest
# $PEARLSITE_BACKUP_KEEP (default 14) dumps in the folder are deleted. Prints the new dump's path.
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL to the postgres:// URL of the database to back up}"
case "$DATABASE_URL" in
  postgres://*|postgresql://*) ;;
  *) echo "backup.sh: DATABASE_URL must be a postgres:// URL" >&2; exit 2 ;;
esac
folder="${1:-${PEARLSITE_BACKUP_DIR:-var/backups}}"
keep="${PEARLSITE_BACKUP_KEEP:-14}"
if ! [[ "$keep" =~ ^[1-9][0-9]*$ ]]; then
  echo "backup.sh: PEARLSITE_BACKUP_KEEP must be a whole number of at least 1, not '$keep'" >&2; exit 2
fi

mkdir -p "$folder"
name="pearlsite-$(date -u +%Y%m%dT%H%M%SZ).dump"
partial="$folder/.$name.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --dbname="$DATABASE_URL" --file="$partial"
pg_restore --list "$partial" >/dev/null
mv "$partial" "$folder/$name"

# The names sort by time: everything before the newest $keep goes.
find "$folder" -maxdepth 1 -name 'pearlsite-*.dump' -printf '%f\n' | sort -r | tail -n +"$((keep + 1))" |
  while read -r old; do rm -f -- "$folder/$old"; done
echo "$folder/$name"
