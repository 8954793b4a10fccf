"""One interface for the pairing systems of an online tournament, one implementation each.

A ``PairingSystem`` knows, for a ``TournamentState``: how many rounds it has, how to pair round
``n``, how to rank the entrants and what a finished table is worth. ``pairing_system`` picks
the implementation from the settings' ``system`` (a registry, so the server never branches on
a system's name). The pairing functions themselves are the pure ones of this package
(``danish``, ``fours``, ``roundrobin``, ``mitchell``, ``knockout``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .danish import danish_round, first_round
from .entrants import EntrantId, EntrantKind
from .fours import individual_round
from .knockout import Knockout, decide
from .mitchell import Mitchell
from .pairing import Pairing
from .results import ClosingsUnknown, EarlierMatch, FinishedTable, TableVerdict, scored
from .roundrobin import round_robin_round, round_robin_rounds
from .settings import TournamentSettings, TournamentSystem
from .standings import Row

if TYPE_CHECKING:
    from .state import TournamentState


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A round's pairing and, in a knockout, its bracket slots (T24)."""

    pairing: Pairing
    slots: tuple[EntrantId | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class RankedRow:
    """One line of the ranking: the place (None: not decided yet, in a knockout), the entrant's
    totals, and whether the place is shared (T17)."""

    place: int | None
    row: Row
    tied: bool


class PairingSystem(ABC):
    """What differs from one pairing system to another."""

    name: TournamentSystem

    @abstractmethod
    def total_rounds(self, state: TournamentState) -> int:
        """The rounds of a tournament of ``state.admitted`` (at least 2 entrants)."""

    @abstractmethod
    def pair(self, state: TournamentState, number: int) -> RoundDraw:
        """Round ``number``'s tables and byes, from the rounds in ``state``."""

    def ranking(self, state: TournamentState) -> tuple[RankedRow, ...]:
        """T17: by VP, then MP, ex aequo sharing a place."""
        return tuple(RankedRow(r.place, r, r.tied) for r in state.standings().rows)

    def settle(
        self, state: TournamentState, finished: FinishedTable
    ) -> TableVerdict | EarlierMatch:
        """A VP system scores every table (R65, R66, T14); nobody wins a match as such."""
        return scored(finished, state.settings.table())


class DanishSystem(PairingSystem):
    """T18-T21: round 1 at random, then by the standings; T21 eliminations sit out every
    following round; single players at 4-player tables get new partners (T2)."""

    name = TournamentSystem.DANISH

    def total_rounds(self, state: TournamentState) -> int:
        return state.settings.danish_rounds

    def pair(self, state: TournamentState, number: int) -> RoundDraw:
        rng = state.rng(number)
        history = state.history()
        out = state.eliminated()  # T21: they sit out every following round
        if state.settings.entrant_kind is EntrantKind.INDIVIDUAL_FOUR:
            if number == 1:
                order = list(state.admitted)
                rng.shuffle(order)
            else:
                order = [e for e in state.standings().pairing_order(rng) if e not in out]
            return RoundDraw(individual_round(order, history, round=number))
        if number == 1:
            return RoundDraw(first_round(state.admitted, rng))
        order = [e for e in state.standings().pairing_order(rng) if e not in out]
        return RoundDraw(
            danish_round(
                order,
                history,
                round=number,
                last_round=number == state.total_rounds(),
                policy=state.settings.rematch,
            )
        )


class RoundRobinSystem(PairingSystem):
    """Everyone meets everyone once, from the order drawn at the start (circle method, T20's
    bye for an odd number)."""

    name = TournamentSystem.ROUND_ROBIN

    def total_rounds(self, state: TournamentState) -> int:
        return round_robin_rounds(len(state.admitted))

    def pair(self, state: TournamentState, number: int) -> RoundDraw:
        return RoundDraw(round_robin_round(state.drawn_order(), number))


class MitchellSystem(PairingSystem):
    """T22: stations drawn at the start; at most as many rounds as tables."""

    name = TournamentSystem.MITCHELL

    def total_rounds(self, state: TournamentState) -> int:
        tables = Mitchell.seat(state.admitted).max_rounds
        return min(state.settings.rounds or tables, tables)

    def pair(self, state: TournamentState, number: int) -> RoundDraw:
        return RoundDraw(Mitchell.seat(state.drawn_order()).round(number))


class KnockoutSystem(PairingSystem):
    """T23-T25: a bracket of the next power of two; each match has a winner (T23's closings,
    then one more smazzata at a time; T15: the line out of time loses); ranked by the round of
    elimination."""

    name = TournamentSystem.KNOCKOUT

    def total_rounds(self, state: TournamentState) -> int:
        n = len(state.admitted)
        return (1 << (n - 1).bit_length()).bit_length() - 1

    def pair(self, state: TournamentState, number: int) -> RoundDraw:
        rng = state.rng(number)
        bracket = state.knockout()
        if bracket is None:
            bracket = Knockout.draw(state.admitted, rng, state.settings.bracket_mode)
        else:
            # The last round is finished: rebuild it without its winners, then advance it with
            # the winners of its played matches (its byes advance by themselves).
            last = bracket.rounds[-1]
            won = state.round(last.round).winners()
            played = [e for a, b in last.matches if a and b for e in (a, b) if e in won]
            bracket = Knockout(bracket.entrants, bracket.mode, bracket.rounds, bracket.winners[:-1])
            bracket = bracket.advance(played, rng)
        current = bracket.rounds[-1]
        return RoundDraw(current.pairing(), current.slots)

    def ranking(self, state: TournamentState) -> tuple[RankedRow, ...]:
        """T25: the winner, the finalist, then ex aequo by the round of elimination; entrants
        still in come first, with no place yet."""
        bracket = state.knockout()
        places: dict[str, int] = {}
        if bracket is not None:
            for place, group in bracket.ranking():
                for e in group:
                    places[e] = place
        order = sorted(
            state.standings().rows,
            key=lambda r: (places.get(r.entrant, 0), -r.vp, -r.mp, r.entrant),
        )
        return tuple(RankedRow(places.get(r.entrant), r, False) for r in order)

    def settle(
        self, state: TournamentState, finished: FinishedTable
    ) -> TableVerdict | EarlierMatch:
        """T23/T15: the match's winner, or, when the totals and closings of every smazzata at
        this pairing tie, the match to remember while one more is played. A double forfeit is
        decided by a draw seeded with the table (the same after a restart); a match still tied
        after ``MAX_EXTRA_SMAZZATE`` extra smazzate by a draw seeded with the tournament's seed
        and the pairing's first table (docs/tournaments.md)."""
        if finished.double_forfeit:
            winner: int | None = random.Random(finished.table_id).randrange(2)
        else:
            totals = finished.match_totals
            closings = finished.match_closings
            timed_out = finished.timed_out
            if closings is None:
                if timed_out is None and totals[0] == totals[1]:
                    raise ClosingsUnknown(
                        f"table {finished.table_id}: the match is tied at {totals[0]} and its "
                        "closings (T23's tie-break) could not be read"
                    )
                closings = (0, 0)  # not needed: the totals or the clock decide (T23, T15)
            first_table = finished.earlier[0].table_id if finished.earlier else finished.table_id
            winner = decide(
                totals,
                closings,
                timed_out,
                extra_smazzate=len(finished.earlier),
                lots=f"{state.seed}:{first_table}",
            ).winner
        if winner is None:
            return finished.as_earlier()
        return scored(finished, state.settings.table(), winner=winner, knockout=True)


PAIRING_SYSTEMS: Final[Mapping[TournamentSystem, PairingSystem]] = {
    system.name: system
    for system in (DanishSystem(), RoundRobinSystem(), MitchellSystem(), KnockoutSystem())
}


def pairing_system(settings: TournamentSettings) -> PairingSystem:
    """The implementation of ``settings.system``."""
    return PAIRING_SYSTEMS[settings.pairing_system]
