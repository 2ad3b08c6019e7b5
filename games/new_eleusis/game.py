"""New Eleusis, the game: deal, turns, judging, the Prophet, sudden death, scoring, rounds.

Rule book: rules/eleusis.md (§2 set-up and visibility, §3 turns, §4 scoring, §5 options, §6
notation). The rule language itself lives in `rulelang.py`; this module only asks a compiled
rule for its verdict mask (`Rule.mask(prev, prev2, n)`), so judging a card is a bit test.

Phases (rules/eleusis.md §3): `commit` (player God fixes the rule), `turn` (a scientist plays),
`call` (the Prophet calls a play, or a free-text God judges it), `review` (a free-text God reviews
a Prophet's call), `over`. With an expression rule the server judges and reviews at once.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Mapping

from ..core import (
    Game, IllegalMoveError, InvalidMoveError, InvalidOptionsError, InvalidStateError,
    OptionSpec, Outcome, State, Termination, seeded_rng,
)
from .cards import card_text, kinds_mask, parse_card
from .rulelang import RuleError, check_expression, compile_rule, parse_guess

HAND = 14                      # rules/eleusis.md §2 round set-up (1)
EXPRESS_HAND = 12              # §5 Express
THRESHOLDS = {"seed": (30, 20), "classic": (40, 30)}      # §3.4 (T1, T2)
CARD_CAP = 200                 # §5 Express safeguard [R]
MAX_STRING = 4                 # §3.1 strings of 2-4 cards
STARTER, SET_UP = -1, -2       # `main_by` tags besides a seat number
GOD_PLACED = -10               # God-placed from seat s's wrong No Play: GOD_PLACED - s
PROPHET, PROPHET_IF_RIGHT = "prophet", "prophet if right"


# ---------------------------------------------------------------------------------------------
# Rules, cached by text: compiling builds verdict tables once per process (rules/eleusis.md §8)
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def _compiled(text: str):
    return compile_rule(text)


@lru_cache(maxsize=512)
def _guess(text: str, lookback: int):
    """A checked Express guess; it is compared with the rule context by context, and only when
    a right card brings it to judgment."""
    return parse_guess(text, lookback)


@lru_cache(maxsize=4096)
def _guess_syntax(text: str) -> tuple[str, int]:
    """(canonical text, lookback) of a guess: validation steps 1-2 only, cheap (§5)."""
    return check_expression(text)


def _rule_option(value: Any) -> str | None:
    """`rule` option (§5): null, rule text or a JSON AST; stored as canonical text."""
    if value is None:
        return None
    if isinstance(value, str) and not value.strip():
        raise ValueError("an empty rule; give rule text, a JSON AST or null")
    if isinstance(value, Mapping):
        return compile_rule(dict(value)).canonical
    if not isinstance(value, str):
        raise ValueError(f"a rule is text or a JSON AST, not {type(value).__name__}")
    return _compiled(value).canonical


def commitment_hash(nonce: str, rule_move: str) -> str:
    """sha256(nonce + "\\n" + rule_move), lowercase hex (rules/eleusis.md §3.7)."""
    return hashlib.sha256((nonce + "\n" + rule_move).encode("utf-8")).hexdigest()


def round_nonce(seed: int, round_no: int) -> str:
    """32 lowercase hex digits drawn from the match seed (§3.7)."""
    return format(seeded_rng(seed, round_no, "nonce").getrandbits(128), "032x")


def _cards(kinds) -> str:
    return " ".join(card_text(k) for k in kinds)


# ---------------------------------------------------------------------------------------------
# Moves (notation: rules/eleusis.md §6)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """`play 5H` or a string `play 5H 6S 7D`; `declare` is "", "prophet" or "prophet if right";
    `guess` is a canonical Express guess expression or ""."""

    cards: tuple[int, ...]
    declare: str = ""
    guess: str = ""

    def __str__(self) -> str:
        text = "play " + _cards(self.cards)
        if self.declare:
            text += "; " + self.declare
        if self.guess:
            text += "; guess " + self.guess
        return text


@dataclass(frozen=True)
class NoPlay:
    def __str__(self) -> str:
        return "noplay"


@dataclass(frozen=True)
class Judge:
    """A call by the Prophet, or a free-text God's judgment; `card` names the right card of a
    wrong No Play (-1: none)."""

    right: bool
    card: int = -1

    def __str__(self) -> str:
        if self.right:
            return "judge right"
        return "judge wrong" + (f" {card_text(self.card)}" if self.card >= 0 else "")


@dataclass(frozen=True)
class Review:
    """God's review of a Prophet's call under a free-text rule; `card` for a wrong No Play."""

    approve: bool
    card: int = -1

    def __str__(self) -> str:
        if self.approve:
            return "approve"
        return "disapprove" + (f" {card_text(self.card)}" if self.card >= 0 else "")


@dataclass(frozen=True)
class CommitRule:
    """`rule <expr>`: a player God's expression rule, canonical text."""

    expr: str

    def __str__(self) -> str:
        return "rule " + self.expr


@dataclass(frozen=True)
class CommitText:
    """`rule text <L> "<text>"`: a free-text rule with its lookback (not in Express)."""

    lookback: int
    text: str

    def __str__(self) -> str:
        return f"rule text {self.lookback} " + json.dumps(self.text, ensure_ascii=False)


NOPLAY = NoPlay()
_SINGLES = tuple(tuple(Play((k,), d) for d in ("", PROPHET, PROPHET_IF_RIGHT)) for k in range(52))
_TEXT_RULE = re.compile(r"rule text ([0-9]+) (\".*\")", re.S)


def _parse_card_move(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise InvalidMoveError(str(exc)) from None


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EleusisState(State):
    """One moment of a New Eleusis match (rules/eleusis.md §8: everything, secrets included).

    Layout: `mainline` kinds with `main_by` (the seat that played each card, STARTER, or
    GOD_PLACED - seat for a card God placed from that seat's wrong No Play); `sidelines` and
    `noplays` are (mainline index they hang under, seat, cards). `marker` is () or
    (0, mainline index) / (1, sideline group index). `pending` is () or (seat, play notation,
    call notation or ""). `records` hold finished rounds as (round, god, rule_move, lookback,
    nonce, commitment, commitment_ok, scores, god_score, final hands, termination, prophet);
    `log` holds one public entry per ply: (round, seat, public notation, result).
    For test positions see `with_position`.
    """

    players: int
    seed: int
    god_mode: str
    rule_option: str | None
    sudden: str
    rounds: int | str
    express: bool
    round: int
    ply: int
    phase: str
    god: int
    rule_move: str
    lookback: int
    nonce: str
    commitment: str
    stock: tuple[int, ...]
    decks: int
    shuffles: int
    hands: tuple[tuple[int, ...], ...]
    mainline: tuple[int, ...]
    main_by: tuple[int, ...]
    sidelines: tuple[tuple[int, int, tuple[int, ...]], ...]
    noplays: tuple[tuple[int, int, tuple[int, ...]], ...]
    played: int
    side_played: int
    turn: int
    prophet: int
    marker: tuple[int, ...]
    at_marker: int
    side_at_marker: int
    former_prophets: frozenset
    overthrown: frozenset
    expelled: frozenset
    pending: tuple
    totals: tuple[int, ...]
    records: tuple
    log: tuple
    outcome: Outcome | None
    rule: Any = field(default=None, compare=False, repr=False)

    # -- derived --------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        phase = self.phase
        if phase == "turn":
            return self.turn
        if phase == "call":
            return self.prophet if self.prophet >= 0 else self.god
        if phase in ("commit", "review"):
            return self.god
        return None

    @property
    def scientists(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s != self.god)

    @property
    def thresholds(self) -> tuple[int, int]:
        return THRESHOLDS[self.sudden]

    @property
    def in_sudden_death(self) -> bool:
        """§3.4: judged before a play; never in Express."""
        if self.express:
            return False
        t1, t2 = THRESHOLDS[self.sudden]
        if self.prophet >= 0:
            return self.played - self.at_marker >= t2
        return self.played >= t1

    def _evolve(self, **changes) -> "EleusisState":
        new = object.__new__(EleusisState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def verdict_mask(self, extra: tuple[int, ...] = ()) -> int:
        """Kinds the expression rule accepts next, after the mainline plus `extra` (§3.1)."""
        main = self.mainline + extra
        prev2 = main[-2] if len(main) > 1 else None
        return self.rule.mask(main[-1], prev2, len(main) + 1)

    def is_right(self, cards: tuple[int, ...]) -> bool:
        """Truth of a play under the expression rule: each card judged as if the earlier ones had
        been accepted (§3.1)."""
        rule, main = self.rule, self.mainline
        prev = main[-1]
        prev2 = main[-2] if len(main) > 1 else None
        n = len(main) + 1
        for k in cards:
            if not (rule.mask(prev, prev2, n) >> k) & 1:
                return False
            prev2, prev, n = prev, k, n + 1
        return True

    def right_cards(self, hand: tuple[int, ...]) -> int:
        """Mask of the kinds in `hand` that are right now (No Play truth, §3.2)."""
        return self.verdict_mask() & kinds_mask(hand)

    def can_declare(self, seat: int) -> bool:
        """Whether a Prophet declaration by `seat` could take effect (§3.3)."""
        if self.express or seat in self.former_prophets:
            return False
        others = sum(1 for s in self.scientists if s != seat and s not in self.expelled)
        return others >= 2

    # -- moves ----------------------------------------------------------------------------------
    def legal_moves(self) -> list:
        phase = self.phase
        if phase == "turn":
            hand = self.hands[self.turn]
            kinds = sorted(set(hand))
            if self.can_declare(self.turn):
                moves = [m for k in kinds for m in _SINGLES[k]]
            else:
                moves = [_SINGLES[k][0] for k in kinds]
            moves.append(NOPLAY)
            return moves
        if phase == "call":
            return self._call_forms()
        if phase == "review":
            return self._review_forms()
        if phase == "commit":
            return [CommitRule(r.canonical) for r in bank_rules()]
        return []

    def _pending_play(self):
        return self.game.parse_pending(self.pending[1])

    def _shown_kinds(self) -> list[int]:
        return sorted(set(self.hands[self.pending[0]]))

    def _call_forms(self) -> list:
        if isinstance(self._pending_play(), NoPlay):
            return [Judge(True)] + [Judge(False, k) for k in self._shown_kinds()]
        return [Judge(True), Judge(False)]

    def _review_forms(self) -> list:
        if not isinstance(self._pending_play(), NoPlay):
            return [Review(True), Review(False)]
        call = self.game.parse_pending(self.pending[2])
        named = [Review(False, k) for k in self._shown_kinds() if k != call.card]
        return [Review(True)] + ([] if call.right else [Review(False)]) + named

    def string_moves(self, max_len: int = MAX_STRING) -> list:
        """Strings of 2..max_len cards from the hand on turn, in order, without suffixes (§8:
        legal but not listed by `legal_moves`). Empty outside a standard turn."""
        if self.phase != "turn" or self.express:
            return []
        counts: dict[int, int] = {}
        for k in self.hands[self.turn]:
            counts[k] = counts.get(k, 0) + 1
        out: list = []

        def extend(prefix: tuple[int, ...]) -> None:
            if len(prefix) >= 2:
                out.append(Play(prefix))
            if len(prefix) == min(max_len, MAX_STRING):
                return
            for k in sorted(counts):
                if counts[k]:
                    counts[k] -= 1
                    extend(prefix + (k,))
                    counts[k] += 1

        extend(())
        return out

    def is_legal(self, move) -> bool:
        return self.illegal_reason(move) is None

    def illegal_reason(self, move) -> str | None:
        phase = self.phase
        if phase == "over":
            return "the game is over"
        if phase == "turn":
            return self._play_problem(move)
        if phase in ("call", "review"):
            forms = self._call_forms() if phase == "call" else self._review_forms()
            if move in forms:
                return None
            if isinstance(move, Judge) and not move.right and move.card < 0:
                return "name a right card from the shown hand of a No Play"
            due = "a call" if phase == "call" else "a review"
            return f"{due} is due: {', '.join(map(str, forms))}"
        if isinstance(move, CommitRule):
            return None
        if isinstance(move, CommitText):
            if self.express:
                return "Express needs an expression rule"
            if move.lookback not in (1, 2):
                return "a free-text rule states a lookback of 1 or 2"
            return None
        return "God must first fix the rule (rule <expr> or rule text <L> \"<text>\")"

    def _play_problem(self, move) -> str | None:
        if isinstance(move, NoPlay):
            return None
        if not isinstance(move, Play):
            return "it is a scientist's turn: play or noplay"
        hand = self.hands[self.turn]
        for k in set(move.cards):
            if move.cards.count(k) > hand.count(k):
                return f"{card_text(k)} is not in the hand (enough times)"
        if self.express:
            if len(move.cards) > 1:
                return "Express allows one card per turn"
            if move.declare:
                return "Express has no Prophet"
            if move.guess and _guess_syntax(move.guess)[1] > self.lookback:
                return f"the guess looks further back than the rule (L={self.lookback})"
        elif move.guess:
            return "guesses belong to Express"
        return None

    def _parse(self, text: str):
        return self.game.parse_notation(text, self)

    # -- applying -------------------------------------------------------------------------------
    def apply(self, move) -> "EleusisState":
        phase = self.phase
        seat = self.current_player
        f = dict(self.__dict__)
        f["ply"] = self.ply + 1
        entry = [self.round, seat, str(move), []]
        if phase == "commit":
            _commit(self, f, move)
            entry[2] = "rule committed " + f["commitment"]
        elif phase == "turn":
            if isinstance(move, NoPlay):             # the hand is shown to all (§2.2)
                entry[3].append("shown " + (_cards(self.hands[seat]) or "nothing"))
            if self.prophet >= 0 or self.rule is None:
                f["phase"], f["pending"] = "call", (seat, str(move), "")
            else:
                _settle(self, f, seat, move, self._truth_for(seat, move), True, entry[3])
        elif phase == "call":
            self._apply_call(f, move, entry[3])
        else:
            self._apply_review(f, move, entry[3])
        f["log"] = self.log + ((entry[0], entry[1], entry[2], "; ".join(entry[3])),)
        new = object.__new__(EleusisState)
        new.__dict__.update(f)
        return new

    def _apply_call(self, f: dict, call: Judge, notes: list) -> None:
        seat, play_text, _ = self.pending
        play = self.game.parse_pending(play_text)
        f["pending"], f["phase"] = (), "turn"
        if self.prophet < 0:                         # a free-text God judges (§3 table)
            _settle(self, f, seat, play, (call.right, call.card), True, notes)
        elif self.rule is None:                      # a free-text God reviews the call
            f["phase"], f["pending"] = "review", (seat, play_text, str(call))
        else:                                        # the server reviews at once (§3.3)
            right, card = self._truth_for(seat, play)
            if isinstance(play, NoPlay) and not right:   # the named card must be right too
                true_call = not call.right and bool((self.verdict_mask() >> call.card) & 1)
            else:
                true_call = call.right == right
            if true_call:
                placed = call.card if isinstance(play, NoPlay) and not right else -1
                _settle(self, f, seat, play, (right, placed), True, notes)
            else:
                _overthrow(self, f, notes)
                _settle(self, f, seat, play, (right, card), False, notes)

    def _truth_for(self, seat: int, play) -> tuple[bool, int]:
        """(right, card God places for a wrong No Play: the machine pick, §3.2 [R])."""
        if isinstance(play, NoPlay):
            mask = self.right_cards(self.hands[seat])
            return (True, -1) if not mask else (False, (mask & -mask).bit_length() - 1)
        return self.is_right(play.cards), -1

    def _apply_review(self, f: dict, review: Review, notes: list) -> None:
        seat, play_text, call_text = self.pending
        play, call = self.game.parse_pending(play_text), self.game.parse_pending(call_text)
        f["pending"], f["phase"] = (), "turn"
        if review.approve:
            _settle(self, f, seat, play, (call.right, call.card), True, notes)
            return
        _overthrow(self, f, notes)
        if isinstance(play, NoPlay):
            verdict = (review.card < 0, review.card)
        else:
            verdict = (not call.right, -1)
        _settle(self, f, seat, play, verdict, False, notes)

    # -- test positions -------------------------------------------------------------------------
    def with_position(self, *, hands: Mapping[int, Any] | None = None, mainline=None,
                      played: int | None = None, prophet: int | None = None,
                      at_marker: int | None = None, turn: int | None = None,
                      expelled=(), stock=None, side_played: int | None = None,
                      side_at_marker: int | None = None) -> "EleusisState":
        """A copy set up for tests and analysis: `hands` {seat: "2S 3D" or kinds}, `mainline`
        (cards; the first L are the starters), `played` (and `side_played`, the sideline part),
        a sitting `prophet` with its `at_marker` (and `side_at_marker`), the seat on `turn`,
        `expelled` seats and the `stock` (top last)."""
        def kinds(cards) -> tuple[int, ...]:
            if isinstance(cards, str):
                cards = cards.split()
            return tuple(parse_card(c) if isinstance(c, str) else int(c) for c in cards)

        f: dict[str, Any] = {}
        if hands is not None:
            new = list(self.hands)
            for seat, cards in hands.items():
                new[seat] = tuple(sorted(kinds(cards)))
            f["hands"] = tuple(new)
        if mainline is not None:
            main = kinds(mainline)
            f["mainline"] = main
            f["main_by"] = tuple(STARTER if i < self.lookback else SET_UP for i in range(len(main)))
        if played is not None:
            f["played"] = played
        if side_played is not None:
            f["side_played"] = side_played
        if prophet is not None:
            f["prophet"] = prophet
            f["former_prophets"] = self.former_prophets | {prophet}
            f["at_marker"] = f.get("played", self.played) if at_marker is None else at_marker
            f["side_at_marker"] = (f.get("side_played", self.side_played) if side_at_marker is None
                                   else side_at_marker)
        if turn is not None:
            f["turn"] = turn
        if expelled:
            f["expelled"] = frozenset(expelled)
        if stock is not None:
            f["stock"] = kinds(stock)
        return self._evolve(**f)

    # -- serialisation --------------------------------------------------------------------------
    def to_dict(self) -> dict:
        out = {}
        for fl in fields(self):
            if fl.name == "rule":
                continue
            out[fl.name] = _jsonify(getattr(self, fl.name))
        return out

    # -- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """What `seat` may see (rules/eleusis.md §2.2); None = a spectator."""
        return self.game.build_view(self, seat)

    def render_text(self, seat: int | None = None) -> str:
        return self.game.text_diagram(self, seat)

    def render_svg(self, seat: int | None = None) -> str:
        return self.game.svg_diagram(self, seat)


# ---------------------------------------------------------------------------------------------
# Settling plays (rules/eleusis.md §3.1-§3.5, §4)
# ---------------------------------------------------------------------------------------------
def _draw(state: EleusisState, f: dict, k: int) -> tuple[int, ...]:
    """Draw k cards: refill below k, take from the top (the end), refill at <= 4 (§2 [C][R])."""
    stock = f["stock"]
    while len(stock) < k:
        stock = _add_deck(state, f, stock)
    taken = stock[len(stock) - k:] if k else ()
    stock = stock[:len(stock) - k]
    while len(stock) <= 4:
        stock = _add_deck(state, f, stock)
    f["stock"] = stock
    return taken


def _add_deck(state: EleusisState, f: dict, stock: tuple[int, ...]) -> tuple[int, ...]:
    cards = list(stock) + list(range(52))
    seeded_rng(state.seed, f["round"], f["shuffles"]).shuffle(cards)
    f["shuffles"] += 1
    f["decks"] += 1
    return tuple(cards)


def _set_hand(f: dict, seat: int, hand) -> None:
    hands = list(f["hands"])
    hands[seat] = tuple(sorted(hand))
    f["hands"] = tuple(hands)


def _without(hand: tuple[int, ...], cards) -> list[int]:
    rest = list(hand)
    for k in cards:
        rest.remove(k)
    return rest


def _sudden(f: dict, state: EleusisState) -> bool:
    if state.express:
        return False
    t1, t2 = THRESHOLDS[state.sudden]
    if f["prophet"] >= 0:
        return f["played"] - f["at_marker"] >= t2
    return f["played"] >= t1


def _overthrow(state: EleusisState, f: dict, notes: list) -> None:
    """§3.3 disapprove: the Prophet takes the hand back and draws 5."""
    p = f["prophet"]
    _set_hand(f, p, f["hands"][p] + _draw(state, f, 5))
    f["prophet"], f["marker"], f["at_marker"], f["side_at_marker"] = -1, (), 0, 0
    f["overthrown"] = f["overthrown"] | {p}
    notes.append(f"Prophet {p} overthrown")


def _settle(state: EleusisState, f: dict, seat: int, move, verdict: tuple[bool, int],
            penalty: bool, notes: list) -> None:
    """Settle `move` by `seat` with `verdict` (right, card to place for a wrong No Play);
    `penalty` False is the overthrow amnesty. Then declaration, round end, next turn."""
    right, card = verdict
    sudden = penalty and _sudden(f, state)
    went_out = False
    if isinstance(move, NoPlay):
        went_out = _settle_noplay(state, f, seat, right, card, penalty, sudden, notes)
    else:
        went_out = _settle_cards(state, f, seat, move.cards, right, penalty, sudden, notes)
    if went_out:
        notes.append("went out")
        _end_round(state, f, Termination.WENT_OUT, seat, notes)
        return
    if isinstance(move, Play):
        # Express [R]: a right card that empties the hand went out above (+4 once); otherwise a
        # guess rides on a right card only (§5)
        if state.express and right and move.guess:
            guess = _guess(move.guess, state.lookback)
            if state.rule.equivalent(guess):
                notes.append("guess correct")
                _end_round(state, f, Termination.GUESSED, seat, notes)
                return
            notes.append("guess wrong")
        # Declarations ride on the play [R] and are judged once it has settled (§3.3, §9)
        if move.declare and (right or move.declare == PROPHET):
            _declare(state, f, seat, right, notes)
    _after_settle(state, f, seat, notes)


def _settle_cards(state, f, seat, cards, right, penalty, sudden, notes) -> bool:
    hand = _without(f["hands"][seat], cards)
    f["played"] += len(cards)
    if right:
        f["mainline"] = f["mainline"] + tuple(cards)
        f["main_by"] = f["main_by"] + (seat,) * len(cards)
        _set_hand(f, seat, hand)
        notes.append("right")
        return not hand
    f["sidelines"] = f["sidelines"] + ((len(f["mainline"]) - 1, seat, tuple(cards)),)
    f["side_played"] += len(cards)
    if not penalty:
        notes.append("wrong, no penalty")
    elif sudden:
        f["expelled"] = f["expelled"] | {seat}
        notes.append("wrong, expelled")
    else:
        draw = 1 if state.express else 2 * len(cards)
        hand += _draw(state, f, draw)
        notes.append(f"wrong, drew {draw}")
    _set_hand(f, seat, hand)
    return False


def _settle_noplay(state, f, seat, right, card, penalty, sudden, notes) -> bool:
    hand = f["hands"][seat]
    if right:                                      # §3.2 correct: a smaller new hand
        f["noplays"] = f["noplays"] + ((len(f["mainline"]) - 1, seat, hand),)
        size = max(0, len(hand) - (1 if state.express else 4))
        _set_hand(f, seat, _draw(state, f, size))
        notes.append(f"no play correct, new hand of {size}")
        return size == 0
    if sudden:                                     # §3.4 [R]: expelled, nothing placed
        f["expelled"] = f["expelled"] | {seat}
        notes.append("no play wrong, expelled")
        return False
    rest = _without(hand, (card,))
    f["mainline"] = f["mainline"] + (card,)
    f["main_by"] = f["main_by"] + (GOD_PLACED - seat,)
    f["played"] += 1
    note = f"no play wrong, God placed {card_text(card)}"
    if penalty:
        draw = 1 if state.express else 5
        rest += _draw(state, f, draw)
        note += f", drew {draw}"
    _set_hand(f, seat, rest)
    notes.append(note)
    return False


def _declare(state, f, seat, right, notes) -> None:
    """§3.3 declaring: no Prophet in office, never Prophet this round, not expelled, and at
    least 2 other scientists not expelled."""
    others = sum(1 for s in state.scientists if s != seat and s not in f["expelled"])
    if (f["prophet"] >= 0 or seat in f["former_prophets"] or seat in f["expelled"]
            or others < 2 or state.express):
        notes.append("declaration ignored")
        return
    f["prophet"] = seat
    f["former_prophets"] = f["former_prophets"] | {seat}
    f["marker"] = (0, len(f["mainline"]) - 1) if right else (1, len(f["sidelines"]) - 1)
    f["at_marker"], f["side_at_marker"] = f["played"], f["side_played"]
    notes.append("became Prophet")


def _after_settle(state, f, seat, notes) -> None:
    """Round-end tests (§4, §5 card cap), then the turn passes clockwise (§3.5)."""
    prophet, expelled = f["prophet"], f["expelled"]
    active = [s for s in state.scientists if s != prophet and s not in expelled]
    if not active:
        _end_round(state, f, Termination.ALL_EXPELLED, -1, notes)
        return
    if state.express and f["played"] >= CARD_CAP:
        _end_round(state, f, Termination.CARD_CAP, -1, notes)
        return
    f["phase"] = "turn"
    for i in range(1, state.players + 1):
        s = (seat + i) % state.players
        if s in active:
            f["turn"] = s
            return


def round_scores(state, f: Mapping, out_seat: int) -> tuple[list[int], int]:
    """Per-seat scores of a finished round and God's score (rules/eleusis.md §4)."""
    god, hands, scientists = f["god"], f["hands"], state.scientists
    high = EXPRESS_HAND if state.express else max(len(hands[s]) for s in scientists)
    scores = [0] * state.players
    for s in scientists:
        scores[s] = high - len(hands[s]) + (4 if s == out_seat else 0)
    prophet = f["prophet"]
    if prophet >= 0:                               # Prophet bonus: 1 mainline, 2 sideline
        scores[prophet] += (f["played"] - f["at_marker"]) + (f["side_played"] - f["side_at_marker"])
    best = max(scores[s] for s in scientists)
    # at_marker counts mainline and sideline cards up to the marker card, no starters [R]
    god_score = min(best, 2 * f["at_marker"]) if prophet >= 0 else best
    if god >= 0:
        scores[god] = god_score
    return scores, god_score


def _end_round(state, f, termination: Termination, out_seat: int, notes: list) -> None:
    scores, god_score = round_scores(state, f, out_seat)
    record = (f["round"], f["god"], f["rule_move"], f["lookback"], f["nonce"], f["commitment"],
              commitment_hash(f["nonce"], f["rule_move"]) == f["commitment"], tuple(scores),
              god_score, f["hands"], termination.value, f["prophet"])
    f["records"] = f["records"] + (record,)
    f["totals"] = tuple(t + s for t, s in zip(f["totals"], scores))
    notes.append(f"round {f['round']} over ({termination.value})")
    total_rounds = state.players if state.rounds == "all" else 1
    if f["round"] < total_rounds:
        f.update(_round_fields(state.game, state, f["round"] + 1))
        return
    top = max(f["totals"])
    f["phase"], f["pending"] = "over", ()
    f["outcome"] = Outcome(tuple(s for s, t in enumerate(f["totals"]) if t == top),
                           tuple(float(t) for t in f["totals"]), termination)


def _commit(state: EleusisState, f: dict, move) -> None:
    """Fix the rule, publish its commitment, turn up the starters, find the first player."""
    if isinstance(move, CommitRule):
        rule = _compiled(move.expr)
        f["rule"], f["lookback"] = rule, rule.lookback
    else:
        f["rule"], f["lookback"] = None, move.lookback
    f["rule_move"] = str(move)
    f["nonce"] = round_nonce(state.seed, f["round"])
    f["commitment"] = commitment_hash(f["nonce"], f["rule_move"])
    starters = _draw(state, f, f["lookback"])
    f["mainline"], f["main_by"] = starters, (STARTER,) * len(starters)
    f["turn"] = first_player(state.players, f["god"], starters[-1] // 4 + 1, state.express)
    f["phase"] = "turn"


def first_player(players: int, god: int, rank: int, express: bool) -> int:
    """§2 (4): count clockwise over scientists from the dealer's left neighbour (seat 0 in
    machine mode) up to the last starter's rank; Express: that neighbour starts [C]."""
    order = [(god + 1 + i) % players for i in range(players)]
    order = [s for s in order if s != god] if god >= 0 else list(range(players))
    return order[0] if express else order[(rank - 1) % len(order)]


def _round_fields(game, state, round_no: int) -> dict:
    """A fresh round: shuffle two decks, deal, and (machine mode) fix the rule (§2)."""
    god = round_no - 1 if state.god_mode == "player" else -1
    players = state.players
    cards = [k for k in range(52) for _ in range(2)]
    seeded_rng(state.seed, round_no, 0).shuffle(cards)
    f = {"round": round_no, "god": god, "stock": tuple(cards), "decks": 2, "shuffles": 1,
         "hands": tuple(() for _ in range(players)), "mainline": (), "main_by": (),
         "sidelines": (), "noplays": (), "played": 0, "side_played": 0, "turn": -1,
         "prophet": -1, "marker": (), "at_marker": 0, "side_at_marker": 0,
         "former_prophets": frozenset(), "overthrown": frozenset(), "expelled": frozenset(),
         "pending": (), "phase": "commit", "rule_move": "", "lookback": 0, "nonce": "",
         "commitment": "", "rule": None}
    size = EXPRESS_HAND if state.express else HAND
    order = [(god + 1 + i) % players for i in range(players)] if god >= 0 else range(players)
    hands = list(f["hands"])
    for s in order:
        if s != god:
            hands[s] = tuple(sorted(_draw(state, f, size)))
    f["hands"] = tuple(hands)
    if god < 0:                                    # machine God [R]: option or seeded bank pick
        rule = (_compiled(state.rule_option) if state.rule_option
                else _bank().pick_rule(seeded_rng(state.seed, round_no, "rule")))
        _commit(state, f, CommitRule(rule.canonical))
    return f


def _bank():
    from . import bank      # the rule bank is needed only for picks and God's listed commits
    return bank


@lru_cache(maxsize=1)
def bank_rules() -> tuple:
    """The bank's rules, listed as a player God's commit moves (rules/eleusis.md §8)."""
    return tuple(_compiled(entry.canonical if hasattr(entry, "canonical") else entry.rule.canonical)
                 for entry in _bank().BANK)


# ---------------------------------------------------------------------------------------------
# Serialisation helpers
# ---------------------------------------------------------------------------------------------
def _jsonify(value):
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_jsonify(v) for v in value]
    return value


def _tuplify(value):
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


# ---------------------------------------------------------------------------------------------
# Notation (rules/eleusis.md §6)
# ---------------------------------------------------------------------------------------------
def parse_notation(text: str):
    """Notation → move. Syntax errors are InvalidMoveError; a rule or guess that fails
    validation is IllegalMoveError naming the reason (§2.1, §5)."""
    s = text.strip()
    if s == "noplay":
        return NOPLAY
    if s.startswith("play ") or s == "play":
        return _parse_play(s)
    if s in ("judge right", "judge wrong", "approve", "disapprove"):
        return {"judge right": Judge(True), "judge wrong": Judge(False),
                "approve": Review(True), "disapprove": Review(False)}[s]
    for head, cls in (("judge wrong ", Judge), ("disapprove ", Review)):
        if s.startswith(head):
            return cls(False, _parse_card_move(s[len(head):]))
    if s.startswith("rule text "):
        return _parse_text_rule(s)
    if s.startswith("rule "):
        try:
            return CommitRule(_compiled(s[5:]).canonical)
        except RuleError as exc:
            raise IllegalMoveError(f"rule {s[5:]!r} rejected: {exc}") from None
    raise InvalidMoveError(f"not a New Eleusis move: {text!r}")


def _parse_play(s: str) -> Play:
    head, *suffixes = [part.strip() for part in s.split(";")]
    tokens = head.split()[1:]
    if not tokens:
        raise InvalidMoveError(f"{s!r}: play names 1 to {MAX_STRING} cards")
    if len(tokens) > MAX_STRING:
        raise InvalidMoveError(f"{s!r}: a string has at most {MAX_STRING} cards")
    cards = tuple(_parse_card_move(t) for t in tokens)
    if len(suffixes) > 1:
        raise InvalidMoveError(f"{s!r}: at most one declaration suffix")
    if not suffixes:
        return Play(cards)
    suffix = suffixes[0]
    if suffix in (PROPHET, PROPHET_IF_RIGHT):
        return Play(cards, suffix)
    if suffix.startswith("guess "):
        expr = suffix[6:]
        try:
            return Play(cards, "", _guess_syntax(expr)[0])
        except RuleError as exc:
            raise IllegalMoveError(f"guess {expr!r} rejected: {exc}") from None
    raise InvalidMoveError(f"{s!r}: unknown suffix {suffix!r} (prophet, prophet if right, guess)")


def _parse_text_rule(s: str) -> CommitText:
    match = _TEXT_RULE.fullmatch(s)
    if not match:
        raise InvalidMoveError(f'{s!r}: write rule text <L> "<text>"')
    try:
        text = json.loads(match.group(2))
    except ValueError:
        raise InvalidMoveError(f"{s!r}: the rule text must be one JSON string") from None
    if not isinstance(text, str) or not text.strip():
        raise InvalidMoveError(f"{s!r}: the rule text must be a non-empty JSON string")
    return CommitText(int(match.group(1)), text)


@lru_cache(maxsize=4096)
def _parse_stored(text: str):
    return parse_notation(text)


# ---------------------------------------------------------------------------------------------
# Views and pictures (rules/eleusis.md §2.2)
# ---------------------------------------------------------------------------------------------
def _by_view(by: int) -> dict:
    if by == STARTER:
        return {"seat": None, "starter": True, "god_placed": False}
    if by == SET_UP:
        return {"seat": None, "starter": False, "god_placed": False}
    if by <= GOD_PLACED:
        return {"seat": GOD_PLACED - by, "starter": False, "god_placed": True}
    return {"seat": by, "starter": False, "god_placed": False}


def _record_view(rec: tuple) -> dict:
    (round_no, god, rule_move, lookback, nonce, commitment, ok, scores, god_score, hands,
     termination, prophet) = rec
    return {"round": round_no, "god": god if god >= 0 else "machine", "rule": rule_move,
            "lookback": lookback, "nonce": nonce, "commitment": commitment, "commitment_ok": ok,
            "scores": list(scores), "god_score": god_score,
            "final_hands": [[card_text(k) for k in h] for h in hands],
            "termination": termination, "prophet": prophet if prophet >= 0 else None}


def _layout_view(state: EleusisState) -> dict:
    marker = None
    if state.marker:
        marker = {"line": ("mainline", "sideline")[state.marker[0]], "index": state.marker[1]}
    return {
        "mainline": [dict(card=card_text(k), **_by_view(by))
                     for k, by in zip(state.mainline, state.main_by)],
        "sidelines": [{"after": i, "seat": s, "cards": [card_text(k) for k in cards]}
                      for i, s, cards in state.sidelines],
        "noplays": [{"after": i, "seat": s, "cards": [card_text(k) for k in cards]}
                    for i, s, cards in state.noplays],
        "marker": marker,
    }


def build_view(state: EleusisState, seat: int | None) -> dict:
    """Public facts for everyone, the own hand, God's own rule, and the legal moves of the seat
    on turn (they depend only on that seat's hand and public facts)."""
    t1, t2 = state.thresholds
    pending = None
    if state.pending:
        p_seat, p_move, p_call = state.pending
        pending = {"seat": p_seat, "move": p_move, "call": p_call or None}
        if p_move == "noplay":
            pending["shown"] = [card_text(k) for k in state.hands[p_seat]]
    view: dict[str, Any] = {
        "round": state.round, "rounds": state.players if state.rounds == "all" else 1,
        "phase": state.phase, "to_move": state.current_player,
        "turn": state.turn if state.phase != "over" else None,
        "god": state.god if state.god >= 0 else "machine",
        "prophet": state.prophet if state.prophet >= 0 else None,
        "former_prophets": sorted(state.former_prophets), "overthrown": sorted(state.overthrown),
        "expelled": sorted(state.expelled),
        "hand_sizes": [len(h) for h in state.hands],
        "lookback": state.lookback, "starters": state.lookback,
        **_layout_view(state),
        "played": state.played, "at_marker": state.at_marker if state.prophet >= 0 else None,
        "sudden_death": None if state.express else {
            "thresholds": [t1, t2], "active": state.in_sudden_death},
        "stock_size": len(state.stock), "decks": state.decks,
        "commitment": state.commitment or None, "pending": pending,
        "log": [{"round": r, "seat": s, "move": m, "result": res} for r, s, m, res in state.log],
        "rounds_done": [_record_view(rec) for rec in state.records],
        "totals": list(state.totals),
        "options": {"god": state.god_mode, "sudden_death": state.sudden, "rounds": state.rounds,
                    "express": state.express},
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }
    if state.phase == "over" and state.records:
        last = _record_view(state.records[-1])
        view.update(rule=last["rule"], nonce=last["nonce"], commitment_ok=last["commitment_ok"])
    if seat is not None and 0 <= seat < state.players:
        view["seat"] = seat
        if seat != state.god:
            view["hand"] = [card_text(k) for k in state.hands[seat]]
            view["hand_set_aside"] = seat == state.prophet
        elif state.rule_move and state.phase != "over":
            view["rule"] = state.rule_move
            view["report"] = state.rule.report if state.rule is not None else None
        if seat == state.current_player:
            view["legal_moves"] = state.legal_notations()
    return view


def text_diagram(state: EleusisState, seat: int | None) -> str:
    v = build_view(state, seat)
    main = []
    for i, card in enumerate(v["mainline"]):
        text = f"({card['card']})" if card["god_placed"] else f"[{card['card']}]"
        if v["marker"] == {"line": "mainline", "index": i}:
            text = "^" + text
        main.append(text)
        if i + 1 == state.lookback:
            main.append("|")
    lines = [f"New Eleusis round {v['round']}/{v['rounds']}, {v['phase']}, to move: "
             f"{v['to_move']}", "mainline " + " ".join(main)]
    for group in v["sidelines"]:
        lines.append(f"  under #{group['after'] + 1}: {' '.join(group['cards'])} "
                     f"(seat {group['seat']})")
    sizes = ", ".join(f"{s}:{n}" for s, n in enumerate(v["hand_sizes"]))
    lines.append(f"hands {sizes}; played {v['played']}; stock {v['stock_size']}")
    if "hand" in v:
        lines.append("your hand: " + " ".join(v["hand"]))
    return "\n".join(lines)


def svg_diagram(state: EleusisState, seat: int | None) -> str:
    from html import escape

    from ..svg import document
    v = build_view(state, seat)
    w, h, per_row = 34, 46, 16
    below: dict[int, list[str]] = {}
    for group in v["sidelines"]:
        below.setdefault(group["after"], []).extend(group["cards"])
    depth = max([len(c) for c in below.values()] + [0])
    rows = (len(v["mainline"]) + per_row - 1) // per_row or 1
    row_h = (depth + 1) * (h + 4) + 10
    body = [f'<rect width="{per_row * (w + 4) + 8}" height="{rows * row_h + 60}" fill="#1d5e3a"/>']

    def card(x: float, y: float, text: str, dim: bool = False) -> None:
        colour = "#c00" if text[-1] in "HD" else "#000"
        body.append(f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="4" '
                    f'fill="{"#ddd" if dim else "#fff"}" stroke="#333"/>')
        body.append(f'<text x="{x + w / 2:g}" y="{y + h / 2 + 5:g}" font-size="13" '
                    f'text-anchor="middle" font-family="sans-serif" fill="{colour}">'
                    f'{escape(text)}</text>')

    for i, entry in enumerate(v["mainline"]):
        x, y = 4 + (i % per_row) * (w + 4), 4 + (i // per_row) * row_h
        card(x, y, entry["card"], dim=entry["god_placed"])
        if v["marker"] == {"line": "mainline", "index": i}:
            body.append(f'<circle cx="{x + w - 5:g}" cy="{y + 5:g}" r="4" fill="#e6b800"/>')
        for j, text in enumerate(below.get(i, [])):
            card(x, y + (j + 1) * (h + 4), text, dim=True)
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(v["hand_sizes"]))
    lines = [f"round {v['round']} {v['phase']}, to move {v['to_move']}, played {v['played']}, "
             f"hands {sizes}"]
    if "hand" in v:
        lines.append("hand: " + " ".join(v["hand"]))
    for k, line in enumerate(lines):
        body.append(f'<text x="4" y="{rows * row_h + 20 + 18 * k}" font-size="13" fill="#fff" '
                    f'font-family="sans-serif">{escape(line)}</text>')
    return document(per_row * (w + 4) + 8, rows * row_h + 60, body, "New Eleusis")


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------
class NewEleusis(Game):
    """New Eleusis (rules/eleusis.md): scientists induce God's secret rule from the cards."""

    slug = "new-eleusis"
    title = "New Eleusis"
    min_players = 4
    max_players = 8
    has_hidden_information = True
    options = {
        "god": OptionSpec("machine", "machine: the server is God and every seat a scientist; "
                          "player: seat 0 (rotating with rounds=all) is God",
                          choices=("machine", "player")),
        "rule": OptionSpec(None, "machine mode only, secret: the rule as text or a JSON AST; "
                           "null = the engine picks one from its bank", parse=_rule_option,
                           schema={"anyOf": [
                               {"type": "null"},
                               {"type": "string", "pattern": "\\S", "maxLength": 500},
                               {"type": "object", "required": ["op"]}]}),
        "sudden_death": OptionSpec("seed", "sudden-death thresholds: seed 30 / 20 after the "
                                   "marker, classic 40 / 30", choices=("seed", "classic")),
        "rounds": OptionSpec(1, "all = every seat is God once (player mode)", choices=(1, "all")),
        "express": OptionSpec(False, "Eleusis Express: 12 cards, single plays, guesses"),
    }
    variants = {"standard": {}, "express": {"express": True}}
    secret_options = ("rule",)
    summary = ("A game of induction for 4-8 players: God (the server or a player) secretly "
               "fixes a rule saying which card may follow the last one; scientists play cards "
               "from their hands onto the mainline, learn from the verdicts, may declare "
               "themselves Prophet to judge in God's place, and race to empty their hands "
               "before sudden death. Eleusis Express adds guessing the rule outright.")
    rules_page = "rules/eleusis.md"

    def _new_state(self, players: int, seed: int, options: dict) -> EleusisState:
        if options["god"] == "player" and options["rule"] is not None:
            raise InvalidOptionsError("option rule is for machine mode; a player God commits it")
        if options["rounds"] == "all" and options["god"] != "player":
            raise InvalidOptionsError("rounds=all needs god=player (every seat is God once)")
        proto = EleusisState(
            players=players, seed=seed, god_mode=options["god"], rule_option=options["rule"],
            sudden=options["sudden_death"], rounds=options["rounds"],
            express=options["express"], round=1, ply=0, phase="commit", god=-1, rule_move="",
            lookback=0, nonce="", commitment="", stock=(), decks=0, shuffles=0, hands=(),
            mainline=(), main_by=(), sidelines=(), noplays=(), played=0, side_played=0,
            turn=-1, prophet=-1, marker=(), at_marker=0, side_at_marker=0,
            former_prophets=frozenset(), overthrown=frozenset(), expelled=frozenset(),
            pending=(), totals=(0,) * players, records=(), log=(), outcome=None)
        return proto._evolve(**_round_fields(self, proto, 1))

    def state_from_dict(self, d: Mapping) -> EleusisState:
        names = [fl.name for fl in fields(EleusisState) if fl.name != "rule"]
        if not isinstance(d, Mapping) or set(d) != set(names):
            raise InvalidStateError("not a New Eleusis state: wrong fields")
        kw: dict[str, Any] = {}
        try:
            for name in names:
                value = d[name]
                if name in ("former_prophets", "overthrown", "expelled"):
                    value = frozenset(value)
                elif name == "outcome":
                    value = Outcome.from_dict(value)
                else:
                    value = _tuplify(value)
                kw[name] = value
            move = kw["rule_move"]
            kw["rule"] = (_compiled(move[5:]) if move.startswith("rule ")
                          and not move.startswith("rule text ") else None)
        except (TypeError, ValueError) as exc:
            raise InvalidStateError(f"not a New Eleusis state: {exc}") from exc
        return EleusisState(**kw)

    # -- used by the state ----------------------------------------------------------------------
    @staticmethod
    def parse_notation(text: str, state: EleusisState | None = None):
        """Notation → move; the syntax does not depend on the position."""
        return parse_notation(text)

    @staticmethod
    def parse_pending(text: str):
        return _parse_stored(text)

    build_view = staticmethod(build_view)
    text_diagram = staticmethod(text_diagram)
    svg_diagram = staticmethod(svg_diagram)

    def public_notation(self, move, state) -> str:
        """A `rule …` move reads `rule committed <hash>` until its round ends (§2.2, §3.7)."""
        text = str(move)
        if not text.startswith("rule "):
            return text
        if state.phase not in ("over", "commit") and state.rule_move == text:
            return "rule committed " + state.commitment
        if any(rec[2] == text for rec in state.records):
            return text
        return "rule committed " + commitment_hash(round_nonce(state.seed, state.round), text)

    def early_stop_totals(self, state: EleusisState) -> tuple[int, ...]:
        """Totals if the server stops a rounds=all match early: +10 to each seat that has not
        yet been God (rules/eleusis.md §4 [C]); finished rounds only."""
        if state.rounds != "all":
            return state.totals
        been = {rec[1] for rec in state.records} | ({state.god} if state.phase != "over" else set())
        return tuple(t + (0 if s in been else 10) for s, t in enumerate(state.totals))


EleusisState.game = NewEleusis()
