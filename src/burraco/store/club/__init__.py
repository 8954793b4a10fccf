"""Persistence of the club manager (tables ``club_*``, migration ``0002_club``).

``ClubStore(store)`` gives transactions: ``async with clubs.write() as tx`` commits when the block
ends and rolls everything back when it raises, so an operation that finds bad input half way
changes nothing; ``clubs.read()`` is for looking only. ``ClubTx`` reads and writes rows and gives
plain frozen dataclasses back (``records``), never ORM objects. What the rows mean (the draw, the
rankings, the fees) is computed in ``burraco.club`` from these rows with ``burraco.tournament``.

Modules: ``records`` (the dataclasses and the lifecycles ``EveningStatus``, ``CheckStatus``,
``PrizeKind``), ``convert`` (rows to records), ``transactions`` (``ClubStore``, ``ClubTx``) and
the parts of a transaction: ``members``, ``calendar``, ``play``, ``ledger``.
"""

from .records import (
    SEASON_SETTINGS,
    AuditEntry,
    ChargeInfo,
    CheckinInfo,
    CheckStatus,
    ClubInfo,
    EveningInfo,
    EveningState,
    EveningStatus,
    GameInfo,
    MemberInfo,
    NewSeat,
    PaymentInfo,
    PrizeInfo,
    PrizeKind,
    RestRow,
    ResultRow,
    ScoreCheckInfo,
    SeasonInfo,
    SeatRow,
)
from .transactions import ClubStore, ClubTx

__all__ = [
    "SEASON_SETTINGS",
    "AuditEntry",
    "ChargeInfo",
    "CheckStatus",
    "CheckinInfo",
    "ClubInfo",
    "ClubStore",
    "ClubTx",
    "EveningInfo",
    "EveningState",
    "EveningStatus",
    "GameInfo",
    "MemberInfo",
    "NewSeat",
    "PaymentInfo",
    "PrizeInfo",
    "PrizeKind",
    "RestRow",
    "ResultRow",
    "ScoreCheckInfo",
    "SeasonInfo",
    "SeatRow",
]
