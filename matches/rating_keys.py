"""Which rating a result counts towards, and which system rates it (docs/ratings.md). Pure.

A rating key is a game plus its *rated variant*: a variant that changes the rules of play (how
pieces move or capture, what a turn is) is rated on its own; one that changes only the start
position, the board size or a length limit is the same game and shares its rating. A match counts
towards a rated variant when its options have the rules that make that variant (below), whatever
else they change.
"""
from __future__ import annotations

from typing import Mapping, NamedTuple

import games

from .glicko import PROVISIONAL_DEVIATION as GLICKO_PROVISIONAL
from .weng_lin import PROVISIONAL_DEVIATION as WENG_LIN_PROVISIONAL

# game → rated variant → the option values that make it that variant
RATED_VARIANTS: dict[str, dict[str, dict]] = {
    "hasami-shogi": {"tenbin": {"tenbin": True}},         # the mover's own intervention captures
    "ring-rugby": {"basic": {"advanced": False}},         # no revival, big move or goal closure
    "glaisher": {"advanced": {"setup": "free"}},          # players place their own stacks first
    "new-eleusis": {"express": {"express": True}},        # 12 cards, single plays and guesses
}

GLICKO2, WENG_LIN = "glicko2", "weng-lin"
# Above this deviation a rating is provisional (left off the leaderboards).
PROVISIONAL_DEVIATION = {GLICKO2: GLICKO_PROVISIONAL, WENG_LIN: WENG_LIN_PROVISIONAL}


class RatingKey(NamedTuple):
    game: str
    variant: str = ""        # empty: the game itself

    def __str__(self) -> str:
        return f"{self.game}/{self.variant}" if self.variant else self.game


def key_for(game: str, options: Mapping) -> RatingKey:
    """The key a match of `game` with `options` (normalised) is rated under."""
    rules = games.get_game(game)
    for name, rules_of in RATED_VARIANTS.get(rules.slug, {}).items():
        if all(options.get(option) == value for option, value in rules_of.items()):
            return RatingKey(rules.slug, name)
    return RatingKey(rules.slug)


def key_named(game: str, variant: str | None) -> RatingKey:
    """The key for a game and a variant name as a client writes it (None or a variant that is
    not rated on its own: the game's key). Unknown games raise UnknownGameError, unknown
    variants InvalidOptionsError."""
    rules = games.get_game(game)
    if variant:
        rules.normalize_options({}, variant)     # checks that the variant exists
        if variant in RATED_VARIANTS.get(rules.slug, ()):
            return RatingKey(rules.slug, variant)
    return RatingKey(rules.slug)


def system_for(game: str) -> str:
    """Glicko-2 for two-seat games; Weng–Lin (Plackett–Luce) for every game that seats more, for
    all its matches (so one player has one rating per key, on one scale)."""
    return GLICKO2 if games.get_game(game).max_players <= 2 else WENG_LIN


def is_provisional(system: str, deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION[system]


def rated_keys(game: str) -> list[RatingKey]:
    rules = games.get_game(game)
    return [RatingKey(rules.slug)] + [RatingKey(rules.slug, v) for v in RATED_VARIANTS.get(rules.slug, ())]
