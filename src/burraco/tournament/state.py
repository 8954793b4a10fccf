"""An online tournament as a pure value: the settings, the entrants and the results so far,
and every decision taken from them (RULES.md T1-T25).

The server keeps a tournament in its store and reads it back before each change; it builds a
``TournamentState`` from what it read and asks it: the standings (T17), who is out (T21), how
many rounds there are, the next round's pairing (``next_round``: the pairing system's, or the
end of the tournament) and what a finished table is worth (``settle``: T14, T15, T23). The
state never changes itself and never does I/O: the server stores what it decides.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cached_property

from .danish import partial_elimination
from .entrants import EntrantId
from .history import History
from .knockout import Knockout, KnockoutRound
from .pairing import Line, Pairing, Table
from .results import EarlierMatch, FinishedTable, TableVerdict
from .samecards import PlayedTable, TableComparison, compare
from .scoring import Outcome, OutcomeKind, sit_out
from .settings import TournamentSettings
from .standings import Standings
from .systems import PairingSystem, RankedRow, RoundDraw, pairing_system


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table of a round as stored: its lines and, once finished, its verdict."""

    number: int
    lines: tuple[Line, Line]
    verdict: TableVerdict | None = None

    @property
    def seating(self) -> Table:
        return Table(self.number, self.lines)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as stored: its tables, its byes, whether it is over, a knockout's slots."""

    number: int
    finished: bool
    tables: tuple[TableRecord, ...]
    byes: tuple[EntrantId, ...] = ()
    relaxed: bool = False
    slots: tuple[EntrantId | None, ...] | None = None
    """A knockout round's bracket slots (T24), None in the other systems."""

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.number, tuple(t.seating for t in self.tables), self.byes, self.relaxed)

    def winners(self) -> set[EntrantId]:
        """The entrants of the lines that won their knockout match so far (T23, T15)."""
        out: set[EntrantId] = set()
        for table in self.tables:
            if table.verdict is not None and table.verdict.winner is not None:
                out.update(table.lines[table.verdict.winner])
        return out


@dataclass(frozen=True, slots=True)
class NextRound:
    """What comes after the rounds so far: ``draw`` is the next round, or None when the
    tournament is over; ``eliminated`` are those who went out after the last round (T21, to be
    told)."""

    number: int
    draw: RoundDraw | None
    eliminated: tuple[EntrantId, ...] = ()


@dataclass(frozen=True)
class TournamentState:
    """A tournament's settings, entrants and rounds so far, and what follows from them."""

    settings: TournamentSettings
    seed: int
    """The tournament's draws (T18, T24) come from it: the same after a restart."""
    admitted: tuple[EntrantId, ...]
    """Entrants playing, in registration order (empty before the start, T1)."""
    rounds: tuple[RoundRecord, ...] = ()

    @property
    def system(self) -> PairingSystem:
        return pairing_system(self.settings)

    @cached_property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(r.pairing for r in self.rounds)

    @cached_property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Byes of every round (T20) and every table result so far."""
        out: list[Outcome] = []
        for rnd in self.rounds:
            out.extend(sit_out(b, rnd.number) for b in rnd.byes)
            if self.settings.same_cards:
                out.extend(self._same_cards_outcomes(rnd))
                continue
            for table in rnd.tables:
                if table.verdict is not None:
                    out.extend(_outcomes(table.seating, table.verdict, rnd.number))
        return tuple(out)

    def comparison(self, number: int) -> dict[int, TableComparison]:
        """A same-cards round's comparison, table by table (empty while the round is played,
        and for the tables that ended by a timeout or a forfeit: T14 scores those)."""
        rnd = self.round(number)
        if not self.settings.same_cards or not rnd.finished:
            return {}
        played = [
            PlayedTable(t.number, t.verdict.deals, not t.verdict.technical)
            for t in rnd.tables
            if t.verdict is not None
        ]
        return compare(played, self.settings.table())

    def _same_cards_outcomes(self, rnd: RoundRecord) -> list[Outcome]:
        """A same-cards round counts once it is over (before, the other tables' results would
        tell the cards): the comparison's MP and VP, T14's for a timeout or a forfeit."""
        if not rnd.finished:
            return []
        compared = self.comparison(rnd.number)
        out: list[Outcome] = []
        for table in rnd.tables:
            verdict = table.verdict
            if verdict is None:
                continue
            if table.number in compared:
                c = compared[table.number]
                verdict = replace(verdict, mp=c.mp, vp=c.vp)
            out.extend(_outcomes(table.seating, verdict, rnd.number))
        return out

    def round(self, number: int) -> RoundRecord:
        """Round ``number`` as stored (KeyError if there is none)."""
        for rnd in self.rounds:
            if rnd.number == number:
                return rnd
        raise KeyError(number)

    def history(self) -> History:
        return History.of(self.pairings)

    def standings(self) -> Standings:
        """T17: VP, then MP, then ex aequo."""
        return Standings.of(self.outcomes, self.admitted)

    def rng(self, round: int) -> random.Random:
        """The draws of round ``round``: the same after a restart."""
        return random.Random(f"{self.seed}:{round}")

    def drawn_order(self) -> list[EntrantId]:
        """The order drawn at the start (round robin and Mitchell stations)."""
        order = list(self.admitted)
        self.rng(0).shuffle(order)
        return order

    def eliminated(self) -> dict[EntrantId, int]:
        """T21: the entrants out of the tournament, with the round after which each went out:
        after each finished round with a threshold, those below it among the entrants still in
        (the standings of that moment)."""
        thresholds = self.settings.thresholds()
        if not thresholds:
            return {}
        finished = {r.number for r in self.rounds if r.finished}
        out: dict[EntrantId, int] = {}
        for after in sorted(thresholds):
            if after not in finished:
                break
            still = [e for e in self.admitted if e not in out]
            kept = set(still)
            outcomes = [o for o in self.outcomes if o.round <= after and o.entrant in kept]
            standings = Standings.of(outcomes, still)
            for entrant in partial_elimination(standings, after_round=after, thresholds=thresholds):
                out[entrant] = after
        return out

    def total_rounds(self) -> int:
        """How many rounds the tournament has (0 with fewer than 2 entrants)."""
        if len(self.admitted) < 2:
            return 0
        return self.system.total_rounds(self)

    def knockout(self) -> Knockout | None:
        """The bracket as played so far (None before round 1, T24): the rounds drawn, and the
        winners of those finished (a bye advances by itself)."""
        rounds = [r for r in self.rounds if r.slots is not None]
        if not rounds:
            return None
        winners: list[tuple[EntrantId, ...]] = []
        for rnd in rounds:
            if not rnd.finished:
                break
            won = rnd.winners()
            advancing: list[EntrantId] = []
            slots = rnd.slots or ()
            for i in range(0, len(slots), 2):
                a, b = slots[i], slots[i + 1]
                if a is None or b is None:
                    present = a if a is not None else b
                    if present is not None:
                        advancing.append(present)
                else:
                    advancing.append(a if a in won else b)
            winners.append(tuple(advancing))
        return Knockout(
            self.admitted,
            self.settings.bracket_mode,
            tuple(KnockoutRound(r.number, r.slots or ()) for r in rounds),
            tuple(winners),
        )

    def pair(self, number: int) -> RoundDraw:
        """Round ``number``'s pairing, by the tournament's system."""
        return self.system.pair(self, number)

    def next_round(self) -> NextRound:
        """After the rounds so far (none playing): the next round's draw, or the end when the
        system has played all its rounds, a knockout has its champion (T25), or T21 left fewer
        entrants than one table needs (the ranking is then final)."""
        number = len(self.rounds) + 1
        out = self.eliminated()
        just_out = tuple(e for e, after in out.items() if after == number - 1)
        bracket = self.knockout()
        still = len(self.admitted) - len(out)
        over = (
            number > self.total_rounds()
            or (bracket is not None and bracket.champion is not None)
            or still < self.settings.min_entrants_to_pair
        )
        return NextRound(number, None if over else self.pair(number), just_out)

    def ranking(self) -> tuple[RankedRow, ...]:
        """The final (or current) ranking, best first, as the system ranks (T17, T25)."""
        return self.system.ranking(self)

    def settle(self, finished: FinishedTable) -> TableVerdict | EarlierMatch:
        """What a finished table is worth (T14, T15, T23), or, for a tied knockout match,
        the match to remember while one more smazzata is played (T23)."""
        return self.system.settle(self, finished)


def _outcomes(seating: Table, verdict: TableVerdict, round: int) -> list[Outcome]:
    """Every entrant's outcome at a finished table, from the MP and VP stored with its verdict
    (scored once, with the tournament's VP table, when the table finished)."""
    kind = OutcomeKind.TECHNICAL if verdict.technical else OutcomeKind.PLAYED
    out = []
    for i, line in enumerate(seating.lines):
        for entrant in line:
            out.append(
                Outcome(
                    entrant,
                    round,
                    verdict.vp[i],
                    verdict.mp[i],
                    kind,
                    seating.number,
                    tuple(e for e in line if e != entrant),
                    seating.lines[1 - i],
                    verdict.lost_on_time(i),
                )
            )
    return out
