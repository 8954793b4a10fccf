"""Club evenings (RULES.md T26-T29, C12-C14): games, rests, seating, the evening ranking.

Players are individuals at 4-player tables with a new partner each game (seed 003 ranks
players, and rests are drawn by name). An evening is 3 games of Burraco Internazionale or 4 of
Burraco Italiano, one fewer when the organisers decide so (T26). Before each game the rests are
drawn (T29), then the others are seated (``mitchell`` or ``danish``, see ``Seating``); the
organiser enters each table's two totals, and the evening ranking (VP, then MP, then "1-2-2-4")
gives the ranking points 25/18/15/12/10/8/6/4/2/1 (T27, T28).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from burraco.engine import Rules, find_rules
from burraco.engine.vp import VPTable

from .byes import BYE_VP
from .entrants import EntrantId
from .fours import seat_fours
from .history import History
from .pairing import Pairing, Table
from .scoring import DEFAULT_VP_TABLE, Outcome, OutcomeKind, TableResult, round_outcomes
from .standings import Standings, Total, ranked, totals

POINTS: tuple[int, ...] = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
"""T28: ranking points of places 1 to 10; everyone else 0."""


def ranking_points(place: int) -> int:
    """T28: the points of a place (ex aequo players each get the points of their shared place)."""
    return POINTS[place - 1] if 1 <= place <= len(POINTS) else 0


class EveningType(StrEnum):
    """T26: the two kinds of evening of seed 003."""

    INTERNAZIONALE = "internazionale"
    ITALIANO = "italiano"

    @property
    def games(self) -> int:
        return 3 if self is EveningType.INTERNAZIONALE else 4

    @property
    def minutes(self) -> int:
        """Length of one game."""
        return 50 if self is EveningType.INTERNAZIONALE else 35

    @property
    def preset(self) -> str:
        """The engine ruleset: Internazionale (3.7) or FIBur Burraco Italiano (3.8)."""
        return "internazionale" if self is EveningType.INTERNAZIONALE else "italian-semipulito"

    def rules(self) -> Rules:
        return find_rules(self.preset, players=4)


class Seating(StrEnum):
    """How each game's tables are formed (T22, T18 adapted to single players)."""

    MITCHELL = "mitchell"
    """Score-independent, the aim of a Mitchell movement: the players, in the station order
    drawn when check-in closes, are seated so that nobody meets a partner or an opponent of an
    earlier game of the evening when that is possible (partners first, then opponents). A literal
    Mitchell (NS stays, EW moves) needs fixed lines and would keep the same partners all
    evening."""
    DANISH = "danish"
    """By the evening standings (VP, MP, random for exact ties); game 1 in the drawn order.
    Tables are four consecutive players (1st-4th, 5th-8th, ...) with a new partner for everyone
    whenever possible; opponents may repeat."""


class TwoLeftOver(StrEnum):
    """T29 [ENG]: what happens when N mod 4 = 2."""

    REST = "rest"
    """Two players rest each game."""
    TABLE = "table"
    """Nobody rests: two players play a 2-player table."""


@dataclass(frozen=True, slots=True)
class EveningConfig:
    type: EveningType = EveningType.INTERNAZIONALE
    one_game_fewer: bool = False
    """T26: the organisers may play one game fewer."""
    seating: Seating = Seating.MITCHELL
    two_left_over: TwoLeftOver = TwoLeftOver.REST
    vp_table: VPTable = DEFAULT_VP_TABLE
    """Games are played to a time limit; VP-3 unless the club publishes another table (T16)."""
    rest_vp: int = BYE_VP
    """T29, C13: a rest is worth 10 VP (and 0 MP) in the evening ranking."""

    @property
    def games(self) -> int:
        return self.type.games - self.one_game_fewer


def sit_outs(players: int, two_left_over: TwoLeftOver = TwoLeftOver.REST) -> tuple[int, int]:
    """T29: (players resting, 2-player tables) in each game with ``players`` present:
    r = players mod 4 rest (r = 2: two rest, or one 2-player table)."""
    if players < 4:
        raise ValueError(f"an evening needs at least 4 players, not {players}")
    r = players % 4
    if r == 2 and two_left_over is TwoLeftOver.TABLE:
        return 0, 1
    return r, 0


def draw_names(
    players: Iterable[EntrantId], counts: Mapping[EntrantId, int], k: int, rng: random.Random
) -> tuple[EntrantId, ...]:
    """Draw ``k`` names among those with the lowest count (never rested: T29); only when there
    are too few of them are the others drawn, again the lowest count first. Sorted by id."""
    by_count: dict[int, list[EntrantId]] = {}
    for p in sorted(set(players)):
        by_count.setdefault(counts.get(p, 0), []).append(p)
    drawn: list[EntrantId] = []
    for c in sorted(by_count):
        group = by_count[c]
        left = k - len(drawn)
        if left <= 0:
            break
        drawn.extend(group if len(group) <= left else rng.sample(group, left))
    if len(drawn) < k:
        raise ValueError(f"cannot draw {k} names among {len(drawn)} players")
    return tuple(sorted(drawn))


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the evening as played: its seating and the tables' results."""

    pairing: Pairing
    results: tuple[TableResult, ...]


@dataclass(frozen=True, slots=True)
class EveningRow:
    place: int
    player: EntrantId
    vp: int
    mp: int
    points: int
    played: int
    rests: int


@dataclass(frozen=True, slots=True)
class EveningRanking:
    """T27/T28: by VP, then MP; still tied: same place, same points, the next place skipped."""

    rows: tuple[EveningRow, ...]

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], players: Iterable[EntrantId] = ()) -> EveningRanking:
        return cls.from_totals(totals(outcomes, players))

    @classmethod
    def from_totals(cls, all_totals: Iterable[Total]) -> EveningRanking:
        items = sorted(all_totals, key=lambda t: t.entrant)
        return cls(
            tuple(
                EveningRow(p, t.entrant, t.vp, t.mp, ranking_points(p), t.played, t.sat_out)
                for p, t in ranked(items, key=lambda t: t.key)
            )
        )

    @property
    def best(self) -> tuple[EntrantId, ...]:
        """T28 [ENG]: the weekly prize for the best evening score: the highest VP, ties by MP;
        players still tied share it."""
        return tuple(r.player for r in self.rows if r.place == 1)

    def row(self, player: EntrantId) -> EveningRow:
        for r in self.rows:
            if r.player == player:
                return r
        raise KeyError(player)

    @property
    def points(self) -> dict[EntrantId, int]:
        return {r.player: r.points for r in self.rows}


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening in progress: the players present in their drawn station order, and the games
    recorded so far."""

    players: tuple[EntrantId, ...]
    config: EveningConfig = field(default_factory=EveningConfig)
    games: tuple[Game, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player is listed twice")
        sit_outs(len(self.players), self.config.two_left_over)

    @classmethod
    def start(
        cls, players: Sequence[EntrantId], config: EveningConfig, rng: random.Random
    ) -> Evening:
        """The draw when check-in closes (T30): the players' stations, in random order."""
        stations = list(players)
        rng.shuffle(stations)
        return cls(tuple(stations), config)

    @property
    def history(self) -> History:
        return History.of(g.pairing for g in self.games)

    @property
    def finished(self) -> bool:
        return len(self.games) >= self.config.games

    @property
    def next_game(self) -> int:
        return len(self.games) + 1

    def draw_game(self, rng: random.Random) -> Pairing:
        """Draw the rests of the next game (T29: names not yet drawn this evening) and seat the
        others; with ``TwoLeftOver.TABLE`` two players (those who have not yet played one,
        drawn) sit at a 2-player table, numbered last."""
        if self.finished:
            raise ValueError(f"the evening has {self.config.games} games")
        history = self.history
        n_rest, n_two = sit_outs(len(self.players), self.config.two_left_over)
        rests = draw_names(self.players, history.byes, n_rest, rng)
        if self.config.seating is Seating.DANISH and self.games:
            standings = Standings.of(self.outcomes, self.players)
            order = list(standings.pairing_order(rng))
        else:
            order = list(self.players)
        order = [p for p in order if p not in rests]
        two: tuple[EntrantId, ...] = ()
        if n_two:
            two_counts: dict[EntrantId, int] = {}
            for g in self.games:
                for t in g.pairing.tables:
                    if len(t.entrants) == 2:
                        for e in t.entrants:
                            two_counts[e] = two_counts.get(e, 0) + 1
            two = draw_names(order, two_counts, 2, rng)
            order = [p for p in order if p not in two]
        seated, repeats = seat_fours(
            order, history, avoid_opponents=self.config.seating is Seating.MITCHELL
        )
        tables = [Table(i, lines) for i, lines in enumerate(seated, 1)]
        if two:
            tables.append(Table.of(len(tables) + 1, two[0], two[1]))
        return Pairing(self.next_game, tuple(tables), rests, relaxed=repeats > 0)

    def record(self, pairing: Pairing, results: Iterable[TableResult]) -> Evening:
        """The evening with one more game: its seating (drawn, or as the organiser seated the
        room) and each table's result. Everyone present must play or rest."""
        if self.finished:
            raise ValueError(f"the evening has {self.config.games} games")
        if pairing.round != self.next_game:
            raise ValueError(f"this is game {self.next_game}, not {pairing.round}")
        if sorted(pairing.entrants) != sorted(self.players):
            raise ValueError("the seating must place every player present exactly once")
        game = Game(pairing, tuple(results))
        self._outcomes(game)  # validates the results against the tables
        return Evening(self.players, self.config, (*self.games, game))

    def _outcomes(self, game: Game) -> tuple[Outcome, ...]:
        return round_outcomes(
            game.pairing,
            game.results,
            self.config.vp_table,
            bye_vp=self.config.rest_vp,
            sit_out_kind=OutcomeKind.REST,
        )

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(o for g in self.games for o in self._outcomes(g))

    def ranking(self) -> EveningRanking:
        return EveningRanking.of(self.outcomes, self.players)
