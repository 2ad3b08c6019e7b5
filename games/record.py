"""Text game records: tag pairs, then one numbered move per line.

    [Game "hasami-shogi"]
    [Variant "standard"]
    [Options "{\"capture_goal\": 5, ...}"]
    [Players "2"]
    [Seed "42"]
    [Result "1-0"]

    1. e1-e5
    2. a9-a8

One move per line because some notations contain spaces (`ring c2`, `e8:5+1/W @e8`).
`replay_record(text)` rebuilds the final state when the record carries the seed (games with
hidden information never export it: the seed would reveal the deal).
"""
from __future__ import annotations

import json
import re
from typing import Mapping, Sequence

from .core import GameError, State
from .registry import get_game

_TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*) "(?P<value>(?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(?P<ply>\d+)\.\s+(?P<move>\S.*)$")


class RecordError(GameError):
    code = "invalid_record"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_record(tags: Mapping[str, object], moves: Sequence[str]) -> str:
    lines = [f'[{name} "{_quote(str(value))}"]' for name, value in tags.items()]
    lines.append("")
    lines.extend(f"{ply}. {move}" for ply, move in enumerate(moves, start=1))
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> tuple[dict[str, str], list[str]]:
    tags: dict[str, str] = {}
    moves: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        tag, move = _TAG.match(line), _MOVE.match(line)
        if tag and not moves:
            tags[tag["name"]] = _unquote(tag["value"])
        elif move and int(move["ply"]) == len(moves) + 1:
            moves.append(move["move"].strip())
        else:
            raise RecordError(f"line {number} is neither a tag nor move {len(moves) + 1}: {line!r}")
    return tags, moves


def replay_record(text: str) -> State:
    tags, moves = parse_record(text)
    try:
        game = get_game(tags["Game"])
        options = json.loads(tags.get("Options", "{}"))
        players = int(tags.get("Players", game.min_players))
        seed = int(tags["Seed"])
    except KeyError as exc:
        raise RecordError(f"the record has no {exc.args[0]} tag") from None
    except ValueError as exc:
        raise RecordError(f"bad tag value: {exc}") from None
    return game.replay(players=players, seed=seed, options=options, moves=moves)
