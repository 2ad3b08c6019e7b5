"""New Eleusis, the game: the state, its legal moves, and how a move makes the next state.

Rules: docs/rules/eleusis.md (§2 set-up and visibility, §3 turns, §4 scoring, §5 options, §6
notation). Moves and their notation are in `moves.py`, round set-up numbers, records and scoring
in `rounds.py`, what a seat may see in `views.py`, the rule language in `rulelang/`. This module
only asks a compiled rule for its verdict mask (`Rule.mask(prev, prev2, n)`), so judging a card is
a bit test.

Phases (§3): `commit` (player God fixes the rule), `turn` (a scientist plays), `call` (the Prophet
calls a play, or a free-text God judges it), `review` (a free-text God reviews a Prophet's call),
`over`. With an expression rule the server judges and reviews at once.

A move is applied to a `NextState`: a mutable copy of the state's fields that the settling steps
change in place (drawing, placing, declaring, scoring, dealing the next round) and `build()`
freezes into the next `EleusisState`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, Mapping

from ..core import (
    Game, InvalidOptionsError, InvalidStateError, OptionSpec, Outcome, State, Termination,
    seeded_rng,
)
from .cards import card_text, kinds_mask, parse_card
from .moves import (
    MAX_STRING, NOPLAY, PROPHET, SINGLES, CommitRule, CommitText, Judge, NoPlay, Play, Review,
    cards_text, checked_guess, compiled_rule, guess_syntax, parse_notation, parse_stored,
    rule_option, strings_from,
)
from .rounds import (
    CARD_CAP, EXPRESS_HAND, GOD_PLACED, HAND, NEVER_GOD_BONUS, SET_UP, STARTER, THRESHOLDS,
    RoundRecord, commitment_hash, deal_order, first_player, round_nonce, round_scores, two_decks,
)
from .views import build_view, svg_diagram, text_diagram


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EleusisState(State):
    """One moment of a New Eleusis match (docs/rules/eleusis.md §8: everything, secrets included).

    Layout: `mainline` kinds with `main_by` (the seat that played each card, STARTER, or
    GOD_PLACED - seat for a card God placed from that seat's wrong No Play); `sidelines` and
    `noplays` are (mainline index they hang under, seat, cards). `marker` is () or
    (0, mainline index) / (1, sideline group index). `pending` is () or (seat, play notation,
    call notation or ""). `records` hold finished rounds (`RoundRecord`); `log` holds one public
    entry per ply: (round, seat, public notation, result). For test positions see `with_position`.
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
    records: tuple[RoundRecord, ...]
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
    def round_count(self) -> int:
        return self.players if self.rounds == "all" else 1

    @property
    def in_sudden_death(self) -> bool:
        """§3.4: judged before a play; never in Express."""
        return in_sudden_death(self)

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
            kinds = sorted(set(self.hands[self.turn]))
            if self.can_declare(self.turn):
                moves = [m for k in kinds for m in SINGLES[k]]
            else:
                moves = [SINGLES[k][0] for k in kinds]
            moves.append(NOPLAY)
            return moves
        if phase == "call":
            return self._call_forms()
        if phase == "review":
            return self._review_forms()
        if phase == "commit":
            return list(bank_commits())
        return []

    def _pending_play(self):
        return parse_stored(self.pending[1])

    def _shown_kinds(self) -> list[int]:
        return sorted(set(self.hands[self.pending[0]]))

    def _call_forms(self) -> list:
        if isinstance(self._pending_play(), NoPlay):
            return [Judge(True)] + [Judge(False, k) for k in self._shown_kinds()]
        return [Judge(True), Judge(False)]

    def _review_forms(self) -> list:
        if not isinstance(self._pending_play(), NoPlay):
            return [Review(True), Review(False)]
        call = parse_stored(self.pending[2])
        named = [Review(False, k) for k in self._shown_kinds() if k != call.card]
        return [Review(True)] + ([] if call.right else [Review(False)]) + named

    def string_moves(self, max_len: int = MAX_STRING) -> list:
        """Strings of 2..max_len cards from the hand on turn, in order, without suffixes (§8:
        legal but not listed by `legal_moves`). Empty outside a standard turn."""
        if self.phase != "turn" or self.express:
            return []
        return strings_from(self.hands[self.turn], max_len)

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
            if move.guess and guess_syntax(move.guess)[1] > self.lookback:
                return f"the guess looks further back than the rule (L={self.lookback})"
        elif move.guess:
            return "guesses belong to Express"
        return None

    def _parse(self, text: str):
        return parse_notation(text)

    # -- applying -------------------------------------------------------------------------------
    def apply(self, move) -> "EleusisState":
        phase, seat = self.phase, self.current_player
        nxt = NextState(self)
        nxt.ply += 1
        text = str(move)
        if phase == "commit":
            nxt.commit(move)
            text = "rule committed " + nxt.commitment
        elif phase == "turn":
            if isinstance(move, NoPlay):             # the hand is shown to all (§2.2)
                nxt.notes.append("shown " + (cards_text(self.hands[seat]) or "nothing"))
            if self.prophet >= 0 or self.rule is None:
                nxt.phase, nxt.pending = "call", (seat, text, "")
            else:
                nxt.settle(seat, move, self._truth_for(seat, move), True)
        elif phase == "call":
            self._apply_call(nxt, move)
        else:
            self._apply_review(nxt, move)
        nxt.log = self.log + ((self.round, seat, text, "; ".join(nxt.notes)),)
        return nxt.build()

    def _truth_for(self, seat: int, play) -> tuple[bool, int]:
        """(right, card God places for a wrong No Play: the machine pick, §3.2 [R])."""
        if isinstance(play, NoPlay):
            mask = self.right_cards(self.hands[seat])
            return (True, -1) if not mask else (False, (mask & -mask).bit_length() - 1)
        return self.is_right(play.cards), -1

    def _apply_call(self, nxt: NextState, call: Judge) -> None:
        seat, play_text, _ = self.pending
        play = parse_stored(play_text)
        nxt.pending, nxt.phase = (), "turn"
        if self.prophet < 0:                         # a free-text God judges (§3 table)
            nxt.settle(seat, play, (call.right, call.card), True)
        elif self.rule is None:                      # a free-text God reviews the call
            nxt.phase, nxt.pending = "review", (seat, play_text, str(call))
        else:                                        # the server reviews at once (§3.3)
            right, card = self._truth_for(seat, play)
            if isinstance(play, NoPlay) and not right:   # the named card must be right too
                true_call = not call.right and bool((self.verdict_mask() >> call.card) & 1)
            else:
                true_call = call.right == right
            if true_call:
                placed = call.card if isinstance(play, NoPlay) and not right else -1
                nxt.settle(seat, play, (right, placed), True)
            else:
                nxt.overthrow()
                nxt.settle(seat, play, (right, card), False)

    def _apply_review(self, nxt: NextState, review: Review) -> None:
        seat, play_text, call_text = self.pending
        play, call = parse_stored(play_text), parse_stored(call_text)
        nxt.pending, nxt.phase = (), "turn"
        if review.approve:
            nxt.settle(seat, play, (call.right, call.card), True)
            return
        nxt.overthrow()
        if isinstance(play, NoPlay):
            verdict = (review.card < 0, review.card)
        else:
            verdict = (not call.right, -1)
        nxt.settle(seat, play, verdict, False)

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

    # -- serialisation and views ----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {name: _jsonify(getattr(self, name)) for name in STORED_FIELDS}

    def view(self, seat: int | None) -> dict:
        """What `seat` may see (docs/rules/eleusis.md §2.2); None = a spectator."""
        return build_view(self, seat)

    def render_text(self, seat: int | None = None) -> str:
        return text_diagram(self, seat)

    def render_svg(self, seat: int | None = None) -> str:
        return svg_diagram(self, seat)


STORED_FIELDS = tuple(fl.name for fl in fields(EleusisState) if fl.name != "rule")
# what every round starts from before the deal and the rule (§2 set-up)
ROUND_START = {
    "phase": "commit", "rule_move": "", "lookback": 0, "nonce": "", "commitment": "", "rule": None,
    "mainline": (), "main_by": (), "sidelines": (), "noplays": (), "played": 0, "side_played": 0,
    "turn": -1, "prophet": -1, "marker": (), "at_marker": 0, "side_at_marker": 0,
    "former_prophets": frozenset(), "overthrown": frozenset(), "expelled": frozenset(),
    "pending": (),
}


def in_sudden_death(position) -> bool:
    """§3.4, for a state or a state being built: never in Express."""
    if position.express:
        return False
    t1, t2 = THRESHOLDS[position.sudden]
    if position.prophet >= 0:
        return position.played - position.at_marker >= t2
    return position.played >= t1


# ---------------------------------------------------------------------------------------------
# The next state (docs/rules/eleusis.md §2 set-up, §3.1-§3.5, §4)
# ---------------------------------------------------------------------------------------------
class NextState:
    """The fields of the state being moved from, changed in place by the steps below; `notes`
    collects the log entry's result. `build()` hands the fields to the next EleusisState, so
    a NextState is used once."""

    __slots__ = ("notes", "__dict__")

    def __init__(self, before: EleusisState):
        self.__dict__ = before.__dict__.copy()
        self.notes: list[str] = []

    def build(self) -> EleusisState:
        new = object.__new__(EleusisState)
        object.__setattr__(new, "__dict__", self.__dict__)
        return new

    # -- cards ----------------------------------------------------------------------------------
    def draw(self, k: int) -> tuple[int, ...]:
        """Draw k cards: refill below k, take from the top (the end), refill at <= 4 (§2 [C][R])."""
        stock = self.stock
        while len(stock) < k:
            stock = self._add_deck(stock)
        taken = stock[len(stock) - k:] if k else ()
        stock = stock[:len(stock) - k]
        while len(stock) <= 4:
            stock = self._add_deck(stock)
        self.stock = stock
        return taken

    def _add_deck(self, stock: tuple[int, ...]) -> tuple[int, ...]:
        cards = list(stock) + list(range(52))
        seeded_rng(self.seed, self.round, self.shuffles).shuffle(cards)
        self.shuffles += 1
        self.decks += 1
        return tuple(cards)

    def set_hand(self, seat: int, hand) -> None:
        hands = list(self.hands)
        hands[seat] = tuple(sorted(hand))
        self.hands = tuple(hands)

    def to_mainline(self, cards: tuple[int, ...], by: int) -> None:
        self.mainline += cards
        self.main_by += (by,) * len(cards)

    # -- settling a play ------------------------------------------------------------------------
    def settle(self, seat: int, move, verdict: tuple[bool, int], penalty: bool) -> None:
        """Settle `move` by `seat` with `verdict` (right, card to place for a wrong No Play);
        `penalty` False is the overthrow amnesty. Then declaration, round end, next turn."""
        right, card = verdict
        sudden = penalty and in_sudden_death(self)
        if isinstance(move, NoPlay):
            went_out = self._settle_noplay(seat, right, card, penalty, sudden)
        else:
            went_out = self._settle_cards(seat, move.cards, right, penalty, sudden)
        if went_out:
            self.notes.append("went out")
            self.end_round(Termination.WENT_OUT, seat)
            return
        if isinstance(move, Play):
            # Express [R]: a right card that empties the hand went out above (+4 once); otherwise
            # a guess rides on a right card only (§5)
            if self.express and right and move.guess:
                if self.rule.equivalent(checked_guess(move.guess, self.lookback)):
                    self.notes.append("guess correct")
                    self.end_round(Termination.GUESSED, seat)
                    return
                self.notes.append("guess wrong")
            # Declarations ride on the play [R] and are judged once it has settled (§3.3, §9)
            if move.declare and (right or move.declare == PROPHET):
                self.declare(seat, right)
        self.pass_turn(seat)

    def _settle_cards(self, seat: int, cards: tuple[int, ...], right: bool, penalty: bool,
                      sudden: bool) -> bool:
        hand = _without(self.hands[seat], cards)
        self.played += len(cards)
        if right:
            self.to_mainline(cards, seat)
            self.set_hand(seat, hand)
            self.notes.append("right")
            return not hand
        self.sidelines += ((len(self.mainline) - 1, seat, tuple(cards)),)
        self.side_played += len(cards)
        if not penalty:
            self.notes.append("wrong, no penalty")
        elif sudden:
            self.expelled |= {seat}
            self.notes.append("wrong, expelled")
        else:
            draw = 1 if self.express else 2 * len(cards)
            hand += self.draw(draw)
            self.notes.append(f"wrong, drew {draw}")
        self.set_hand(seat, hand)
        return False

    def _settle_noplay(self, seat: int, right: bool, card: int, penalty: bool,
                       sudden: bool) -> bool:
        hand = self.hands[seat]
        if right:                                      # §3.2 correct: a smaller new hand
            self.noplays += ((len(self.mainline) - 1, seat, hand),)
            size = max(0, len(hand) - (1 if self.express else 4))
            self.set_hand(seat, self.draw(size))
            self.notes.append(f"no play correct, new hand of {size}")
            return size == 0
        if sudden:                                     # §3.4 [R]: expelled, nothing placed
            self.expelled |= {seat}
            self.notes.append("no play wrong, expelled")
            return False
        rest = _without(hand, (card,))
        self.to_mainline((card,), GOD_PLACED - seat)
        self.played += 1
        note = f"no play wrong, God placed {card_text(card)}"
        if penalty:
            draw = 1 if self.express else 5
            rest += self.draw(draw)
            note += f", drew {draw}"
        self.set_hand(seat, rest)
        self.notes.append(note)
        return False

    # -- the Prophet (§3.3) ---------------------------------------------------------------------
    def declare(self, seat: int, right: bool) -> None:
        """No Prophet in office, never Prophet this round, not expelled, and at least 2 other
        scientists not expelled."""
        others = sum(1 for s in range(self.players)
                     if s not in (self.god, seat) and s not in self.expelled)
        if (self.prophet >= 0 or seat in self.former_prophets or seat in self.expelled
                or others < 2 or self.express):
            self.notes.append("declaration ignored")
            return
        self.prophet = seat
        self.former_prophets |= {seat}
        self.marker = (0, len(self.mainline) - 1) if right else (1, len(self.sidelines) - 1)
        self.at_marker, self.side_at_marker = self.played, self.side_played
        self.notes.append("became Prophet")

    def overthrow(self) -> None:
        """A disapproved call: the Prophet takes the hand back and draws 5."""
        p = self.prophet
        self.set_hand(p, self.hands[p] + self.draw(5))
        self.prophet, self.marker, self.at_marker, self.side_at_marker = -1, (), 0, 0
        self.overthrown |= {p}
        self.notes.append(f"Prophet {p} overthrown")

    # -- turns and rounds -----------------------------------------------------------------------
    def pass_turn(self, seat: int) -> None:
        """Round-end tests (§4, §5 card cap), then the turn passes clockwise (§3.5)."""
        god, prophet, expelled = self.god, self.prophet, self.expelled
        active = [s for s in range(self.players)
                  if s != god and s != prophet and s not in expelled]
        if not active:
            self.end_round(Termination.ALL_EXPELLED, -1)
            return
        if self.express and self.played >= CARD_CAP:
            self.end_round(Termination.CARD_CAP, -1)
            return
        self.phase = "turn"
        for i in range(1, self.players + 1):
            s = (seat + i) % self.players
            if s in active:
                self.turn = s
                return

    def end_round(self, termination: Termination, out_seat: int) -> None:
        scores, god_score = round_scores(self, out_seat)
        self.records += (RoundRecord(
            self.round, self.god, self.rule_move, self.lookback, self.nonce, self.commitment,
            commitment_hash(self.nonce, self.rule_move) == self.commitment, tuple(scores),
            god_score, self.hands, termination.value, self.prophet),)
        self.totals = tuple(t + s for t, s in zip(self.totals, scores))
        self.notes.append(f"round {self.round} over ({termination.value})")
        if self.round < (self.players if self.rounds == "all" else 1):
            self.deal(self.round + 1)
            return
        top = max(self.totals)
        self.phase, self.pending = "over", ()
        self.outcome = Outcome(tuple(s for s, t in enumerate(self.totals) if t == top),
                               tuple(float(t) for t in self.totals), termination)

    def deal(self, round_no: int) -> None:
        """A fresh round: shuffle two decks, deal, and (machine mode) fix the rule (§2)."""
        god = round_no - 1 if self.god_mode == "player" else -1
        self.__dict__.update(ROUND_START)
        self.round, self.god, self.hands = round_no, god, tuple(() for _ in range(self.players))
        self.stock, self.decks, self.shuffles = two_decks(self.seed, round_no), 2, 1
        size = EXPRESS_HAND if self.express else HAND
        for s in deal_order(self.players, god):
            self.set_hand(s, self.draw(size))
        if god < 0:                                    # machine God [R]: option or seeded bank pick
            rule = (compiled_rule(self.rule_option) if self.rule_option
                    else _bank().pick_rule(seeded_rng(self.seed, round_no, "rule")))
            self.commit(CommitRule(rule.canonical))

    def commit(self, move) -> None:
        """Fix the rule, publish its commitment, turn up the starters, find the first player."""
        if isinstance(move, CommitRule):
            self.rule = compiled_rule(move.expr)
            self.lookback = self.rule.lookback
        else:
            self.rule, self.lookback = None, move.lookback
        self.rule_move = str(move)
        self.nonce = round_nonce(self.seed, self.round)
        self.commitment = commitment_hash(self.nonce, self.rule_move)
        starters = self.draw(self.lookback)
        self.mainline, self.main_by = starters, (STARTER,) * len(starters)
        self.turn = first_player(self.players, self.god, starters[-1] // 4 + 1, self.express)
        self.phase = "turn"


def _without(hand: tuple[int, ...], cards) -> list[int]:
    rest = list(hand)
    for k in cards:
        rest.remove(k)
    return rest


def _bank():
    from . import bank      # the rule bank is needed only for picks and God's listed commits
    return bank


@lru_cache(maxsize=1)
def bank_commits() -> tuple[CommitRule, ...]:
    """The bank's rules, listed as a player God's commit moves (docs/rules/eleusis.md §8)."""
    return tuple(CommitRule(entry.canonical) for entry in _bank().BANK)


# ---------------------------------------------------------------------------------------------
# Serialisation: tuples and frozensets as JSON lists, round records as 12-item lists
# ---------------------------------------------------------------------------------------------
def _jsonify(value):
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, RoundRecord):
        return value.to_list()
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_jsonify(v) for v in value]
    return value


def _tuplify(value):
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


def _stored_value(name: str, value):
    if name in ("former_prophets", "overthrown", "expelled"):
        return frozenset(value)
    if name == "outcome":
        return Outcome.from_dict(value)
    if name == "records":
        return tuple(RoundRecord.from_list(rec) for rec in value)
    return _tuplify(value)


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------
class NewEleusis(Game):
    """New Eleusis (docs/rules/eleusis.md): scientists induce God's secret rule from the cards."""

    slug = "new-eleusis"
    title = "New Eleusis"
    min_players = 4
    max_players = 8
    has_hidden_information = True
    draws_by_agreement = False              # scores, not a result to agree on (rules §4)
    seats_take_first_turns_in_order = False  # God judges between the scientists' plays
    options = {
        "god": OptionSpec("machine", "machine: the server is God and every seat a scientist; "
                          "player: seat 0 (rotating with rounds=all) is God",
                          choices=("machine", "player")),
        "rule": OptionSpec(None, "machine mode only, secret: the rule as text or a JSON AST; "
                           "null = the engine picks one from its bank", parse=rule_option,
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
    rules_page = "docs/rules/eleusis.md"

    def _new_state(self, players: int, seed: int, options: dict) -> EleusisState:
        if options["god"] == "player" and options["rule"] is not None:
            raise InvalidOptionsError("option rule is for machine mode; a player God commits it")
        if options["rounds"] == "all" and options["god"] != "player":
            raise InvalidOptionsError("rounds=all needs god=player (every seat is God once)")
        start = EleusisState(
            players=players, seed=seed, god_mode=options["god"], rule_option=options["rule"],
            sudden=options["sudden_death"], rounds=options["rounds"],
            express=options["express"], round=1, ply=0, god=-1, stock=(), decks=0, shuffles=0,
            hands=(), totals=(0,) * players, records=(), log=(), outcome=None, **ROUND_START)
        nxt = NextState(start)
        nxt.deal(1)
        return nxt.build()

    def state_from_dict(self, d: Mapping) -> EleusisState:
        if not isinstance(d, Mapping) or set(d) != set(STORED_FIELDS):
            raise InvalidStateError("not a New Eleusis state: wrong fields")
        try:
            kw = {name: _stored_value(name, d[name]) for name in STORED_FIELDS}
            move = kw["rule_move"]
            kw["rule"] = (compiled_rule(move[5:]) if move.startswith("rule ")
                          and not move.startswith("rule text ") else None)
        except (TypeError, ValueError) as exc:
            raise InvalidStateError(f"not a New Eleusis state: {exc}") from exc
        return EleusisState(**kw)

    @staticmethod
    def parse_notation(text: str, state: EleusisState | None = None):
        """Notation → move; the syntax does not depend on the position."""
        return parse_notation(text)

    def public_notation(self, move, state) -> str:
        """A `rule …` move reads `rule committed <hash>` until its round ends (§2.2, §3.7)."""
        text = str(move)
        if not text.startswith("rule "):
            return text
        if state.phase not in ("over", "commit") and state.rule_move == text:
            return "rule committed " + state.commitment
        if any(rec.rule_move == text for rec in state.records):
            return text
        return "rule committed " + commitment_hash(round_nonce(state.seed, state.round), text)

    def early_stop_totals(self, state: EleusisState) -> tuple[int, ...]:
        """Totals if the server stops a rounds=all match early: a bonus to each seat that has
        not yet been God (docs/rules/eleusis.md §4 [C]); finished rounds only."""
        if state.rounds != "all":
            return state.totals
        been = {rec.god for rec in state.records} | ({state.god} if state.phase != "over" else set())
        return tuple(t + (0 if s in been else NEVER_GOD_BONUS) for s, t in enumerate(state.totals))


EleusisState.game = NewEleusis()
