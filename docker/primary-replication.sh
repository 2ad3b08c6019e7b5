#!/bin/sh
# Run once by the postgres image when it creates the primary: the replica may connect for
# replication (as the image's superuser, with its password).
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
