"""CPU time spent by the parts of a benchmark (web server, database, the benchmark's own client),
read from /proc: Linux only; elsewhere `snapshot` returns None and no figure is printed.

A process that exits between two snapshots takes its CPU time with it, so measure phases whose
processes live on (gunicorn's workers keep their database connections)."""
from __future__ import annotations

import os
from dataclasses import dataclass

_PROC = "/proc"


@dataclass(frozen=True)
class Snapshot:
    web: float            # seconds of CPU, user + system
    database: float
    client: float

    def __sub__(self, other: Snapshot) -> Snapshot:
        return Snapshot(self.web - other.web, self.database - other.database, self.client - other.client)


def _stat(pid: str) -> tuple[str, int, float] | None:
    """(command name, process group, CPU seconds) of a process, or None if it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    # After the name: state, ppid, pgrp, ..., utime (14th field of the line) and stime (15th).
    return name, int(fields[2]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def snapshot(server_group: int, database_name: str = "postgres") -> Snapshot | None:
    """CPU so far of every process in `server_group`, of every process called `database_name`,
    and of this process."""
    if not os.path.isdir(f"{_PROC}/self"):
        return None
    web = database = 0.0
    for pid in filter(str.isdigit, os.listdir(_PROC)):
        stat = _stat(pid)
        if stat is None:
            continue
        name, group, seconds = stat
        if group == server_group:
            web += seconds
        elif name == database_name:
            database += seconds
    own = os.times()
    return Snapshot(web, database, own.user + own.system)
