"""The errors the rules library reports: one `GameError` family, each with a stable `code`.

Messages name the offending input; `detail` carries it for machines (`{"option": "capture_goal"}`).
"""
from __future__ import annotations

from typing import Any


class GameError(ValueError):
    """Base of every rule violation the library reports. Messages name the offending input."""

    code = "game_error"

    def __init__(self, message: str = "", *, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.detail = dict(detail or {})


class UnknownGameError(GameError):
    code = "unknown_game"


class InvalidOptionsError(GameError):
    """An unknown option or variant, or a value the option does not admit (`detail.option`)."""

    code = "invalid_options"

    def __init__(self, message: str = "", *, option: str | None = None,
                 detail: dict[str, Any] | None = None) -> None:
        super().__init__(message, detail={**({"option": option} if option else {}), **(detail or {})})
        self.option = option


class InvalidMoveError(GameError):
    """The text is not a move of this game at all (syntax, unknown squares)."""

    code = "invalid_move"


class IllegalMoveError(GameError):
    """A well-formed move that is not legal in this position."""

    code = "illegal_move"


class GameOverError(GameError):
    code = "game_over"


class NotYourTurnError(GameError):
    code = "not_your_turn"


class InvalidStateError(GameError):
    code = "invalid_state"
