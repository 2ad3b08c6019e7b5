#!/bin/sh
# The read replica (docker/compose.yaml): on its first start, a base backup of the primary with
# replication settings written (`pg_basebackup -R`); then PostgreSQL in standby, streaming from it.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h db -U "$PGUSER" -q; do sleep 1; done
  pg_basebackup -h db -U "$PGUSER" -D "$PGDATA" -R -X stream -c fast
  chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on
