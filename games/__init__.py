"""Pearlsite's rules library: pure, typed, standard-library only (design §2).

    import games
    g = games.get_game("hasami-shogi")
    s = g.new_state(players=2, seed=0, options={})
    s = s.play("e1-e5")

Every game module registers itself on import; `_GAME_MODULES` lists them.
"""
from importlib import import_module

from .core import (
    Game, GameError, GameOverError, IllegalMoveError, InvalidMoveError, InvalidOptionsError,
    InvalidStateError, NotYourTurnError, OptionSpec, Outcome, State, Termination, perft,
    random_playout, seeded_rng,
)
from .errors import UnknownGameError
from .registry import GAMES, get_game, register

_GAME_MODULES: tuple[str, ...] = (
    "glaisher",
    "hasami",
    "new_eleusis",
    "pearl",
    "ring_rugby",
)
for _name in _GAME_MODULES:
    import_module(f"{__name__}.{_name}")

__all__ = [
    "GAMES", "Game", "GameError", "GameOverError", "IllegalMoveError", "InvalidMoveError",
    "InvalidOptionsError", "InvalidStateError", "NotYourTurnError", "OptionSpec", "Outcome",
    "State", "Termination", "UnknownGameError", "get_game", "perft", "random_playout",
    "register", "seeded_rng",
]
