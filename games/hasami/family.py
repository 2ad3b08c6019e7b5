"""The shared core of the Hasami Shogi family (docs/rules/hasami.md §2, §3, §3.5, §5).

One capture and movement core serves `hasami-shogi`, `dai-hasami-shogi`, `mak-yek` and
`latrunculi`. A game declares its differences as data: board size, start squares, and a `Rules`
value (capture kinds, jumps, end checks) built by its `configure` hook from the options.

Representation: a position is three bitboards (`black`, `white`, `duces`; see geometry.py for the
square codes), the side to move, the capture counts, the plies since the last capture and the
position keys seen since then (captures are irreversible, so only those can repeat, §3.3.4).

Evaluator-facing attributes of `HasamiState` (all cheap): `to_move` (0 Black, 1 White, also after
the end), `captures` ((Black's, White's) enemy men removed), `men` ((Black's, White's) pieces on
the board, duces included), `black`/`white`/`duces` bitboards, `quiet` (plies without capture),
`key` (squares + side to move as one int, for transposition tables), `has_move()`, and
`rules` (`capture_goal`, `lead_rule`, `no_capture_limit`, ... of the game being played).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, ClassVar, Iterable, Mapping

from .. import svg
from ..core import (
    Game, InvalidMoveError, InvalidStateError, OptionSpec, Outcome, State, Termination,
    TwoSeatTurns,
)
from .geometry import (
    ORTHOGONAL, STRIDE, Board, bits_of, board, code, file_of, rank_of, spread4, square_name,
)

BLACK, WHITE = 0, 1
SIDE_NAMES = ("Black", "White")
ANY_LENGTH = 99                     # a custodial run limit longer than any line on these boards


# ---------------------------------------------------------------------------------------------
# Moves (§5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """A slide or a jump from `src` to `dst` (square codes `rank * 16 + file`); str: `e1-e5`."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{square_name(self.src)}-{square_name(self.dst)}"

    @property
    def squares(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """((file, rank), (file, rank)), 0-based, as in docs/rules/hasami.md §2."""
        return (file_of(self.src), rank_of(self.src)), (file_of(self.dst), rank_of(self.dst))


_MOVES: dict[tuple[int, int], Move] = {}


def move_of(src: int, dst: int) -> Move:
    """The one shared Move value for (src, dst): move lists allocate nothing."""
    m = _MOVES.get((src, dst))
    if m is None:
        m = _MOVES[(src, dst)] = Move(src, dst)
    return m


_NOTATION_RE = re.compile(r"([a-z]+[0-9]+)-([a-z]+[0-9]+)")


# ---------------------------------------------------------------------------------------------
# Shared options (§4)
# ---------------------------------------------------------------------------------------------
SHARED_OPTIONS: dict[str, OptionSpec] = {
    "repetition": OptionSpec(4, "draw on the N-th occurrence of a position (0: off)",
                             min=2, max=9, off=0),
    "no_capture_limit": OptionSpec(100, "draw after N plies without a capture (0: off)",
                                   min=1, max=1000, off=0),
}


# ---------------------------------------------------------------------------------------------
# Move tables
# ---------------------------------------------------------------------------------------------
class LineMoves(dict):
    """The moves of a piece on one square along one line (its rank or its file), keyed by the
    line's occupancy (bit i: the i-th square of the line is occupied); filled on first use."""

    __slots__ = ("line", "index", "jumps")

    def __init__(self, line: tuple[int, ...], index: int, jumps: bool) -> None:
        super().__init__()
        self.line, self.index, self.jumps = line, index, jumps

    def __missing__(self, occ: int) -> tuple[Move, ...]:
        moves = self[occ] = line_moves(self.line, self.index, occ, self.jumps)
        return moves


def line_moves(line: tuple[int, ...], i: int, occ: int, jumps: bool) -> tuple[Move, ...]:
    """Slides (§3.1) both ways from line[i] over empty squares, then a jump over an adjacent
    piece onto the empty square beyond (dai-hasami-shogi, §3.5) when `jumps`."""
    src, out, n = line[i], [], len(line)
    for step in (1, -1):
        j = i + step
        while 0 <= j < n and not occ >> j & 1:
            out.append(move_of(src, line[j]))
            j += step
        beyond = i + 2 * step
        if jumps and j == i + step and 0 <= beyond < n and not occ >> beyond & 1:
            out.append(move_of(src, line[beyond]))
    return tuple(out)


@lru_cache(maxsize=None)
def line_tables(b: Board, jumps: bool) -> list:
    """Per square code: (shift to its rank, its file, LineMoves along the rank, along the file).
    Shared by every option set with the same board and movement."""
    out: list = [None] * (b.ranks * STRIDE)
    for s in b.squares:
        f, r = file_of(s), rank_of(s)
        rank_line = tuple(code(x, r) for x in range(b.files))
        file_line = tuple(code(f, y) for y in range(b.ranks))
        out[s] = (r * STRIDE, f, LineMoves(rank_line, f, jumps), LineMoves(file_line, r, jumps))
    return out


# ---------------------------------------------------------------------------------------------
# Rules: one game's rules as data, plus the tables derived from them
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """Everything the core needs to play one game with one set of options.

    Built once per (game, options) by `FamilyGame.rules_for`; the lookup tables are derived in
    `__post_init__` and are not part of equality.
    """

    slug: str
    board: Board
    options: tuple[tuple[str, Any], ...]
    end_rules: tuple[Callable, ...]
    custodial_dirs: tuple[tuple[int, int], ...] = ORTHOGONAL
    custodial_max: int = ANY_LENGTH
    edge_closes: bool = False                   # hashi-otoshi (§3.4)
    intervention_dirs: tuple[tuple[int, int], ...] = ()   # §3.2c, one direction per line
    enclosure: str = "none"                     # none | corner_only | edge_groups (§3.2b)
    jumps: bool = False                         # dai-hasami-shogi (§3.5)
    repetition: int = 4
    no_capture_limit: int = 100
    capture_goal: int | str = 0                 # hasami-shogi (§3.3.1); 0: no goal
    lead_rule: int = 0
    five_shifts: tuple[int, ...] = ()           # dai-hasami-shogi: lines for the five
    five_must_survive: bool = False

    def __post_init__(self) -> None:
        b, set_ = self.board, object.__setattr__
        size = b.ranks * STRIDE
        set_(self, "key_shift", size)
        set_(self, "lines", line_tables(b, self.jumps))
        # Column occupancy: bits 16k of (occ >> file) gathered into bits k by one multiplication
        # (the products of different ranks never share a bit, so nothing carries).
        top = 15 * (b.ranks - 1)
        set_(self, "col_gather", (sum(1 << STRIDE * k for k in range(b.ranks)),
                                  sum(1 << (top - 15 * k) for k in range(b.ranks)),
                                  top, (1 << b.ranks) - 1, (1 << b.files) - 1))
        set_(self, "rays", [tuple(tuple(1 << t for t in b.rays[d][s])
                                  for d in self.custodial_dirs if b.rays[d][s])
                            for s in range(size)])
        set_(self, "pairs", [self._pairs(s) for s in range(size)])
        set_(self, "near", [self._near(s) for s in range(size)])
        homes = (b.rank_masks[0] | b.rank_masks[1], b.rank_masks[-1] | b.rank_masks[-2])
        set_(self, "homes", homes)

    def _pairs(self, s: int) -> tuple:
        rays = self.board.rays
        out = []
        for d in self.intervention_dirs:
            back = (-d[0], -d[1])
            if rays[d][s] and rays[back][s]:
                out.append((1 << rays[d][s][0], 1 << rays[back][s][0]))
        return tuple(out)

    def _near(self, s: int) -> int:
        """Squares next to s where an enemy man makes a capture by a man landing on s possible."""
        rays = self.board.rays
        dirs = set(self.custodial_dirs) | set(ORTHOGONAL if self.enclosure != "none" else ())
        dirs |= {e for d in self.intervention_dirs for e in (d, (-d[0], -d[1]))}
        return sum(1 << rays[d][s][0] for d in dirs if rays[d][s])

    @property
    def options_dict(self) -> dict:
        return dict(self.options)

    def __reduce__(self):
        # Pickled by reference (game slug + options): the tables are rebuilt, not copied.
        return rules_of, (self.slug, self.options)


def rules_of(slug: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    """The shared Rules of a registered game for validated options."""
    from ..registry import get_game
    return get_game(slug).rules_for(dict(options))


# ---------------------------------------------------------------------------------------------
# Captures (§3.2)
# ---------------------------------------------------------------------------------------------
def captured_men(rules: Rules, dst: int, mine: int, men: int) -> int:
    """The enemy men removed after one of `mine` lands on `dst` (§3.2: (a) ∪ (b) ∪ (c)).

    `mine` are the mover's pieces after the move (duces included), `men` the opponent's men
    (duces excluded: a dux is never captured nor part of a run, §3.5 latrunculi).
    """
    cap = 0
    limit = rules.custodial_max
    for ray in rules.rays[dst]:                         # (a) custodial
        run = n = 0
        for b in ray:
            if men & b:
                run |= b
                n += 1
                continue
            if n and n <= limit and mine & b:
                cap |= run
            break
        else:
            if n and n <= limit and rules.edge_closes:  # hashi-otoshi: the edge closes the run
                cap |= run
    for a, b in rules.pairs[dst]:                       # (c) intervention
        if men & a and men & b:
            cap |= a | b
    if rules.enclosure != "none":                       # (b) enclosure
        cap |= enclosed_groups(rules, dst, mine, men)
    return cap


def enclosed_groups(rules: Rules, dst: int, mine: int, men: int) -> int:
    """§3.2b: orthogonal groups of enemy men next to `dst` with no free neighbour.

    Reconstruction (§1): only groups touching the moved man are tested. A neighbour that is not
    one of the mover's pieces (an empty square, or an enemy dux in latrunculi) saves the group.
    """
    b = rules.board
    seeds, cap = b.adjacent4[dst] & men, 0
    corner_only = rules.enclosure == "corner_only"
    while seeds:
        group = seeds & -seeds
        while True:                                     # flood fill through orthogonal men
            grown = (group | spread4(group)) & men
            if grown == group:
                break
            group = grown
        seeds &= ~group
        if corner_only:
            if group & (group - 1) or not group & b.corners:
                continue
        elif not group & b.edge:
            continue
        if not spread4(group) & b.all & ~group & ~mine:
            cap |= group
    return cap


# ---------------------------------------------------------------------------------------------
# End checks (§3.3, §3.5): f(rules, state_after_move, mover) -> Outcome | None
# ---------------------------------------------------------------------------------------------
_OUTCOMES: dict[tuple, Outcome] = {}


def win(seat: int, why: Termination) -> Outcome:
    o = _OUTCOMES.get((seat, why))
    if o is None:
        o = _OUTCOMES[(seat, why)] = Outcome.win(seat, 2, why)
    return o


def draw(why: Termination) -> Outcome:
    o = _OUTCOMES.get((None, why))
    if o is None:
        o = _OUTCOMES[(None, why)] = Outcome.draw(2, why)
    return o


def end_capture_goal(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.3.1: enough captures win at once; `all_but_one`: the opponent has at most one man."""
    if rules.capture_goal == "all_but_one":
        return win(p, Termination.CAPTURE_GOAL) if s.side(1 - p).bit_count() <= 1 else None
    if rules.capture_goal and s.captures[p] >= rules.capture_goal:
        return win(p, Termination.CAPTURE_GOAL)
    return None


def end_lead(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.3.2: a lead of L that the mover failed to cut below L wins for the opponent."""
    if rules.lead_rule and s.captures[1 - p] - s.captures[p] >= rules.lead_rule:
        return win(1 - p, Termination.LEAD)
    return None


def end_no_moves(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.3.3: an opponent without a legal move loses."""
    return None if s.has_move() else win(p, Termination.NO_MOVES)


def end_repetition(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.3.4: the N-th occurrence of a position (squares + side to move) draws."""
    if rules.repetition and s.history.count(s.history[-1]) >= rules.repetition:
        return draw(Termination.REPETITION)
    return None


def end_no_capture(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.3.5: N plies in a row without a capture draw."""
    if rules.no_capture_limit and s.quiet >= rules.no_capture_limit:
        return draw(Termination.NO_CAPTURE_LIMIT)
    return None


def end_all_captured(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.5 mak-yek: the mover wins once the opponent has no men."""
    return None if s.side(1 - p) else win(p, Termination.ALL_CAPTURED)


def end_five(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.5 dai-hasami-shogi (1), (2): a qualifying five wins (after surviving a reply, if set)."""
    if has_five(rules, s.side(1 - p), 1 - p):
        return win(1 - p, Termination.FIVE_IN_ROW)
    if not rules.five_must_survive and has_five(rules, s.side(p), p):
        return win(p, Termination.FIVE_IN_ROW)
    return None


def end_too_few_men(rules: Rules, s: "HasamiState", p: int) -> Outcome | None:
    """§3.5 dai-hasami-shogi (4): both sides below five men draw."""
    if s.black.bit_count() < 5 and s.white.bit_count() < 5:
        return draw(Termination.TOO_FEW_MEN)
    return None


def has_five(rules: Rules, men: int, seat: int) -> bool:
    """Five of `seat`'s men in a row off its two home ranks, along `rules.five_shifts`."""
    m = men & ~rules.homes[seat]
    for k in rules.five_shifts:
        two = m & (m >> k)
        if two & (two >> 2 * k) & (m >> 4 * k):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HasamiState(TwoSeatTurns, State):
    """A position of one of the four games; see the module docstring for the fields."""

    rules: Rules = field(repr=False, hash=False)
    black: int
    white: int
    duces: int
    to_move: int
    captures: tuple[int, int]
    ply: int
    quiet: int                                       # plies since the last capture
    history: tuple[int, ...] = field(repr=False, hash=False)   # keys since the last capture
    outcome: Outcome | None = None
    last: Move | None = field(default=None, compare=False)
    last_captured: int = field(default=0, compare=False, repr=False)

    # -- protocol attributes --------------------------------------------------------------------
    @property
    def game(self) -> Game:
        from ..registry import get_game
        return get_game(self.rules.slug)

    @property
    def men(self) -> tuple[int, int]:
        return self.black.bit_count(), self.white.bit_count()

    @property
    def key(self) -> int:
        """The position as one int: the squares and the side to move (the repetition key of
        §3.3.4; capture counts and ply are not in it)."""
        k = self.rules.key_shift
        return self.black | self.white << k | self.duces << 2 * k | self.to_move << 3 * k

    def side(self, seat: int) -> int:
        return self.white if seat else self.black

    # -- moves ----------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        occ = self.black | self.white
        own = self.white if self.to_move else self.black
        lines = self.rules.lines
        cols, gather, top, ranks, files = self.rules.col_gather
        moves: list[Move] = []
        while own:
            low = own & -own
            own ^= low
            shift, f, along_rank, along_file = lines[low.bit_length() - 1]
            moves += along_rank[occ >> shift & files]
            moves += along_file[((occ >> f) & cols) * gather >> top & ranks]
        return moves

    def moves_from(self, src: int) -> tuple[Move, ...]:
        """The legal moves of the piece on `src` (assumed to be the mover's)."""
        occ = self.black | self.white
        cols, gather, top, ranks, files = self.rules.col_gather
        shift, f, along_rank, along_file = self.rules.lines[src]
        return (along_rank[occ >> shift & files]
                + along_file[((occ >> f) & cols) * gather >> top & ranks])

    def has_move(self) -> bool:
        """Whether the side to move has any legal move (bitboard test, no move list)."""
        occ = self.black | self.white
        empty = self.rules.board.all & ~occ
        own = self.white if self.to_move else self.black
        if spread4(own) & empty:
            return True
        if self.rules.jumps:
            return bool(_beyond_h(own, occ, empty) or _beyond_v(own, occ, empty))
        return False

    def is_legal(self, move) -> bool:
        if self.outcome is not None or not isinstance(move, Move):
            return False
        own = self.white if self.to_move else self.black
        return bool(own >> move.src & 1) and move in self.moves_from(move.src)

    def illegal_reason(self, move) -> str | None:
        if not isinstance(move, Move):
            return "not a move of this game"
        own = self.white if self.to_move else self.black
        where = square_name(move.src)
        if not own >> move.src & 1:
            return f"{SIDE_NAMES[self.to_move]} has no piece on {where}"
        if file_of(move.src) != file_of(move.dst) and rank_of(move.src) != rank_of(move.dst):
            return "pieces move along a rank or file only"
        if (self.black | self.white) >> move.dst & 1:
            return f"{square_name(move.dst)} is occupied"
        return "the way is blocked (pieces do not jump)" if not self.rules.jumps else \
            "the way is blocked (a jump goes over one adjacent piece onto the square beyond)"

    def _parse(self, text: str) -> Move:
        m = _NOTATION_RE.fullmatch(text.strip().lower())
        if not m:
            raise InvalidMoveError(f"{text!r} is not a move; write <from>-<to>, e.g. e1-e5")
        b = self.rules.board
        src, dst = b.parse_square(m.group(1)), b.parse_square(m.group(2))
        if src is None or dst is None:
            raise InvalidMoveError(
                f"{text!r} names a square off the {b.files}x{b.ranks} board "
                f"(files a-{b.file_letters()[-1]}, ranks 1-{b.ranks})")
        return move_of(src, dst)

    def apply(self, move: Move) -> "HasamiState":
        r = self.rules
        sb, db = 1 << move.src, 1 << move.dst
        p, duces = self.to_move, self.duces
        if duces & sb:
            duces ^= sb | db
        mine, theirs = (self.white, self.black) if p else (self.black, self.white)
        mine ^= sb | db
        cap = captured_men(r, move.dst, mine, theirs & ~duces) if r.near[move.dst] & theirs else 0
        captures, quiet = self.captures, self.quiet + 1
        if cap:
            theirs ^= cap
            n = cap.bit_count()
            captures = (captures[0], captures[1] + n) if p else (captures[0] + n, captures[1])
            quiet = 0
        black, white = (theirs, mine) if p else (mine, theirs)
        history = ()
        if r.repetition:
            s = r.key_shift
            key = black | white << s | duces << 2 * s | (1 - p) << 3 * s
            history = self.history + (key,) if not cap else (key,)
        new = _make(r, black, white, duces, 1 - p, captures, self.ply + 1, quiet, history,
                    None, move, cap)
        for rule in r.end_rules:
            outcome = rule(r, new, p)
            if outcome is not None:
                new.__dict__["outcome"] = outcome
                break
        return new

    # -- views ----------------------------------------------------------------------------------
    def piece_at(self, sq: int) -> str:
        """One character per square, as in the text diagram (§2): B W X Y or '.'."""
        bit = 1 << sq
        if self.black & bit:
            return "X" if self.duces & bit else "B"
        if self.white & bit:
            return "Y" if self.duces & bit else "W"
        return "."

    def rows(self) -> list[str]:
        """The board as strings of piece characters, top rank (White's side) first."""
        b = self.rules.board
        return ["".join(self.piece_at(code(f, r)) for f in range(b.files))
                for r in reversed(range(b.ranks))]

    def view(self, seat: int | None) -> dict:
        """Everything is public in this family: the board, counts, turn and last move."""
        b = self.rules.board
        return {
            "game": self.rules.slug, "files": b.files, "ranks": b.ranks,
            "file_letters": b.file_letters(), "board": self.rows(),
            "to_move": self.current_player, "ply": self.ply,
            "captures": list(self.captures), "men": list(self.men),
            "quiet_plies": self.quiet,
            "last_move": str(self.last) if self.last else None,
            "last_captured": [square_name(s) for s in bits_of(self.last_captured)],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    def to_dict(self) -> dict:
        return {
            "game": self.rules.slug, "options": self.rules.options_dict,
            "black": _names(self.black), "white": _names(self.white), "duces": _names(self.duces),
            "to_move": self.to_move, "captures": list(self.captures), "ply": self.ply,
            "quiet": self.quiet, "history": [format(k, "x") for k in self.history],
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "last": str(self.last) if self.last else None,
            "last_captured": _names(self.last_captured),
        }

    def render_text(self, seat: int | None = None) -> str:
        """The §2 diagram: file letters above and below, rank numbers either side."""
        b = self.rules.board
        letters = "    " + " ".join(b.file_letters())
        lines = [letters]
        for i, row in enumerate(self.rows()):
            rank = b.ranks - i
            lines.append(f"{rank:>2}  {' '.join(row)}  {rank}")
        lines.append(letters)
        return "\n".join(lines)

    def render_svg(self, seat: int | None = None) -> str:
        game = self.game
        pieces = {}
        for sq in bits_of(self.black | self.white):
            seat_of = 0 if self.black >> sq & 1 else 1
            pieces[(file_of(sq), rank_of(sq))] = game.disc(seat_of, bool(self.duces >> sq & 1))
        marked = set()
        if self.last is not None:
            marked = {self.last.squares[0], self.last.squares[1]}
        b = self.rules.board
        return svg.square_board(b.files, b.ranks, pieces, title=game.title,
                                shade=lambda x, y: "#d9c27e" if (x, y) in marked else None)


def _beyond_h(own: int, occ: int, empty: int) -> int:
    """Jump targets along ranks: a piece next to `own`, an empty square beyond it."""
    return ((((own << 1) & occ) << 1) | (((own >> 1) & occ) >> 1)) & empty


def _beyond_v(own: int, occ: int, empty: int) -> int:
    return ((((own << STRIDE) & occ) << STRIDE) | (((own >> STRIDE) & occ) >> STRIDE)) & empty


def _names(bb: int) -> list[str]:
    return [square_name(s) for s in bits_of(bb)]


def _make(rules: Rules, black: int, white: int, duces: int, to_move: int,
          captures: tuple[int, int], ply: int, quiet: int, history: tuple[int, ...],
          outcome: Outcome | None, last: Move | None, last_captured: int) -> HasamiState:
    """Build a state without the frozen-dataclass __init__ (the hot path of `apply`)."""
    new = _new_object(HasamiState)
    _set_attribute(new, "__dict__", {
        "rules": rules, "black": black, "white": white, "duces": duces, "to_move": to_move,
        "captures": captures, "ply": ply, "quiet": quiet, "history": history,
        "outcome": outcome, "last": last, "last_captured": last_captured})
    return new


_new_object, _set_attribute = object.__new__, object.__setattr__


# ---------------------------------------------------------------------------------------------
# The game declaration shared by the four slugs
# ---------------------------------------------------------------------------------------------
class FamilyGame(Game):
    """Base of the four games. A subclass declares the board, the start squares and the
    `configure` hook (its options → the `Rules` fields that differ from the defaults)."""

    files: ClassVar[int] = 9
    ranks: ClassVar[int] = 9
    start_black: ClassVar[tuple[str, ...]] = ()
    start_white: ClassVar[tuple[str, ...]] = ()
    start_duces: ClassVar[tuple[str, ...]] = ()      # each also listed as black or white
    man_labels: ClassVar[tuple[str, str]] = ("", "")

    def configure(self, options: Mapping[str, Any]) -> dict:
        """Hook: the `Rules` fields (other than the shared safeguards) for these options."""
        return {}

    def rules_for(self, options: Mapping[str, Any]) -> Rules:
        """The Rules for validated options; one shared value per distinct option set."""
        cache = self.__dict__.setdefault("_rules_cache", {})
        key = tuple(sorted(options.items()))
        rules = cache.get(key)
        if rules is None:
            rules = cache[key] = Rules(
                slug=self.slug, board=board(self.files, self.ranks), options=key,
                repetition=options["repetition"], no_capture_limit=options["no_capture_limit"],
                **self.configure(options))
        return rules

    def _new_state(self, players: int, seed: int, options: dict) -> HasamiState:
        return self.position(self.start_black, self.start_white, duces=self.start_duces,
                             options=options)

    def position(self, black: Iterable[str] = (), white: Iterable[str] = (), *,
                 duces: Iterable[str] = (), to_move: int = BLACK, captures=(0, 0), ply: int = 0,
                 options: Mapping | None = None, variant: str | None = None) -> HasamiState:
        """A hand-set position, e.g. for tests or puzzles.

            HasamiShogi().position(black=["c5", "f3"], white=["d5", "e5"], to_move=0,
                                   captures=(4, 2), options={"capture_goal": 6})

        `black`/`white` list square names of each side's pieces; `duces` names those of them that
        are duces (latrunculi). Its history starts with this position (counted once, §3.3.4).
        A side to move without a legal move has lost (`no_moves`, §3.5).
        """
        rules = self.rules_for(self.normalize_options(options, variant))
        b_bb, w_bb, d_bb = (self._mask(rules.board, names) for names in (black, white, duces))
        if b_bb & w_bb or d_bb & ~(b_bb | w_bb):
            raise InvalidStateError("a square holds two pieces, or a dux square has no piece")
        if to_move not in (BLACK, WHITE) or len(captures) != 2 or min(captures) < 0:
            raise InvalidStateError(f"bad side to move {to_move!r} or captures {captures!r}")
        state = _make(rules, b_bb, w_bb, d_bb, to_move, tuple(int(c) for c in captures), ply, 0,
                      (), None, None, 0)
        if rules.repetition:
            state.__dict__["history"] = (state.key,)
        if not state.has_move():
            state.__dict__["outcome"] = win(1 - to_move, Termination.NO_MOVES)
        return state

    @staticmethod
    def _mask(b: Board, names: Iterable[str]) -> int:
        mask = 0
        for name in names:
            sq = b.parse_square(str(name).strip().lower())
            if sq is None:
                raise InvalidStateError(
                    f"{name!r} is not a square of the {b.files}x{b.ranks} board")
            if mask >> sq & 1:
                raise InvalidStateError(f"{name} is listed twice")
            mask |= 1 << sq
        return mask

    def state_from_dict(self, d: Mapping) -> HasamiState:
        try:
            if d["game"] != self.slug:
                raise InvalidStateError(f"a {d['game']!r} state is not a {self.slug} state")
            rules = self.rules_for(self.normalize_options(d["options"]))
            b = rules.board
            black, white, duces, last_cap = (self._mask(b, d[k]) for k in
                                             ("black", "white", "duces", "last_captured"))
            last = None
            if d["last"] is not None:
                m = _NOTATION_RE.fullmatch(d["last"])
                last = move_of(b.parse_square(m.group(1)), b.parse_square(m.group(2)))
            to_move, ply, quiet = (_nat(d[k], k) for k in ("to_move", "ply", "quiet"))
            captures = tuple(_nat(c, "captures") for c in d["captures"])
            history = tuple(int(k, 16) for k in d["history"])
            outcome = Outcome.from_dict(d["outcome"])
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidStateError(f"bad {self.slug} state: {exc!r}") from exc
        if black & white or duces & ~(black | white) or to_move > 1 or len(captures) != 2:
            raise InvalidStateError(f"inconsistent {self.slug} state")
        return _make(rules, black, white, duces, to_move, captures, ply, quiet, history, outcome,
                     last, last_cap)

    def disc(self, seat: int, dux: bool) -> svg.Disc:
        """How a piece is drawn: Black dark, White light; a dux carries a `D`."""
        label = "D" if dux else self.man_labels[seat]
        if seat == BLACK:
            return svg.Disc("#222", "#000", label, "#fff")
        return svg.Disc("#fafafa", "#222", label, "#000")


def _nat(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidStateError(f"{name} must be a non-negative integer, not {value!r}")
    return value
