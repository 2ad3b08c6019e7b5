"""Solution files: what a finished proof leaves for the engines (`manage.py solve --cache`).

A file is gzip-compressed JSON, written by the solver and never by hand:

    {"format": 1, "game": "pearl-maze", "options": {...}, "result": {...},
     "table": {"<position key>": [<best move>, <plies left>, ...], ...}}

Maze keys are the solver's integer key (`occ << 9 | black`) in hex; Yard keys are
`yard.node_key`. Files live in `solutions_dir()`; engines read every file of their game there
once per process (and again when a file changes).
"""
from __future__ import annotations

import gzip
import json
import os
from functools import lru_cache
from pathlib import Path

FORMAT = 1
SOLUTIONS_ENV = "PEARLSITE_SOLUTIONS"


def solutions_dir() -> Path:
    """$PEARLSITE_SOLUTIONS, else `solutions/` in the server's $PEARLSITE_VAR_DIR, else
    `var/solutions/` at the top of the project."""
    configured = os.environ.get(SOLUTIONS_ENV)
    if configured:
        return Path(configured)
    var = os.environ.get("PEARLSITE_VAR_DIR")
    return (Path(var) if var else Path(__file__).resolve().parents[3] / "var") / "solutions"


def maze_file(size: int, n: int, black: str, push_off: bool) -> str:
    return f"pearl-maze-{size}-n{n}-{black}{'-push-off' if push_off else ''}.json.gz"


def yard_file(size: int, first: str) -> str:
    return f"pearl-yard-{size}-{first}.json.gz"


def write(path: Path, game: str, options: dict, result: dict, table: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"format": FORMAT, "game": game, "options": options, "result": result, "table": table}
    with gzip.open(path, "wt", encoding="utf-8") as out:
        json.dump(body, out, separators=(",", ":"))
    return path


def read(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as src:
        body = json.load(src)
    if body.get("format") != FORMAT:
        raise ValueError(f"{path}: unknown solution format {body.get('format')!r}")
    return body


def files(game: str, directory: Path | None) -> tuple[tuple[str, float], ...]:
    folder = directory or solutions_dir()
    if not folder.is_dir():
        return ()
    return tuple((str(p), p.stat().st_mtime) for p in sorted(folder.glob(f"{game}-*.json.gz")))


def tables(game: str, directory: Path | None = None) -> list[dict]:
    """Every solution file of `game` (their bodies), re-read only when a file changed."""
    return load(files(game, directory))


@lru_cache(maxsize=8)
def load(files: tuple[tuple[str, float], ...]) -> list[dict]:
    return [read(Path(name)) for name, _mtime in files]
