# pgbouncer from Debian's package (the same one `make cluster` installs), with docker/pgbouncer.ini.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends pgbouncer \
 && rm -rf /var/lib/apt/lists/*
COPY docker/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini
USER postgres
EXPOSE 6432
CMD ["pgbouncer", "/etc/pgbouncer/pgbouncer.ini"]
