"""Persistence: accounts, tables, the append-only gameplay log and finished matches; the club
manager's tables (``club``, ``club_models``).
"""

from .club import ClubStore, ClubTx
from .migrate import Applied
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

__all__ = [
    "ActionRecord",
    "Applied",
    "ChatRecord",
    "ClubStore",
    "ClubTx",
    "MatchInfo",
    "MigrationReport",
    "NameTaken",
    "SeatInfo",
    "SmazzataRecord",
    "Store",
    "TableInfo",
    "UserInfo",
    "migrate_database",
]
