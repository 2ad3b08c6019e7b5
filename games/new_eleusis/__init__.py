"""New Eleusis (docs/rules/eleusis.md): the card game of inductive reasoning.

    cards.py     card kinds 0..51 and their notation (§2, §6)
    rulelang.py  the rule language: parser, checker, printer, verdict tables (§2.1)
    bank.py      the machine God's bank of valid rules (§2 round set-up)
    game.py      the game: deal, turns, Prophet, sudden death, scoring, views (§2-§6)
    induction.py evidence from a view and a ranked space of candidate rules, for engines (§8)
"""
from ..registry import register
from .game import (
    CommitRule, CommitText, EleusisState, Judge, NewEleusis, NoPlay, Play, Review,
    commitment_hash,
)

register(NewEleusis)
EleusisState.game = NewEleusis.instance

__all__ = ["CommitRule", "CommitText", "EleusisState", "Judge", "NewEleusis", "NoPlay", "Play",
           "Review", "commitment_hash"]
