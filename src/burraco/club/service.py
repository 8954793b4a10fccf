"""The club manager: what officers and members do, checked and stored in one transaction each.

``ClubService`` is the one object the server and the command line call. It is made of the
parts of the manager, one concern each, all sharing its store, clock and seeds:

    clubs       clubs and members               seasons     a season's settings
    schedule    the calendar, evenings          checkin     check-in (T30), overrides
    seating     the draw, seatings, rests       results     results, corrections, checks, timer
    reading     an evening's view, standings    money       fees and prizes, closing a season
    reports     member and club reports         audit       the audit trail, e-mails sent

Every change runs in one database transaction and checks its input first: an unknown player, a
result that does not add up, a date outside the season... raise ``ClubError`` and the
transaction is rolled back, so nothing changes. Officers' changes are written to the audit trail
(who, when, what, why) in the same transaction: ``access.Part.operation`` is the one shape of
that (find the target, check the actor, open the transaction, ``op.audit``).

Rankings are never stored: they are recomputed from the seatings and results with
``burraco.tournament`` (``Evening``, ``EveningRanking``, ``Season``) whenever they are read, so a
corrected result corrects every ranking at once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from burraco.store import Store
from burraco.store.club import ClubStore

from .access import Actor, Role, utcnow
from .audit import Audit
from .checkin import Checkin
from .checks import check_email, check_name, check_score
from .clubs import Clubs
from .evenings import build_evening, evening_config, names_of, pairing_of, results_of
from .money import Money
from .reading import Reading
from .reports import Reports
from .results import Results
from .schedule import Schedule
from .seasons import Seasons
from .seating import Seatings
from .views import (
    CheckinView,
    CheckView,
    ClubReport,
    Draw,
    EveningSummary,
    EveningView,
    GameView,
    MemberEvening,
    MemberReport,
    PrizesReport,
    ResultInput,
    SeasonEvening,
    SeasonPrize,
    StandingsView,
    TableView,
    WeeklyPrize,
)

__all__ = [
    "Actor",
    "CheckView",
    "CheckinView",
    "ClubReport",
    "ClubService",
    "Draw",
    "EveningSummary",
    "EveningView",
    "GameView",
    "MemberEvening",
    "MemberReport",
    "PrizesReport",
    "ResultInput",
    "Role",
    "SeasonEvening",
    "SeasonPrize",
    "StandingsView",
    "TableView",
    "WeeklyPrize",
    "build_evening",
    "check_email",
    "check_name",
    "check_score",
    "evening_config",
    "names_of",
    "pairing_of",
    "results_of",
]


class ClubService(
    Clubs, Seasons, Schedule, Checkin, Seatings, Results, Reading, Money, Reports, Audit
):
    """The club manager's operations. ``clock`` and ``seeds`` are injectable for tests.

    The parts are mixins of one object rather than objects of their own: they share the
    store, the clock and the seeds (which tests replace) with nothing to forward, and each
    part's operations are its own module's (see the module's table)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(ClubStore(store), clock=clock, seeds=seeds)
