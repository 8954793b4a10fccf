"""Tournament logic: entrants, pairings, scoring, standings, club evenings and seasons, and an
online tournament's settings, lifecycles and state (every decision of a running tournament).

Pure: the standard library and the engine only; no I/O, no asyncio, no global random state
(randomness is passed in as ``random.Random``). See docs/tournaments.md.
"""

from .byes import BYE_VP, choose_byes
from .club import (
    POINTS,
    Evening,
    EveningConfig,
    EveningRanking,
    EveningRow,
    EveningType,
    Game,
    Seating,
    TwoLeftOver,
    draw_names,
    ranking_points,
    sit_outs,
)
from .danish import RematchPolicy, danish_round, first_round, partial_elimination
from .entrants import Admission, EntrantId, EntrantKind, admit, entrant_ids
from .fours import individual_round, seat_fours
from .history import History
from .knockout import (
    PLAY_ANOTHER_SMAZZATA,
    BracketMode,
    Knockout,
    KnockoutRound,
    MatchDecision,
    bracket_size,
    decide,
)
from .lifecycle import (
    ACTIVE_TOURNAMENTS,
    COUNTED_ENTRANTS,
    EntrantStatus,
    RoundStatus,
    TournamentStatus,
)
from .mitchell import Mitchell
from .pairing import Line, Pairing, Table
from .results import (
    ClosingsUnknown,
    EarlierMatch,
    FinishedTable,
    TableVerdict,
    double_forfeit_score,
)
from .roundrobin import round_robin, round_robin_round, round_robin_rounds
from .scoring import (
    DEFAULT_VP_TABLE,
    Outcome,
    OutcomeKind,
    TableResult,
    choose_vp_table,
    round_outcomes,
    score,
    sit_out,
    table_outcomes,
)
from .season import PRIZE_PLACES, Season, SeasonRow
from .settings import (
    MAX_ENTRANTS,
    AbsentPolicy,
    TournamentSettings,
    TournamentSettingsError,
    TournamentSystem,
)
from .standings import Row, Standings, Total, competition_places, totals
from .state import NextRound, RoundRecord, TableRecord, TournamentState
from .systems import (
    PAIRING_SYSTEMS,
    DanishSystem,
    KnockoutSystem,
    MitchellSystem,
    PairingSystem,
    RankedRow,
    RoundDraw,
    RoundRobinSystem,
    pairing_system,
)

__all__ = [
    "ACTIVE_TOURNAMENTS",
    "BYE_VP",
    "COUNTED_ENTRANTS",
    "DEFAULT_VP_TABLE",
    "MAX_ENTRANTS",
    "PAIRING_SYSTEMS",
    "PLAY_ANOTHER_SMAZZATA",
    "POINTS",
    "PRIZE_PLACES",
    "AbsentPolicy",
    "Admission",
    "BracketMode",
    "ClosingsUnknown",
    "DanishSystem",
    "EarlierMatch",
    "EntrantId",
    "EntrantKind",
    "EntrantStatus",
    "Evening",
    "EveningConfig",
    "EveningRanking",
    "EveningRow",
    "EveningType",
    "FinishedTable",
    "Game",
    "History",
    "Knockout",
    "KnockoutRound",
    "KnockoutSystem",
    "Line",
    "MatchDecision",
    "Mitchell",
    "MitchellSystem",
    "NextRound",
    "Outcome",
    "OutcomeKind",
    "Pairing",
    "PairingSystem",
    "RankedRow",
    "RematchPolicy",
    "RoundDraw",
    "RoundRecord",
    "RoundRobinSystem",
    "RoundStatus",
    "Row",
    "Season",
    "SeasonRow",
    "Seating",
    "Standings",
    "Table",
    "TableRecord",
    "TableResult",
    "TableVerdict",
    "Total",
    "TournamentSettings",
    "TournamentSettingsError",
    "TournamentState",
    "TournamentStatus",
    "TournamentSystem",
    "TwoLeftOver",
    "admit",
    "bracket_size",
    "choose_byes",
    "choose_vp_table",
    "competition_places",
    "danish_round",
    "decide",
    "double_forfeit_score",
    "draw_names",
    "entrant_ids",
    "first_round",
    "individual_round",
    "pairing_system",
    "partial_elimination",
    "ranking_points",
    "round_outcomes",
    "round_robin",
    "round_robin_round",
    "round_robin_rounds",
    "score",
    "seat_fours",
    "sit_out",
    "sit_outs",
    "table_outcomes",
    "totals",
]
