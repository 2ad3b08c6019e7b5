"""The `games` protocol: errors, outcomes, options, and the Game/State base classes.

Design §2: a game is declared as data (slug, seats, options, variants); a state is an immutable
value; moves are small values whose `str()` is their canonical notation. Everything here is pure
standard library: no I/O, no wall clock, no global random state.
"""
from __future__ import annotations

import functools
import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from .errors import (
    GameError, GameOverError, IllegalMoveError, InvalidMoveError, InvalidOptionsError,
    InvalidStateError, NotYourTurnError,
)
from .notation import GRAMMARS, Grammar
from .options import OptionSpec, options_schema


# ---------------------------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------------------------
class Termination(str, Enum):
    """Why a game ended. One shared vocabulary; each docs/rules/ page names the members it uses."""

    # Hasami family (docs/rules/hasami.md §3.3, §3.5)
    CAPTURE_GOAL = "capture_goal"
    LEAD = "lead"
    NO_MOVES = "no_moves"
    REPETITION = "repetition"
    NO_CAPTURE_LIMIT = "no_capture_limit"
    FIVE_IN_ROW = "five_in_row"
    TOO_FEW_MEN = "too_few_men"
    ALL_CAPTURED = "all_captured"
    # Glass Pearl Game (docs/rules/pearl.md §11)
    HOME = "home"
    MUTUAL_BLOCK = "mutual_block"
    MAX_PLIES = "max_plies"
    LINE = "line"
    BOTH_LINES = "both_lines"
    GOAL = "goal"
    MAX_STEPS = "max_steps"
    LAST_SURVIVOR = "last_survivor"
    CAUGHT = "caught"
    ESCAPE = "escape"
    # Glaisher (docs/rules/glaisher.md §3.3)
    CONNECTION = "connection"
    NO_SPLIT_MOVE = "no_split_move"
    # Ring Rugby (docs/rules/ring-rugby.md §4)
    GOAL_CLOSED = "goal_closed"
    # New Eleusis (docs/rules/eleusis.md §4)
    WENT_OUT = "went_out"
    ALL_EXPELLED = "all_expelled"
    GUESSED = "guessed"
    CARD_CAP = "card_cap"
    # Match-level endings decided outside the rules (the server's, never a game's)
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREEMENT = "agreement"
    ABORTED = "aborted"
    ADJUDICATED = "adjudicated"


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: winning seats, a score per seat, and why it ended."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    termination: Termination

    @classmethod
    def win(cls, winner: int, players: int, termination: Termination) -> "Outcome":
        return cls((winner,), tuple(1.0 if s == winner else 0.0 for s in range(players)), termination)

    @classmethod
    def draw(cls, players: int, termination: Termination) -> "Outcome":
        return cls((), tuple(0.5 for _ in range(players)), termination)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_dict(self) -> dict:
        return {"winners": list(self.winners), "scores": list(self.scores),
                "termination": self.termination.value}

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "Outcome | None":
        if d is None:
            return None
        try:
            return cls(tuple(int(w) for w in d["winners"]), tuple(float(s) for s in d["scores"]),
                       Termination(d["termination"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"bad outcome {d!r}: {exc}") from exc


# ---------------------------------------------------------------------------------------------
# Seeded randomness
# ---------------------------------------------------------------------------------------------
def seeded_rng(seed: int, *salt: object) -> Random:
    """A private Random derived from the match seed and a salt (round, shuffle index...).

    Stable across processes and Python versions (sha256, not hash()).
    """
    digest = hashlib.sha256(repr((int(seed),) + tuple(salt)).encode()).digest()
    return Random(int.from_bytes(digest[:16], "big"))


# ---------------------------------------------------------------------------------------------
# Game and State
# ---------------------------------------------------------------------------------------------
class State(ABC):
    """An immutable position. Subclasses are frozen dataclasses (hashable, comparable).

    Besides the abstract methods, a subclass provides these four as fields or properties (they are
    only annotated here, so a dataclass field of the same name works): `players` (seat count),
    `ply` (plies played), `current_player` (seat to act, None once over) and `outcome`
    (None while the game goes on).
    """

    game: ClassVar["Game"]
    players: int
    ply: int
    current_player: int | None
    outcome: Outcome | None

    @abstractmethod
    def legal_moves(self) -> list:
        """Every legal move for `current_player`, in a deterministic order; [] once over."""

    @abstractmethod
    def _parse(self, text: str):
        """Notation → Move, syntax only; InvalidMoveError for text that is never a move here."""

    @abstractmethod
    def apply(self, move) -> "State":
        """Trusted fast path (no validation): the state after `move`."""

    @abstractmethod
    def view(self, seat: int | None) -> dict:
        """JSON-able dict of what `seat` may see (None: a spectator)."""

    @abstractmethod
    def to_dict(self) -> dict:
        """The full truth, JSON-able, for storage and workers (never for clients)."""

    @abstractmethod
    def render_text(self, seat: int | None = None) -> str:
        """A small text diagram of what `seat` may see."""

    @abstractmethod
    def render_svg(self, seat: int | None = None) -> str:
        """An SVG picture of what `seat` may see."""

    # -- provided ------------------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def is_legal(self, move) -> bool:
        """Overridable fast test; by default a lookup in `legal_moves()`."""
        return move in self.legal_moves()

    def check_legal(self, move) -> None:
        """Raise IllegalMoveError (with a reason where the game gives one) unless `move` is legal."""
        if self.is_terminal:
            raise GameOverError(f"the game is over; {move} cannot be played")
        if not self.is_legal(move):
            reason = self.illegal_reason(move)
            raise IllegalMoveError(f"{move} is not legal here" + (f": {reason}" if reason else ""))

    def illegal_reason(self, move) -> str | None:
        """Optional hook: why `move` is illegal (None: no specific reason)."""
        return None

    def parse_notation(self, text: str):
        """Notation → Move, syntax only (no legality check): for reading recorded moves."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
        return self._parse(text)

    def parse_move(self, text: str):
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written as text, not {type(text).__name__}")
        move = self._parse(text)
        self.check_legal(move)
        return move

    def play(self, move, seat: int | None = None) -> "State":
        """Validated move: notation text or a Move value. `seat`, if given, must be on turn."""
        if seat is not None and not self.is_terminal and seat != self.current_player:
            raise NotYourTurnError(f"seat {seat} is not to move (seat {self.current_player} is)")
        if isinstance(move, str):
            move = self.parse_move(move)
        else:
            self.check_legal(move)
        return self.apply(move)

    def legal_notations(self) -> list[str]:
        return [str(m) for m in self.legal_moves()]


class TwoSeatTurns:
    """For two-seat states with a `to_move` field: the seat to move acts until there is an outcome."""

    players = 2

    @property
    def current_player(self) -> int | None:
        return None if self.outcome is not None else self.to_move


class Game(ABC):
    """A game declared as data. Subclasses set the class attributes and implement `_new_state`
    and `state_from_dict`; `options` and `variants` are exactly those of its docs/rules/ page."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    has_hidden_information: ClassVar[bool] = False
    #: Whether the players may agree a draw (False: every match is played out or resigned).
    draws_by_agreement: ClassVar[bool] = True
    #: Whether the first `players` plies are always by different seats (each seat's first turn
    #: comes before any seat's second), so after that many plies every seat has moved.
    seats_take_first_turns_in_order: ClassVar[bool] = True
    options: ClassVar[Mapping[str, OptionSpec]] = {}
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {"standard": {}}
    variant_aliases: ClassVar[Mapping[str, str]] = {}
    secret_options: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    rules_page: ClassVar[str] = ""

    @abstractmethod
    def _new_state(self, players: int, seed: int, options: dict) -> State:
        """The start position for validated arguments."""

    @abstractmethod
    def state_from_dict(self, d: Mapping) -> State:
        """Inverse of `State.to_dict` (InvalidStateError for junk)."""

    # -- provided ------------------------------------------------------------------------------
    def normalize_options(self, options: Mapping | None = None, variant: str | None = None) -> dict:
        """Defaults, then the variant's settings, then `options`; every value validated strictly
        (InvalidOptionsError with `detail.option` naming the first bad one)."""
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptionsError("options must be an object of name: value")
        merged: dict[str, Any] = {name: spec.default for name, spec in self.options.items()}
        if variant is not None:
            merged.update(self.variants[self.variant_name(variant)])
        for name, value in (options or {}).items():
            if name not in self.options:
                raise InvalidOptionsError(f"unknown option {name!r} for {self.slug}; choose from "
                                          f"{sorted(self.options)}", option=str(name))
            merged[name] = value
        return {name: self.options[name].validate(name, value) for name, value in merged.items()}

    def variant_name(self, variant: str) -> str:
        """The named variant `variant` stands for (an alias gives its target)."""
        name = self.variant_aliases.get(variant, variant) if isinstance(variant, str) else variant
        if name not in self.variants:
            raise InvalidOptionsError(
                f"unknown variant {variant!r} for {self.slug}; choose from "
                f"{sorted([*self.variants, *self.variant_aliases])}", detail={"variant": str(variant)})
        return name

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.min_players
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.min_players <= players <= self.max_players):
            raise InvalidOptionsError(
                f"{self.slug} is for {self.seats_text()} players, not {players!r}")
        return players

    def seats_text(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def new_state(self, players: int | None = None, seed: int = 0,
                  options: Mapping | None = None, variant: str | None = None) -> State:
        return self._new_state(self.check_players(players), int(seed),
                               self.normalize_options(options, variant))

    def replay(self, players: int | None = None, seed: int = 0, options: Mapping | None = None,
               moves: Iterable = (), variant: str | None = None) -> State:
        state = self.new_state(players=players, seed=seed, options=options, variant=variant)
        for i, move in enumerate(moves):
            try:
                state = state.play(move)
            except GameError as exc:
                raise type(exc)(f"move {i + 1} ({move}): {exc}") from exc
        return state

    def public_notation(self, move, state: State) -> str:
        """How `move` is shown in histories and exports while `state` is displayed (§2 secrets)."""
        return str(move)

    def public_options(self, options: Mapping) -> dict:
        return {k: v for k, v in options.items() if k not in self.secret_options}

    def variant_of(self, options: Mapping) -> str:
        """The named variant closest to `options` (a full, normalised option set): the one that
        differs in the fewest options, the earlier-declared on a tie, so "standard" for the
        defaults. Every payload, record and event names variants this one way."""
        def distance(name: str) -> int:
            settings = self.variant_settings[name]
            return sum(1 for key, value in settings.items() if options.get(key, value) != value)
        return min(self.variants, key=distance)

    def public_variant(self, options: Mapping) -> str:
        """`variant_of` as anyone may be shown it: secret options (a custom Eleusis rule) count as
        their defaults, so the name never reveals that one was set."""
        defaults = {name: self.options[name].default for name in self.secret_options}
        return self.variant_of({**options, **defaults})

    @functools.cached_property
    def variant_settings(self) -> dict[str, dict]:
        """Each named variant's full option set."""
        return {name: self.normalize_options(None, name) for name in self.variants}

    @property
    def grammar(self) -> Grammar | None:
        """How this game's moves are written (games/notation.py)."""
        return GRAMMARS.get(self.slug)

    def describe(self) -> dict:
        """The catalogue entry (JSON-able)."""
        return {
            "slug": self.slug, "title": self.title,
            "min_players": self.min_players, "max_players": self.max_players,
            "has_hidden_information": self.has_hidden_information,
            "options": {name: spec.describe() for name, spec in self.options.items()},
            "options_schema": options_schema(self.title, self.options),
            "variants": {name: dict(v) for name, v in self.variants.items()},
            "variant_aliases": dict(self.variant_aliases),
            "notation": self.grammar.describe() if self.grammar else None,
            "summary": self.summary, "rules_page": self.rules_page,
        }

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"


# ---------------------------------------------------------------------------------------------
# Tools shared by every game
# ---------------------------------------------------------------------------------------------
def perft(state: State, depth: int) -> int:
    """Leaf positions at exactly `depth` plies (a finished game contributes nothing below it)."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)


def random_playout(state: State, rng: Random, max_plies: int | None = None) -> State:
    """Random legal moves until the game ends (or `max_plies` more plies were played)."""
    played = 0
    while not state.is_terminal and (max_plies is None or played < max_plies):
        state = state.apply(rng.choice(state.legal_moves()))
        played += 1
    return state


def notation_list(moves: Sequence) -> list[str]:
    return [str(m) for m in moves]
