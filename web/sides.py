"""Who plays what, in each game's own terms: a seat's side (its colour or role), the swatch its
pieces are drawn in, and whether the board is turned for it (a seat whose men start at the top of
the picture sees the board rotated to have them at the bottom).
Pure data keyed by game slug, read by the match page."""
from __future__ import annotations

from typing import NamedTuple


class Side(NamedTuple):
    name: str          # "Black", "Police", ...
    pieces: str        # how the pieces read on the board
    swatch: str        # the fill the board draws them in
    outline: str = "#222"


_BLACK, _WHITE = "#222222", "#fafafa"
_HASAMI = (Side("Black", "dark pieces (歩)", _BLACK), Side("White", "light pieces (と)", _WHITE))
_PLAIN_MEN = (Side("Black", "dark pieces", _BLACK), Side("White", "light pieces", _WHITE))
_PEARLS = (Side("Black", "black pearls", "#202020"), Side("White", "white pearls", "#f8f8f4"))

SIDES: dict[str, tuple[Side, ...]] = {
    "hasami-shogi": _HASAMI,
    "dai-hasami-shogi": _HASAMI,
    "latrunculi": _PLAIN_MEN,
    "mak-yek": _PLAIN_MEN,
    "pearl-five": _PEARLS,
    "pearl-war": _PEARLS,
    "ring-rugby": (Side("Black", "black pieces", _BLACK), Side("White", "white pieces", _WHITE)),
    "glaisher": (Side("Red", "red stacks", "#c0392b"), Side("Yellow", "yellow stacks", "#f1c40f")),
    "pearl-yard": (Side("Police", "the blue P piece", "#2a4fb0"), Side("Thief", "the red T piece", "#b03a2a")),
    "pearl-maze": (Side("Solver", "the black pearl", "#202020"),),
    "pearl-survival": tuple(Side(name, f"the {name.lower()} pearl marked {i}", colour)
                            for i, (name, colour) in enumerate(
                                (("Black", "#202020"), ("Red", "#b03a2a"), ("Blue", "#2a4fb0"), ("Green", "#2a8a3a")))),
}

# The seat whose men start at the top of each game's picture (Pearl War's black pearls start in
# the upper corner); boards not listed look the same from every side.
STARTS_AT_TOP = {"hasami-shogi": 1, "dai-hasami-shogi": 1, "latrunculi": 1, "mak-yek": 1, "ring-rugby": 1,
                 "pearl-war": 0}


def side_of(game: str, seat: int) -> Side | None:
    sides = SIDES.get(game, ())
    return sides[seat] if seat < len(sides) else None


def turned(game: str, seat: int | None) -> bool:
    """Is the board drawn rotated half a turn for this viewer by default?"""
    return seat is not None and STARTS_AT_TOP.get(game) == seat
