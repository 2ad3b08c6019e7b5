"""Each level's measured strength relative to `random`, as `python -m bench.levels --sprt
--strength ai_workers/engines/strength.json` wrote it (docs/engines.md §5.3): per game entry
(`slug`, or `slug:variant`) and level, the Elo relative to `random` (None: no game lost on the
way, unbounded above), its 95 % bounds, the games played and the SPRT decision, with the run that
produced it. Nobody types these figures in: the file is the bench's output."""
from __future__ import annotations

import functools
import json
from pathlib import Path

PATH = Path(__file__).with_name("strength.json")


@functools.cache
def _table() -> dict:
    return json.loads(PATH.read_text(encoding="utf-8")) if PATH.exists() else {"games": {}}


def measured(entry: str) -> dict | None:
    """{"levels": {level: {...}}, "run": {...}} of a game entry, or None if it was not measured."""
    return _table()["games"].get(entry)
