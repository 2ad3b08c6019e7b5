"""The Hasami Shogi family (docs/rules/hasami.md): four games on one shared capture core.

`hasami-shogi` (variants `standard`, `tenbin`), `dai-hasami-shogi`, `mak-yek`, `latrunculi`.
Importing the package registers them. Test positions are set up by hand with `position`:

    from games.hasami import HasamiShogi
    s = HasamiShogi.instance.position(black=["c5", "f3"], white=["d5", "e5"], to_move=0,
                                      captures=(4, 2), options={"lead_rule": 0})
    s.play("f3-f5").captures        # (6, 2)
"""
from .dai import DaiHasamiShogi
from .family import FamilyGame, HasamiState, Move, Rules
from .latrunculi import Latrunculi
from .makyek import MakYek
from .shogi import HasamiShogi

__all__ = ["DaiHasamiShogi", "FamilyGame", "HasamiShogi", "HasamiState", "Latrunculi", "MakYek",
           "Move", "Rules"]
