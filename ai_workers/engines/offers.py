"""How an engine seat answers a draw offer: at once, from a quick search of the position.

It accepts when the game is past its opening and the search finds the position level enough
(its value for the engine's seat within `LEVEL_MARGIN` of 0); otherwise it plays on. Two-seat
perfect-information games only: elsewhere the value of one seat says too little (or rests on a
guess at hidden cards), and engines decline. Engines never agree to take moves back."""
from __future__ import annotations

from random import Random

from games import State

from .base import Limit
from .table import get_engine

OPENING_PLIES_PER_SEAT = 10
LEVEL_MARGIN = 0.15
# A quick look: a node budget keeps the answer reproducible; the time cap keeps it quick.
QUICK_LOOK = Limit(nodes=3000, seconds=0.5)


def accepts_draw(state: State, seat: int, *, game: str, level: str, ply: int, seats: int,
                 hidden_information: bool, rng: Random, time_scale: float = 1.0) -> bool:
    """Does the engine holding `seat` agree to a draw in `state` (reached after `ply` moves)?"""
    if hidden_information or seats != 2 or state.is_terminal:
        return False
    if ply < OPENING_PLIES_PER_SEAT * seats:
        return False
    engine = get_engine(game, "easy" if level == "random" else level)   # random has no judgement
    result = engine.search(state, limit=QUICK_LOOK.scaled(time_scale), rng=rng)
    value = result.value if state.current_player == seat else -result.value
    return abs(value) <= LEVEL_MARGIN


def accepts_takeback() -> bool:
    return False
