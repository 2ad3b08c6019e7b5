"""New Eleusis (docs/rules/eleusis.md): the card game of inductive reasoning.

    cards.py     card kinds 0..51 and their notation (§2, §6)
    rulelang/    the rule language: syntax, compiler, verdict tables (§2.1)
    bank.py      the machine God's bank of valid rules (§2 round set-up)
    moves.py     move values and their notation (§6)
    rounds.py    set-up numbers, the commitment, finished-round records, scoring (§2-§4)
    views.py     what each seat may see, and diagrams of it (§2.2)
    game.py      the state, legal moves and the next state: deal, turns, Prophet, sudden death
    induction.py evidence from a view and a ranked space of candidate rules, for engines (§8)
"""
from ..registry import register
from .game import EleusisState, NewEleusis
from .moves import CommitRule, CommitText, Judge, NoPlay, Play, Review
from .rounds import RoundRecord, commitment_hash

register(NewEleusis)
EleusisState.game = NewEleusis.instance

__all__ = ["CommitRule", "CommitText", "EleusisState", "Judge", "NewEleusis", "NoPlay", "Play",
           "Review", "RoundRecord", "commitment_hash"]
