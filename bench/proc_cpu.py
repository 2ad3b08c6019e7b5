"""CPU time spent by the parts of a benchmark (web server, database, the benchmark's own client),
read from /proc: Linux only; elsewhere `snapshot` returns None and no figure is printed.

Two snapshots are compared process by process: a process that exits between them takes the CPU
it spent meanwhile with it (so measure phases whose processes live on: gunicorn's workers keep
their database connections), and one that exits is not counted at all."""
from __future__ import annotations

import os
from dataclasses import dataclass

_PROC = "/proc"


@dataclass(frozen=True)
class Spent:
    web: float            # seconds of CPU, user + system
    database: float
    client: float


@dataclass(frozen=True)
class Snapshot:
    web: dict[str, float]          # pid → CPU seconds so far
    database: dict[str, float]
    client: float

    def __sub__(self, earlier: Snapshot) -> Spent:
        def since(now: dict, then: dict) -> float:
            return sum(seconds - then.get(pid, 0.0) for pid, seconds in now.items())
        return Spent(since(self.web, earlier.web), since(self.database, earlier.database),
                     self.client - earlier.client)


def _stat(pid: str, ticks: int) -> tuple[str, int, float] | None:
    """(command name, process group, CPU seconds) of a process, or None if it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    # After the name: state, ppid, pgrp, ..., utime (14th field of the line) and stime (15th).
    return name, int(fields[2]), (int(fields[11]) + int(fields[12])) / ticks


def snapshot(server_group: int, database_name: str = "postgres") -> Snapshot | None:
    """CPU so far of every process in `server_group`, of every process called `database_name`,
    and of this process."""
    if not os.path.isdir(f"{_PROC}/self"):
        return None
    web, database = {}, {}
    ticks = os.sysconf("SC_CLK_TCK")          # the unit of /proc's CPU times
    for pid in filter(str.isdigit, os.listdir(_PROC)):
        stat = _stat(pid, ticks)
        if stat is None:
            continue
        name, group, seconds = stat
        if group == server_group:
            web[pid] = seconds
        elif name == database_name:
            database[pid] = seconds
    own = os.times()
    return Snapshot(web, database, own.user + own.system)
