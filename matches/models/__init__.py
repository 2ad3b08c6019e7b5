"""Match records (design §1): thin models with database constraints; logic lives in services.

One module per concern; every model is importable from `matches.models`."""
from .analysis import Analysis, PositionAnalysis
from .challenges import Challenge, ChallengeSeat
from .conditional import ConditionalMoves
from .events import Event
from .jobs import EngineJob
from .ladders import Ladder, LadderEntry, LadderEvent
from .profiles import Profile
from .ratings import Rating, RatingChange
from .records import Match, MatchSeat, Move
from .seats import AI_LEVEL_MAX, Seat
from .tokens import ApiToken
from .tournaments import Tournament, TournamentEntry, TournamentGame
from .vacations import Vacation

__all__ = ["AI_LEVEL_MAX", "Analysis", "ApiToken", "Challenge", "ChallengeSeat", "ConditionalMoves", "EngineJob",
           "Event", "Ladder", "LadderEntry", "LadderEvent", "Match", "MatchSeat", "Move", "PositionAnalysis", "Profile", "Rating",
           "RatingChange", "Seat", "Tournament", "TournamentEntry", "TournamentGame", "Vacation"]
