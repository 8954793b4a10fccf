"""Persistence: accounts, tables, the append-only gameplay log and finished matches; the club
manager's tables (``club``, ``club_models``).
"""

from .account_store import (
    AccountInfo,
    AccountStore,
    AddressTaken,
    SessionRow,
    TokenError,
    Withdrawal,
)
from .bot_store import BotLimit, BotRow, BotStore
from .club import ClubStore, ClubTx
from .migrate import Applied
from .moderation_store import ModerationStore, ReportRow, Standing
from .profile_store import ModeStats, PlayerMatchRow, ProfileStore
from .rating_store import HistoryPoint, LeaderRow, RatingChange, RatingRow, RatingStore
from .review_store import ReviewRow, ReviewStatus, ReviewStore
from .store import (
    ActionRecord,
    ChatRecord,
    MatchInfo,
    MigrationReport,
    NameTaken,
    SeatInfo,
    SmazzataRecord,
    Store,
    TableInfo,
    UserInfo,
    migrate_database,
)
from .tournament_store import (
    EntrantInfo,
    EntrantTaken,
    FinishedMatch,
    RoundInfo,
    RoundTableInfo,
    TournamentData,
    TournamentInfo,
    TournamentStore,
)

__all__ = [
    "AccountInfo",
    "AccountStore",
    "ActionRecord",
    "AddressTaken",
    "Applied",
    "BotLimit",
    "BotRow",
    "BotStore",
    "ChatRecord",
    "ClubStore",
    "ClubTx",
    "EntrantInfo",
    "EntrantTaken",
    "FinishedMatch",
    "HistoryPoint",
    "LeaderRow",
    "MatchInfo",
    "MigrationReport",
    "ModeStats",
    "ModerationStore",
    "NameTaken",
    "PlayerMatchRow",
    "ProfileStore",
    "RatingChange",
    "RatingRow",
    "RatingStore",
    "ReportRow",
    "ReviewRow",
    "ReviewStatus",
    "ReviewStore",
    "RoundInfo",
    "RoundTableInfo",
    "SeatInfo",
    "SessionRow",
    "SmazzataRecord",
    "Standing",
    "Store",
    "TableInfo",
    "TokenError",
    "TournamentData",
    "TournamentInfo",
    "TournamentStore",
    "UserInfo",
    "Withdrawal",
    "migrate_database",
]
