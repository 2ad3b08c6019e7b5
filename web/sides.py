"""Who plays what, in each game's own terms: a seat's side (its colour or role), the swatch its
pieces are drawn in, and whether the board is turned for it (a seat whose men start at the top of
the picture sees the board rotated to have them at the bottom).
Pure data keyed by game slug, read by the match page; the names are marked for translation and
`side_of` gives them in the page's language."""
from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext, gettext_noop


class Side(NamedTuple):
    name: str          # "Black", "Police", ...
    pieces: str        # how the pieces read on the board
    swatch: str        # the fill the board draws them in
    outline: str = "#222"


_BLACK, _WHITE = "#222222", "#fafafa"
_HASAMI = (Side(gettext_noop("Black"), gettext_noop("dark pieces (歩)"), _BLACK), Side(gettext_noop("White"), gettext_noop("light pieces (と)"), _WHITE))
_PLAIN_MEN = (Side(gettext_noop("Black"), gettext_noop("dark pieces"), _BLACK), Side(gettext_noop("White"), gettext_noop("light pieces"), _WHITE))
_PEARLS = (Side(gettext_noop("Black"), gettext_noop("black pearls"), "#202020"), Side(gettext_noop("White"), gettext_noop("white pearls"), "#f8f8f4"))

SIDES: dict[str, tuple[Side, ...]] = {
    "hasami-shogi": _HASAMI,
    "dai-hasami-shogi": _HASAMI,
    "latrunculi": _PLAIN_MEN,
    "mak-yek": _PLAIN_MEN,
    "pearl-five": _PEARLS,
    "pearl-war": _PEARLS,
    "ring-rugby": (Side(gettext_noop("Black"), gettext_noop("black pieces"), _BLACK), Side(gettext_noop("White"), gettext_noop("white pieces"), _WHITE)),
    "glaisher": (Side(gettext_noop("Red"), gettext_noop("red stacks"), "#c0392b"), Side(gettext_noop("Yellow"), gettext_noop("yellow stacks"), "#f1c40f")),
    "pearl-yard": (Side(gettext_noop("Police"), gettext_noop("the blue P piece"), "#2a4fb0"),
                   Side(gettext_noop("Thief"), gettext_noop("the red T piece"), "#b03a2a")),
    "pearl-maze": (Side(gettext_noop("Solver"), gettext_noop("the black pearl"), "#202020"),),
    "pearl-survival": (Side(gettext_noop("Black"), gettext_noop("the black pearl marked 0"), "#202020"),
                       Side(gettext_noop("Red"), gettext_noop("the red pearl marked 1"), "#b03a2a"),
                       Side(gettext_noop("Blue"), gettext_noop("the blue pearl marked 2"), "#2a4fb0"),
                       Side(gettext_noop("Green"), gettext_noop("the green pearl marked 3"), "#2a8a3a")),
}

# The seat whose men start at the top of each game's picture (Pearl War's black pearls start in
# the upper corner); boards not listed look the same from every side.
STARTS_AT_TOP = {"hasami-shogi": 1, "dai-hasami-shogi": 1, "latrunculi": 1, "mak-yek": 1, "ring-rugby": 1,
                 "pearl-war": 0}


def side_of(game: str, seat: int) -> Side | None:
    sides = SIDES.get(game, ())
    if seat >= len(sides):
        return None
    side = sides[seat]
    return side._replace(name=gettext(side.name), pieces=gettext(side.pieces))


def turned(game: str, seat: int | None) -> bool:
    """Is the board drawn rotated half a turn for this viewer by default?"""
    return seat is not None and STARTS_AT_TOP.get(game) == seat
