"""Move values shared by several Glass Pearl games and their notation (docs/rules/pearl.md §8)."""
from __future__ import annotations

from dataclasses import dataclass

from games.core import InvalidMoveError

from .board import DELTA, DIR_LETTERS, parse_point, point_name


@dataclass(frozen=True)
class Place:
    """A pearl put on an empty board point: Five's ply 1, Survival's set-up (§8)."""

    x: int
    y: int

    def __str__(self) -> str:
        return point_name(self.x, self.y)


@dataclass(frozen=True)
class PushIn:
    """Five's push-in (p, d), written `<p><D>` (§8): the new pearl ends on p."""

    x: int
    y: int
    d: int

    def __str__(self) -> str:
        return point_name(self.x, self.y) + DIR_LETTERS[self.d]


@dataclass(frozen=True)
class Slide:
    """A slide-push (X, d, k) written `<from>-<to>` (§8): the pusher's start and end points."""

    x: int
    y: int
    d: int
    k: int

    @property
    def to(self) -> tuple[int, int]:
        dx, dy = DELTA[self.d]
        return self.x + dx * self.k, self.y + dy * self.k

    def __str__(self) -> str:
        return f"{point_name(self.x, self.y)}-{point_name(*self.to)}"


@dataclass(frozen=True)
class Pass:
    """The forced pass of §2.6."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


def parse_slide(text: str, n: int) -> Slide:
    """`<from>-<to>` on an N×N board; InvalidMoveError for malformed, zero or bent slides."""
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise InvalidMoveError(f"{text!r} is not a slide <from>-<to>")
    (x0, y0), (x1, y1) = parse_point(parts[0], n), parse_point(parts[1], n)
    if (x0, y0) == (x1, y1):
        raise InvalidMoveError(f"{text!r} is a zero-length slide")
    if x0 != x1 and y0 != y1:
        raise InvalidMoveError(f"{text!r}: from and to are not on one line")
    k = abs(x1 - x0) + abs(y1 - y0)
    step = ((x1 - x0) // k, (y1 - y0) // k)
    return Slide(x0, y0, DELTA.index(step), k)


def parse_place(text: str, n: int) -> Place:
    """A point name on an N×N board; InvalidMoveError for an empty or bad name."""
    if not text.strip():
        raise InvalidMoveError("an empty move")
    return Place(*parse_point(text, n))


def is_pass(text: str) -> bool:
    return text.strip().lower() == "pass"
