"""The Hasami Shogi family (rules/hasami.md): four games on one shared capture core.

`hasami-shogi` (variants `standard`, `tenbin`), `dai-hasami-shogi`, `mak-yek`, `latrunculi`.
Importing the package registers them.
"""
from .dai import DaiHasamiShogi
from .family import FamilyGame, HasamiState, Move, Rules
from .latrunculi import Latrunculi
from .makyek import MakYek
from .shogi import HasamiShogi

__all__ = ["DaiHasamiShogi", "FamilyGame", "HasamiShogi", "HasamiState", "Latrunculi", "MakYek",
           "Move", "Rules"]
