"""Ratings arithmetic: a rating per player and mode, updated after every rated match.

Pure logic below the store and the server (no I/O, no asyncio): the model is OpenSkill's
Weng-Lin Plackett-Luce (the ``openskill`` package), which rates teams of any size and any number
of places, so one model serves 2 players, 4 players in pairs with an individual rating each, and
3 players (docs/ratings.md says why this library and how it is set up).
"""

from .anchors import BOT_ANCHORS, bot_rating
from .mode import Mode
from .outcome import MatchOutcome, Seat, outcome_of
from .rate import Entrant, RatingsError, rate
from .rated import unrated_reason
from .settings import PRESETS, RatingSettings
from .summary import SeatSummary, summarize
from .value import Rating

__all__ = [
    "BOT_ANCHORS",
    "PRESETS",
    "Entrant",
    "MatchOutcome",
    "Mode",
    "Rating",
    "RatingSettings",
    "RatingsError",
    "Seat",
    "SeatSummary",
    "bot_rating",
    "outcome_of",
    "rate",
    "summarize",
    "unrated_reason",
]
