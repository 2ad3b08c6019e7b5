"""Move grammars: how each game's moves are written, for client authors (docs/rules/, "Notation").

A `Grammar` lists a game's move kinds. Each `MoveKind` gives an EBNF production, a regular
expression that the canonical text of every such move matches in full (what `str(move)`,
`legal_moves`, histories and exports print), examples, and whether `legal_moves` lists every
legal move of that kind. Parsers are a little more lenient than the canonical form (case, spaces);
`notes` says how. The grammars are checked against the parsers and random legal moves by
tests/games/test_notation_grammar.py.

    from games.notation import grammar_for
    grammar_for("glaisher").kind_of("e8:5+1/W @e8").name      # "turn"
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class MoveKind:
    name: str
    doc: str
    ebnf: str
    regex: str
    examples: tuple[str, ...]
    listed: bool = True                 # legal_moves lists every legal move of this kind
    pattern: re.Pattern = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(self.regex))

    def describe(self) -> dict:
        return {"kind": self.name, "doc": self.doc, "ebnf": self.ebnf, "regex": self.regex,
                "examples": list(self.examples), "listed": self.listed}


@dataclass(frozen=True)
class Grammar:
    kinds: tuple[MoveKind, ...]
    definitions: Mapping[str, str]      # shared EBNF productions (square, card, ...)
    notes: str

    @property
    def legal_moves_complete(self) -> bool:
        """True when `legal_moves` lists every legal move; False when some kinds are only
        described here (New Eleusis strings, guesses and free rules)."""
        return all(k.listed for k in self.kinds)

    def kind_of(self, notation: str) -> MoveKind | None:
        """The kind whose canonical form `notation` has (None: not canonical for this game)."""
        return next((k for k in self.kinds if k.pattern.fullmatch(notation)), None)

    def describe(self) -> dict:
        return {"legal_moves_complete": self.legal_moves_complete,
                "kinds": [k.describe() for k in self.kinds],
                "definitions": dict(self.definitions), "notes": self.notes}


# ---------------------------------------------------------------------------------------------
# Hasami Shogi family (docs/rules/hasami.md §5)
# ---------------------------------------------------------------------------------------------
_HASAMI_NOTES = ("Captures are never written: the position decides them. Input may be upper case "
                 "and may have surrounding spaces; the canonical form is lower case.")


def _board_move(files: str, ranks: int, doc: str, examples: tuple[str, ...]) -> Grammar:
    square = f"[{files[0]}-{files[-1]}][1-{ranks}]"
    return Grammar(
        kinds=(MoveKind("move", doc, 'move = square "-" square', f"{square}-{square}", examples),),
        definitions={"square": "file rank",
                     "file": " | ".join(f'"{f}"' for f in files),
                     "rank": " | ".join(f'"{r}"' for r in range(1, ranks + 1))},
        notes=_HASAMI_NOTES)


HASAMI_SHOGI = _board_move("abcdefghi", 9, "a man slides along its rank or file",
                           ("e1-e5", "a9-a2"))
DAI_HASAMI_SHOGI = _board_move("abcdefghi", 9, "a slide along a rank or file, or a jump over one "
                               "adjacent man onto the empty square beyond it", ("e1-e3", "c2-c6"))
MAK_YEK = _board_move("abcdefgh", 8, "a man slides along its rank or file", ("e3-e5", "a6-a4"))
LATRUNCULI = _board_move("abcdefghijkl", 8, "a man or the dux slides along its rank or file",
                         ("f1-f5", "g2-g6"))

# ---------------------------------------------------------------------------------------------
# The Glass Pearl Game (docs/rules/pearl.md §8)
# ---------------------------------------------------------------------------------------------
_POINT = "[a-s](?:1[0-9]|[1-9])"
_PEARL_DEFS = {"point": "column row", "column": '"a" | "b" | … | "s"  (the first N letters)',
               "row": '"1" | "2" | … | "19"  (up to N, no leading zero)'}
_PEARL_NOTES = ("Direction letters and `pass` are accepted in any case; points are written in "
                "lower case. A point off the board, a zero-length or bent slide is not a move.")
_SLIDE = MoveKind("slide", "the pusher's start and end points: it moves that far along one line, "
                  "pushing the pearls ahead of it", 'slide = point "-" point',
                  f"{_POINT}-{_POINT}", ("h1-h4", "g13-j13"))
_PASS = MoveKind("pass", "the forced pass of a side that has no move", 'pass = "pass"', "pass",
                 ("pass",))


def _pearl(*kinds: MoveKind) -> Grammar:
    return Grammar(kinds=kinds, definitions=_PEARL_DEFS, notes=_PEARL_NOTES)


PEARL_WAR = _pearl(_SLIDE, _PASS)
PEARL_FIVE = _pearl(
    MoveKind("centre", "the first ply: a pearl on the centre point", "centre = point", _POINT,
             ("j10", "h8")),
    MoveKind("push-in", "a new pearl enters on the point, pushing the run there one step in the "
             "direction", 'push-in = point ("N" | "E" | "S" | "W")', f"{_POINT}[NESW]",
             ("j10N", "k10E")))
PEARL_MAZE = _pearl(MoveKind("step", "the black pearl steps right, left, up or down, pushing",
                             'step = "R" | "L" | "U" | "D"', "[RLUD]", ("R", "D")))
PEARL_SURVIVAL = _pearl(
    MoveKind("set-up", "a seat takes a perimeter point of the square for its pearl",
             "set-up = point", _POINT, ("g13", "l8")),
    _SLIDE)
PEARL_YARD = _pearl(
    MoveKind("push", "the mover's piece moves one point that way (a white pearl is pushed in "
             "behind it)", 'push = "N" | "E" | "S" | "W"', "[NESW]", ("N", "E")),
    _PASS)

# ---------------------------------------------------------------------------------------------
# Glaisher (docs/rules/glaisher.md §5)
# ---------------------------------------------------------------------------------------------
_CELL = "(?:a[1-5]|b[1-6]|c[1-7]|d[1-8]|e[1-9]|f[2-9]|g[3-9]|h[4-9]|i[5-9])"
_PARTS = "[1-9][0-9]*(?:\\+[1-9][0-9]*)+"
GLAISHER = Grammar(
    kinds=(
        MoveKind("turn", "a whole turn: the stack on the cell splits into parts (largest first) "
                 "that fly in one direction, then a disc is placed on the cell after `@`; the "
                 "placement is left out when the split wins or the reserve is empty",
                 'turn = cell ":" parts "/" direction [" @" cell]',
                 f"{_CELL}:{_PARTS}/(?:E|W|NE|NW|SE|SW)(?: @{_CELL})?",
                 ("e8:5+1/W @e8", "b2:3+2+1/NE @h7", "e3:2+1/E")),
        MoveKind("setup", "a set-up turn (setup=free): a 6-stack of your colour on an empty cell",
                 'setup = "6@" cell', f"6@{_CELL}", ("6@e5",)),
    ),
    definitions={"cell": 'row number  (a1-a5, b1-b6, c1-c7, d1-d8, e1-e9, f2-f9, g3-g9, h4-h9, '
                         'i5-i9)',
                 "row": '"a" | … | "i"  (bottom to top)',
                 "parts": 'height "+" height {"+" height}  (all different, largest first)',
                 "direction": '"E" | "W" | "NE" | "NW" | "SE" | "SW"'},
    notes=("Input is case-insensitive, spaces around `:` `/` `@` are optional and parts may come in "
           "any order; the canonical form has lower-case cells, an upper-case direction, parts "
           "largest first and one space before `@`. `legal_moves` lists whole turns (every split "
           "with every placement), often 800 or more: read them a page at a time from "
           "GET matches/{id}/legal/ or leave them out with ?legal=none."))

# ---------------------------------------------------------------------------------------------
# Ring Rugby (docs/rules/ring-rugby.md §6)
# ---------------------------------------------------------------------------------------------
_RR = "[a-j](?:1[0-9]|20|[1-9])"
RING_RUGBY = Grammar(
    kinds=(
        MoveKind("ring", "plies 1 and 2: put a ring on one of your pieces", 'ring = "ring " cell',
                 f"ring {_RR}", ("ring c2", "ring d11")),
        MoveKind("step", "a piece moves to an empty cell (a carrier one king step, others up to "
                 "two)", 'step = cell "-" cell', f"{_RR}-{_RR}", ("c2-d4", "c2-c3")),
        MoveKind("attack", "a non-carrier knocks back an enemy piece along a rank or file",
                 'attack = cell "x" cell', f"{_RR}x{_RR}", ("c4xc6",)),
        MoveKind("pass", "the carrier hands its ring to a friendly piece beside or behind it",
                 'pass = cell ">" cell', f"{_RR}>{_RR}", ("c2>b1",)),
        MoveKind("big move", "advanced rules: a piece runs along its file up to a friendly piece",
                 'big-move = cell "=" cell', f"{_RR}={_RR}", ("c3=c7",)),
        MoveKind("goal-in", "a carrier on an entry cell scores", 'goal-in = cell "-G"',
                 f"{_RR}-G", ("d12-G",)),
    ),
    definitions={"cell": "file rank", "file": '"a" | "b" | … (width files)',
                 "rank": '"1" | … | "12"  (2 x half_depth ranks)'},
    notes="Exactly the canonical form: lower-case files, no spaces except after `ring`.")

# ---------------------------------------------------------------------------------------------
# New Eleusis (docs/rules/eleusis.md §6)
# ---------------------------------------------------------------------------------------------
_CARD = "(?:10|[2-9AJQK])[SHDC]"
_DECLARE = "(?:; prophet(?: if right)?)?"
NEW_ELEUSIS = Grammar(
    kinds=(
        MoveKind("play", "a scientist plays one card, optionally declaring Prophet if none is in "
                 "office (always, or only if the card is right)",
                 'play = "play " card [declaration]', f"play {_CARD}{_DECLARE}",
                 ("play 5H", "play 10C; prophet", "play QS; prophet if right")),
        MoveKind("string", "a string of 2 to 4 cards from the hand, judged as one play (not in "
                 "Express)", 'string = "play " card " " card [" " card [" " card]] [declaration]',
                 f"play {_CARD}(?: {_CARD}){{1,3}}{_DECLARE}", ("play 8S 9D 2C", "play 5H 6S; prophet"),
                 listed=False),
        MoveKind("guess", "Express: one card and a guess of the rule, used if the card is right",
                 'guess = "play " card "; guess " expression', f"play {_CARD}; guess .+",
                 ("play 5H; guess suit(cur) == next_suit(suit(prev))",), listed=False),
        MoveKind("no play", "claim that no card in the hand is right, showing it", 'noplay = "noplay"',
                 "noplay", ("noplay",)),
        MoveKind("judge", "the Prophet (or a free-text God) calls the pending play",
                 'judge = "judge right" | "judge wrong" [" " card]', f"judge (?:right|wrong(?: {_CARD})?)",
                 ("judge right", "judge wrong", "judge wrong 7C")),
        MoveKind("review", "God approves or disapproves the Prophet's call",
                 'review = "approve" | "disapprove" [" " card]', f"(?:approve|disapprove(?: {_CARD})?)",
                 ("approve", "disapprove", "disapprove 7C")),
        MoveKind("rule", "a player God commits the secret rule as an expression; legal_moves lists "
                 "the server's bank of rules, any valid expression is accepted",
                 'rule = "rule " expression', "rule (?!text ).+",
                 ("rule color(cur) != color(prev)",), listed=False),
        MoveKind("rule text", "a player God commits a free-text rule (not in Express) with its "
                 "lookback L, then judges every play", 'rule-text = "rule text " digit " " json-string',
                 'rule text [0-9]+ ".*"', ('rule text 1 "black after odd, red after even"',),
                 listed=False),
    ),
    definitions={"card": 'rank suit', "rank": '"A" | "2" | … | "10" | "J" | "Q" | "K"',
                 "suit": '"S" | "H" | "D" | "C"',
                 "declaration": '"; prophet" | "; prophet if right"',
                 "expression": "the rule language of docs/rules/eleusis.md §2.1"},
    notes=("Cards are read in any case and printed upper case (`10h` is `10H`); keywords are lower "
           "case with single spaces. legal_moves lists single cards (with and without "
           "declarations), noplay, calls and reviews, and the bank's rules; strings, guesses and "
           "rules of your own are legal too but unlisted: write them by this grammar."))

GRAMMARS: dict[str, Grammar] = {
    "hasami-shogi": HASAMI_SHOGI, "dai-hasami-shogi": DAI_HASAMI_SHOGI, "mak-yek": MAK_YEK,
    "latrunculi": LATRUNCULI, "pearl-war": PEARL_WAR, "pearl-five": PEARL_FIVE,
    "pearl-maze": PEARL_MAZE, "pearl-survival": PEARL_SURVIVAL, "pearl-yard": PEARL_YARD,
    "glaisher": GLAISHER, "ring-rugby": RING_RUGBY, "new-eleusis": NEW_ELEUSIS,
}


def grammar_for(slug: str) -> Grammar:
    """The move grammar of a registered game (KeyError for a game without one)."""
    return GRAMMARS[slug]
