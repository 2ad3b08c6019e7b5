"""What every Glass Pearl game's state and declaration have in common (docs/rules/pearl.md §8–9).

A game's state is a frozen dataclass with a `size` field and the fields `ply`, `outcome` and
`last`; the games whose seats alternate also have `turn`. `PearlState` gives it the lattice, the
seat to act, the legal-moves guard and the text diagram, and asks for two hooks: `_moves()`, the
legal moves of a game still going on, and `_symbol(p)`, one point of the diagram. A game whose
end checks are a method `_judge()` (→ Outcome or None) gets `_judged()`, the state they end.
`ColourState` adds what Five and War, whose positions are a black and a white bitboard, show
alike. `PearlGame` wraps a game's `_state_from_dict` in the family's error for junk.
"""
from __future__ import annotations

from abc import abstractmethod
from dataclasses import replace
from typing import Iterable, Mapping

from games import svg
from games.core import Game, InvalidStateError, State

from .board import BLACK_DISC, WHITE_DISC, Grid, bits, grid, text_diagram

BLACK, WHITE = 0, 1
SEAT_NAMES = ("black", "white")


class PearlState(State):
    """Scaffolding of a Glass Pearl state; see the module docstring for the hooks."""

    players = 2

    @property
    def grid(self) -> Grid:
        return grid(self.size)

    @property
    def current_player(self) -> int | None:
        return None if self.outcome is not None else self.turn

    def legal_moves(self) -> list:
        return [] if self.outcome is not None else self._moves()

    @abstractmethod
    def _moves(self) -> list:
        """Every legal move of the seat to act, the game going on, in a deterministic order."""

    @abstractmethod
    def _symbol(self, p: int) -> str:
        """Point p in the text diagram: a piece's letter or digit, `o` white, `.` empty."""

    def _judged(self):
        """This state, with the outcome of the game's `_judge()` if that ends the game."""
        outcome = self._judge()
        return self if outcome is None else self._evolve(outcome=outcome)

    # `_evolve(**changes)`: this state with the named fields changed. `replace` itself, bound
    # as a method, so Survival's turn hand-over (several per ply) pays no extra call.
    _evolve = replace

    def _outcome_dict(self) -> dict | None:
        return self.outcome.to_dict() if self.outcome else None

    def _board_rows(self) -> list[str]:
        """The text diagram without its line of column letters, for `view`."""
        return self.render_text().splitlines()[:-1]

    def render_text(self, seat: int | None = None) -> str:
        return text_diagram(self.grid, self._symbol)


class ColourState(PearlState):
    """A position as two bitboards, `black` and `white` (Five, War)."""

    def _symbol(self, p: int) -> str:
        if (self.black >> p) & 1:
            return "B"
        return "W" if (self.white >> p) & 1 else "."

    def _view(self, **extra) -> dict:
        """The view both colour games show, then the game's `extra` keys; the outcome last."""
        g = self.grid
        return {
            "size": self.size, "board": self._board_rows(),
            "black": g.point_list(self.black), "white": g.point_list(self.white),
            "counts": {"black": self.black.bit_count(), "white": self.white.bit_count()},
            "to_move": self.current_player, "ply": self.ply, "last_move": self.last,
            **extra, "outcome": self._outcome_dict(),
        }

    def _discs(self) -> dict[int, svg.Disc]:
        discs = {p: BLACK_DISC for p in bits(self.black)}
        discs.update({p: WHITE_DISC for p in bits(self.white)})
        return discs


def colour_masks(g: Grid, black: Iterable[str], white: Iterable[str]) -> tuple[int, int]:
    """A hand-set position's pearls by colour, as point names (§9) → (black, white) bitboards."""
    b, w = g.parse_mask(black), g.parse_mask(white)
    if b & w:
        raise InvalidStateError("a point holds both colours")
    return b, w


class PearlGame(Game):
    """A Glass Pearl game's declaration; `_state_from_dict` is the game's `state_from_dict`."""

    rules_page = "docs/rules/pearl.md"

    def state_from_dict(self, d: Mapping) -> State:
        try:
            return self._state_from_dict(d)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"bad {self.slug} state: {exc}") from exc

    @abstractmethod
    def _state_from_dict(self, d: Mapping) -> State:
        """Inverse of the state's `to_dict`; junk may raise KeyError, TypeError or ValueError."""
