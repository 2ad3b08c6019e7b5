"""The game catalogue."""
from __future__ import annotations

import games
from ai_workers.engines import LEVELS
from matches.errors import ServiceError


def game_entry(rules: games.Game) -> dict:
    return {**rules.describe(), "ai_levels": list(LEVELS)}


def catalogue() -> list[dict]:
    return [game_entry(g) for _, g in sorted(games.GAMES.items())]


def game_detail(slug: str) -> dict:
    rules = games.GAMES.get(slug)
    if rules is None:
        raise ServiceError("game_not_found", f"no game {slug!r}")
    return game_entry(rules)
