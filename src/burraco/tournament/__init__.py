"""Tournament logic: entrants, pairings, scoring, standings, club evenings and seasons.

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
from .mitchell import Mitchell
from .pairing import Line, Pairing, Table
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
from .standings import Row, Standings, Total, competition_places, totals

__all__ = [
    "BYE_VP",
    "DEFAULT_VP_TABLE",
    "PLAY_ANOTHER_SMAZZATA",
    "POINTS",
    "PRIZE_PLACES",
    "Admission",
    "BracketMode",
    "EntrantId",
    "EntrantKind",
    "Evening",
    "EveningConfig",
    "EveningRanking",
    "EveningRow",
    "EveningType",
    "Game",
    "History",
    "Knockout",
    "KnockoutRound",
    "Line",
    "MatchDecision",
    "Mitchell",
    "Outcome",
    "OutcomeKind",
    "Pairing",
    "RematchPolicy",
    "Row",
    "Season",
    "SeasonRow",
    "Seating",
    "Standings",
    "Table",
    "TableResult",
    "Total",
    "TwoLeftOver",
    "admit",
    "bracket_size",
    "choose_byes",
    "choose_vp_table",
    "competition_places",
    "danish_round",
    "decide",
    "draw_names",
    "entrant_ids",
    "first_round",
    "individual_round",
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
