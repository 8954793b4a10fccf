"""A stored evening as ``burraco.tournament`` sees it: its config, each game's pairing and
results, the ``Evening`` of the games complete so far; the calendar numbered, the times and the
room timer of an evening, a game's view, and the JSON of seatings and results in the audit trail.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from burraco.store.club import (
    EveningInfo,
    EveningState,
    EveningStatus,
    GameInfo,
    NewSeat,
    SeasonInfo,
)
from burraco.tournament import (
    EntrantId,
    Evening,
    EveningConfig,
    EveningType,
    Pairing,
    Seating,
    Table,
    TableResult,
    TwoLeftOver,
    choose_vp_table,
    score,
)

from . import calendar as cal
from .errors import bad, conflict
from .timer import TimerState, timer_state
from .views import GameView, SeasonEvening, TableView


def evening_config(evening: EveningInfo, season: SeasonInfo) -> EveningConfig:
    return EveningConfig(
        type=EveningType(evening.type),
        one_game_fewer=evening.one_game_fewer,
        seating=Seating(season.seating),
        two_left_over=TwoLeftOver(season.two_left_over),
        vp_table=choose_vp_table(season.vp_table),
    )


def pairing_of(game: GameInfo, names: Mapping[int, str]) -> Pairing:
    tables = []
    for number in game.tables:
        lines: list[list[EntrantId]] = [[], []]
        for s in sorted(
            (s for s in game.seats if s.table_no == number), key=lambda s: (s.line, s.position)
        ):
            lines[s.line].append(EntrantId(names[s.member_id]))
        tables.append(Table(number, (tuple(lines[0]), tuple(lines[1]))))
    rests = tuple(sorted(EntrantId(names[r.member_id]) for r in game.rests))
    return Pairing(game.number, tuple(tables), rests, game.relaxed)


def results_of(game: GameInfo) -> list[TableResult]:
    return [TableResult(r.table_no, (r.ns, r.ew), timed_out=r.timed_out) for r in game.results]


def complete(game: GameInfo) -> bool:
    return bool(game.tables) and len(game.results) == len(game.tables)


def build_evening(
    state: EveningState, season: SeasonInfo, names: Mapping[int, str]
) -> tuple[Evening, int]:
    """The ``burraco.tournament`` evening of the stored one: the games recorded so far (those
    with every table's result), and how many they are."""
    config = evening_config(state.evening, season)
    if not state.evening.stations:
        raise conflict(f"the seats of {state.evening.date} are not drawn yet")
    stations = tuple(EntrantId(names[i]) for i in state.evening.stations)
    evening = Evening(stations, config)
    for game in state.games:
        if not complete(game) or evening.finished:
            break
        evening = evening.record(pairing_of(game, names), results_of(game))
    return evening, len(evening.games)


def seats_of(pairing: Pairing, ids: Mapping[str, int]) -> list[NewSeat]:
    return [
        NewSeat(ids[name], table.number, line, position)
        for table in pairing.tables
        for line, players in enumerate(table.lines)
        for position, name in enumerate(players)
    ]


def rng(seed: int, step: int) -> random.Random:
    return random.Random(f"{seed}:{step}")


def names_of(ids: Mapping[str, int]) -> dict[int, str]:
    return {i: n for n, i in ids.items()}


def numbered(evenings: Sequence[EveningInfo]) -> list[SeasonEvening]:
    """The calendar in date order, numbered (cancelled evenings keep no number: 0)."""
    out = []
    n = 0
    for e in sorted(evenings, key=lambda e: e.date):
        kind = EveningType(e.type)
        if e.status is not EveningStatus.CANCELLED:
            n += 1
        out.append(
            SeasonEvening(
                e,
                n if e.status is not EveningStatus.CANCELLED else 0,
                kind,
                kind.games - e.one_game_fewer,
                None,
            )
        )
    return out


def times_of(ev: EveningInfo, season: SeasonInfo, tz: Any) -> cal.EveningTimes:
    return cal.evening_times(
        ev.date,
        tz,
        opens=season.checkin_opens,
        closes=season.checkin_closes,
        type=EveningType(ev.type),
        one_game_fewer=ev.one_game_fewer,
        break_minutes=season.break_minutes,
    )


def timer_of(state: EveningState, season: SeasonInfo, now: datetime) -> TimerState:
    kind = EveningType(state.evening.type)
    return timer_state(
        games=kind.games - state.evening.one_game_fewer,
        minutes=kind.minutes,
        break_minutes=season.break_minutes,
        started={g.number: g.started_at for g in state.games},
        now=now,
    )


def game_view(game: GameInfo, names: Mapping[int, str], config: EveningConfig) -> GameView:
    pairing = pairing_of(game, names)
    tables = []
    for t in pairing.tables:
        result = game.result(t.number)
        mp = vp = None
        if result is not None:
            rs = score(
                TableResult(t.number, (result.ns, result.ew), timed_out=result.timed_out),
                config.vp_table,
            )
            mp, vp = rs.mp, rs.vp
        tables.append(TableView(t.number, (tuple(t.lines[0]), tuple(t.lines[1])), result, mp, vp))
    return GameView(
        number=game.number,
        drawn=game.drawn,
        relaxed=game.relaxed,
        started_at=game.started_at,
        tables=tuple(tables),
        rests=tuple(pairing.byes),
        rests_drawn=all(r.drawn for r in game.rests),
    )


def check_rest_order(evening: Evening, byes: Sequence[EntrantId]) -> None:
    """T29: the names resting are among those who rested least so far this evening."""
    counts = evening.history.byes
    resting = set(byes)
    others = [p for p in evening.players if p not in resting]
    if not others or not resting:
        return
    least_other = min(counts.get(p, 0) for p in others)
    for p in sorted(resting):
        if counts.get(p, 0) > least_other:
            waiting = sorted(q for q in others if counts.get(q, 0) < counts.get(p, 0))
            raise bad(
                f"{p} has already rested this evening while {', '.join(waiting)} has not:"
                " nobody rests twice before everyone has rested (T29)"
            )


def seating_json(pairing: Pairing) -> dict[str, Any]:
    return {
        "game": pairing.round,
        "tables": [[list(t.lines[0]), list(t.lines[1])] for t in pairing.tables],
        "rests": list(pairing.byes),
    }


def result_json(
    ns: int, ew: int, smazzate: Sequence[Sequence[int]] | None, timed_out: int | None
) -> dict[str, Any]:
    out: dict[str, Any] = {"ns": ns, "ew": ew}
    if smazzate is not None:
        out["smazzate"] = [list(s) for s in smazzate]
    if timed_out is not None:
        out["timed_out"] = timed_out
    return out
