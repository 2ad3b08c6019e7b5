"""The catalogue of games: `GAMES` maps slug → Game instance."""
from __future__ import annotations

from .core import Game
from .errors import UnknownGameError

GAMES: dict[str, Game] = {}


def register(game_cls: type[Game]) -> type[Game]:
    """Class decorator: instantiate the game once and list it under its slug."""
    game = game_cls()
    if game.slug in GAMES:
        raise ValueError(f"game slug {game.slug!r} registered twice")
    GAMES[game.slug] = game
    game_cls.instance = game
    return game_cls


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {slug!r}; choose from {sorted(GAMES)}") from None
