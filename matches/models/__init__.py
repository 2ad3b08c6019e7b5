"""Match records (design §1): thin models with database constraints; logic lives in services.

One module per concern; every model is importable from `matches.models`."""
from .analysis import Analysis
from .challenges import Challenge, ChallengeSeat
from .events import Event
from .ladders import Ladder, LadderEntry
from .ratings import Rating
from .records import Match, MatchSeat, Move
from .seats import AI_LEVEL_MAX, Seat
from .tokens import ApiToken

__all__ = ["AI_LEVEL_MAX", "Analysis", "ApiToken", "Challenge", "ChallengeSeat", "Event", "Ladder", "LadderEntry",
           "Match", "MatchSeat", "Move", "Rating", "Seat"]
