"""From the store's rows to the pure tournament state, and to the seats of a server table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from burraco.engine.errors import RecordError
from burraco.engine.record import read_record, replay
from burraco.store import EntrantInfo, RoundTableInfo, TournamentData
from burraco.tournament import (
    COUNTED_ENTRANTS,
    EntrantId,
    EntrantStatus,
    RoundRecord,
    RoundStatus,
    TableRecord,
    TableVerdict,
    TournamentSettings,
    TournamentState,
)

from ..tableconfig import TableConfig


def settings_of(data: TournamentData) -> TournamentSettings:
    return TournamentSettings.from_json(data.info.settings)


def state_of(data: TournamentData) -> TournamentState:
    """The tournament as ``burraco.tournament`` decides on it: settings, seed, the entrants
    playing (registration order) and every round with its tables and stored verdicts."""
    admitted = tuple(
        EntrantId(e.entrant) for e in data.entrants if e.status == EntrantStatus.PLAYING
    )
    rounds = tuple(
        RoundRecord(
            number=rnd.number,
            finished=rnd.status == RoundStatus.FINISHED,
            tables=tuple(_table(t) for t in data.tables if t.round == rnd.number),
            byes=tuple(EntrantId(b) for b in rnd.byes),
            relaxed=rnd.relaxed,
            slots=None
            if rnd.slots is None
            else tuple(None if s is None else EntrantId(s) for s in rnd.slots),
        )
        for rnd in data.rounds
    )
    return TournamentState(settings_of(data), data.info.seed, admitted, rounds)


def _table(row: RoundTableInfo) -> TableRecord:
    lines = (
        tuple(EntrantId(e) for e in row.lines[0]),
        tuple(EntrantId(e) for e in row.lines[1]),
    )
    verdict = None if row.result is None else TableVerdict.from_json(row.result)
    return TableRecord(row.number, lines, verdict)


def counted_entrants(data: TournamentData) -> int:
    """Entrants registered or playing (what a Sit&Go's size counts)."""
    return sum(1 for e in data.entrants if e.status in COUNTED_ENTRANTS)


def table_config(settings: TournamentSettings, tournament: str) -> TableConfig:
    """The server table of one of the tournament's matches (T3, T5)."""
    return TableConfig(
        rules=settings.rules,
        players=settings.seats,
        smazzate=settings.smazzate,
        options=dict(settings.options or {}),
        round_seconds=settings.round_seconds,
        hand_seconds=settings.hand_seconds,
        public=False,
        between_smazzate=settings.between_smazzate,
        tournament=tournament,
        rated=True,  # tournament matches count for the ratings (docs/ratings.md)
        absent=settings.absent,
        absent_seconds=settings.absent_seconds,
    )


def seats(
    row: RoundTableInfo, entrants: Mapping[str, EntrantInfo], players: int
) -> list[tuple[int | None, str | None]]:
    """Who sits where (user id or bot level): line 0 at seats 0 and 2, line 1 at 1 and 3. A
    line is one entrant (a single player, or a fixed pair whose second player sits opposite)
    or two single players (partners for the round)."""
    if players == 2:
        return [(entrants[e].user_id, entrants[e].bot) for e in (row.lines[0][0], row.lines[1][0])]
    sides: list[list[tuple[int | None, str | None]]] = []
    for line in row.lines:
        if len(line) == 2:
            sides.append([(entrants[e].user_id, entrants[e].bot) for e in line])
        else:
            pair = entrants[line[0]]
            sides.append([(pair.user_id, pair.bot), (pair.partner_id, pair.bot)])
    return [sides[0][0], sides[1][0], sides[0][1], sides[1][1]]


def count_closings(closed_by: Iterable[int | None], players: int) -> tuple[int, int]:
    """Each line's closings from the closing seat of each smazzata (None: nobody closed); at
    4-player tables seats 0 and 2 are line 0, seats 1 and 3 line 1."""
    if players not in (2, 4):
        raise ValueError(f"tournament tables have 2 or 4 players, not {players}")
    closings = [0, 0]
    for seat in closed_by:
        if seat is not None:
            closings[seat % 2 if players == 4 else seat] += 1
    return (closings[0], closings[1])


def closings_of(text: str) -> tuple[int, int]:
    """Each line's closings in a finished match, from its record (T23's knockout tie-break).

    Exact or nothing: a record that cannot be read or does not replay raises ``RecordError``
    (the caller decides what an unknown count means; zeros would silently decide a tie)."""
    record = read_record(text)
    replayed = replay(record)
    if replayed.error is not None:
        raise RecordError(f"the record does not replay: {replayed.error}")
    return count_closings((h.closed_by for h in replayed.hands), record.ruleset().players)


def deals_of(text: str) -> tuple[tuple[int, int], ...]:
    """Each completed smazzata's line scores in a finished match, from its record (what a
    same-cards tournament compares). ``RecordError`` when the record does not replay."""
    record = read_record(text)
    replayed = replay(record)
    if replayed.error is not None:
        raise RecordError(f"the record does not replay: {replayed.error}")
    out = []
    for hand in replayed.hands:
        if hand.score is None:  # a smazzata cut by a timeout counts for nothing (C33)
            continue
        result = hand.score.result
        if len(result) != 2:
            raise RecordError(f"a tournament table has two lines, not {len(result)}")
        out.append((int(result[0]), int(result[1])))
    return tuple(out)
