"""Persistence of online tournaments (tables ``tournament_*``, migration ``0003_tournaments``).

``TournamentStore(store)`` reads and writes the rows of ``tournament_models`` and gives plain
frozen dataclasses back, never ORM objects. What the rows mean (pairings, MP and VP, standings)
is computed by the server with ``burraco.tournament``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from burraco.tournament.lifecycle import (
    COUNTED_ENTRANTS,
    EntrantStatus,
    RoundStatus,
    TournamentStatus,
)

from . import models
from . import tournament_models as m
from .hidden import same_cards_in_play
from .store import Store


def _aware(moment: datetime) -> datetime:
    # SQLite gives naive datetimes back for timezone-aware columns: they were stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _maybe(moment: datetime | None) -> datetime | None:
    return None if moment is None else _aware(moment)


class EntrantTaken(Exception):
    """The entrant is already registered in that tournament."""


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: str
    name: str
    created_by: int | None
    created_at: datetime
    start: str
    starts_at: datetime | None
    size: int | None
    status: TournamentStatus
    settings: dict[str, Any]
    seed: int
    started_at: datetime | None
    finished_at: datetime | None
    note: str | None


@dataclass(frozen=True, slots=True)
class EntrantInfo:
    entrant: str
    position: int
    user_id: int | None
    partner_id: int | None
    """A fixed pair's second player."""
    bot: str | None
    name: str
    registered_at: datetime
    status: EntrantStatus

    @property
    def users(self) -> tuple[int, ...]:
        """The people of the entrant (none for a bot)."""
        return tuple(u for u in (self.user_id, self.partner_id) if u is not None)


@dataclass(frozen=True, slots=True)
class RoundInfo:
    number: int
    byes: tuple[str, ...]
    relaxed: bool
    slots: tuple[str | None, ...] | None
    status: RoundStatus
    started_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class RoundTableInfo:
    round: int
    number: int
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    table_id: str | None
    played: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class TournamentData:
    """A tournament with everything that belongs to it."""

    info: TournamentInfo
    entrants: tuple[EntrantInfo, ...]
    """In registration order."""
    rounds: tuple[RoundInfo, ...]
    tables: tuple[RoundTableInfo, ...]
    """By round, then table number."""


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match of a server table, as its log keeps it."""

    totals: tuple[int, ...]
    winner: int | None
    ended: str
    record: str


def _info(row: m.Tournament) -> TournamentInfo:
    return TournamentInfo(
        id=row.id,
        name=row.name,
        created_by=row.created_by,
        created_at=_aware(row.created_at),
        start=row.start,
        starts_at=_maybe(row.starts_at),
        size=row.size,
        status=TournamentStatus(row.status),
        settings=dict(row.settings),
        seed=row.seed,
        started_at=_maybe(row.started_at),
        finished_at=_maybe(row.finished_at),
        note=row.note,
    )


class TournamentStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # --------------------------------------------------------------------------- tournaments

    async def create(
        self,
        tournament_id: str,
        *,
        name: str,
        created_by: int | None,
        start: str,
        starts_at: datetime | None,
        size: int | None,
        settings: Mapping[str, Any],
        seed: int,
        now: datetime,
    ) -> None:
        async with self.store.write() as session:
            session.add(
                m.Tournament(
                    id=tournament_id,
                    name=name,
                    created_by=created_by,
                    created_at=now,
                    start=start,
                    starts_at=starts_at,
                    size=size,
                    status=TournamentStatus.REGISTERING.value,
                    settings=dict(settings),
                    seed=seed,
                )
            )

    async def tournaments(
        self,
        statuses: Sequence[TournamentStatus | str] | None = None,
        *,
        created_by: int | None = None,
    ) -> list[TournamentInfo]:
        """The tournaments in ``statuses`` (all if None), oldest first; only those organised
        by ``created_by`` if given."""
        query = select(m.Tournament).order_by(m.Tournament.created_at)
        if created_by is not None:
            query = query.where(m.Tournament.created_by == created_by)
        if statuses is not None:
            query = query.where(
                m.Tournament.status.in_([TournamentStatus(s).value for s in statuses])
            )
        async with self.store.sessions() as session:
            return [_info(row) for row in (await session.scalars(query)).all()]

    async def entrant_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """Entrants registered or playing, per tournament."""
        if not ids:
            return {}
        async with self.store.sessions() as session:
            rows = await session.execute(
                select(m.TournamentEntrant.tournament_id, func.count())
                .where(
                    m.TournamentEntrant.tournament_id.in_(list(ids)),
                    m.TournamentEntrant.status.in_([s.value for s in COUNTED_ENTRANTS]),
                )
                .group_by(m.TournamentEntrant.tournament_id)
            )
            return {tid: int(n) for tid, n in rows.all()}

    async def invitations(self, user_id: int) -> list[tuple[str, str, str, str]]:
        """Pairs naming ``user_id`` as partner that wait for the confirmation, in tournaments
        still registering: (tournament id, tournament name, pair name, registrant's name)."""
        async with self.store.sessions() as session:
            rows = await session.execute(
                select(
                    m.Tournament.id,
                    m.Tournament.name,
                    m.TournamentEntrant.name,
                    models.User.name,
                )
                .join(m.TournamentEntrant, m.TournamentEntrant.tournament_id == m.Tournament.id)
                .join(models.User, models.User.id == m.TournamentEntrant.user_id)
                .where(
                    m.Tournament.status == TournamentStatus.REGISTERING.value,
                    m.TournamentEntrant.partner_id == user_id,
                    m.TournamentEntrant.status == EntrantStatus.INVITED.value,
                )
                .order_by(m.Tournament.created_at)
            )
            return [(tid, name, pair, by) for tid, name, pair, by in rows.all()]

    async def load(self, tournament_id: str) -> TournamentData | None:
        async with self.store.sessions() as session:
            row = await session.get(m.Tournament, tournament_id)
            if row is None:
                return None
            entrants = (
                await session.scalars(
                    select(m.TournamentEntrant)
                    .where(m.TournamentEntrant.tournament_id == tournament_id)
                    .order_by(m.TournamentEntrant.position)
                )
            ).all()
            rounds = (
                await session.scalars(
                    select(m.TournamentRound)
                    .where(m.TournamentRound.tournament_id == tournament_id)
                    .order_by(m.TournamentRound.number)
                )
            ).all()
            tables = (
                await session.scalars(
                    select(m.TournamentTable)
                    .where(m.TournamentTable.tournament_id == tournament_id)
                    .order_by(m.TournamentTable.round, m.TournamentTable.number)
                )
            ).all()
            return TournamentData(
                _info(row),
                tuple(
                    EntrantInfo(
                        e.entrant,
                        e.position,
                        e.user_id,
                        e.partner_id,
                        e.bot,
                        e.name,
                        _aware(e.registered_at),
                        EntrantStatus(e.status),
                    )
                    for e in entrants
                ),
                tuple(
                    RoundInfo(
                        r.number,
                        tuple(r.byes),
                        r.relaxed,
                        None if r.slots is None else tuple(r.slots),
                        RoundStatus(r.status),
                        _aware(r.started_at),
                        _maybe(r.finished_at),
                    )
                    for r in rounds
                ),
                tuple(
                    RoundTableInfo(
                        t.round,
                        t.number,
                        (tuple(t.lines[0]), tuple(t.lines[1])),
                        t.table_id,
                        tuple(t.played or ()),
                        None if t.result is None else dict(t.result),
                    )
                    for t in tables
                ),
            )

    async def set_status(
        self,
        tournament_id: str,
        status: TournamentStatus | str,
        *,
        started_at: datetime | None = None,
        finished_at: datetime | None = None,
        note: str | None = None,
        entrants: Mapping[str, EntrantStatus | str] | None = None,
    ) -> None:
        """Change the tournament's status and, in the same transaction, its entrants'."""
        values: dict[str, Any] = {"status": TournamentStatus(status).value}
        if started_at is not None:
            values["started_at"] = started_at
        if finished_at is not None:
            values["finished_at"] = finished_at
        if note is not None:
            values["note"] = note[:200]
        async with self.store.write() as session:
            await session.execute(
                update(m.Tournament).where(m.Tournament.id == tournament_id).values(**values)
            )
            for entrant, entrant_status in (entrants or {}).items():
                await session.execute(
                    update(m.TournamentEntrant)
                    .where(
                        m.TournamentEntrant.tournament_id == tournament_id,
                        m.TournamentEntrant.entrant == entrant,
                    )
                    .values(status=EntrantStatus(entrant_status).value)
                )

    # ------------------------------------------------------------------------------ entrants

    async def add_entrant(
        self,
        tournament_id: str,
        entrant: str,
        *,
        user_id: int | None,
        bot: str | None,
        name: str,
        now: datetime,
        partner_id: int | None = None,
        status: EntrantStatus | str = EntrantStatus.REGISTERED,
    ) -> None:
        """Register an entrant after the others (``status`` ``invited``: a pair waiting for the
        partner's confirmation). ``EntrantTaken`` when the id, or one of its people, is in the
        tournament already (as a player or a partner)."""
        people = [u for u in (user_id, partner_id) if u is not None]
        async with self.store.write() as session:
            if people:
                clash = await session.scalar(
                    select(m.TournamentEntrant.entrant).where(
                        m.TournamentEntrant.tournament_id == tournament_id,
                        m.TournamentEntrant.user_id.in_(people)
                        | m.TournamentEntrant.partner_id.in_(people),
                    )
                )
                if clash is not None:
                    raise EntrantTaken(entrant)
            last = await session.scalar(
                select(func.max(m.TournamentEntrant.position)).where(
                    m.TournamentEntrant.tournament_id == tournament_id
                )
            )
            session.add(
                m.TournamentEntrant(
                    tournament_id=tournament_id,
                    entrant=entrant,
                    position=(last or 0) + 1,
                    user_id=user_id,
                    partner_id=partner_id,
                    bot=bot,
                    name=name[:80],
                    registered_at=now,
                    status=EntrantStatus(status).value,
                )
            )
            try:
                await session.flush()
            except IntegrityError:
                raise EntrantTaken(entrant) from None

    async def confirm_entrant(self, tournament_id: str, entrant: str, *, now: datetime) -> bool:
        """An invited pair becomes registered, queued after everyone registered so far (its
        registration is complete only now: T1 admits the earliest). False if it was not
        waiting for confirmation."""
        async with self.store.write() as session:
            row = await session.get(m.TournamentEntrant, (tournament_id, entrant))
            if row is None or row.status != EntrantStatus.INVITED:
                return False
            last = await session.scalar(
                select(func.max(m.TournamentEntrant.position)).where(
                    m.TournamentEntrant.tournament_id == tournament_id
                )
            )
            row.position = (last or 0) + 1
            row.registered_at = now
            row.status = EntrantStatus.REGISTERED.value
            return True

    async def remove_entrant(self, tournament_id: str, entrant: str) -> bool:
        async with self.store.write() as session:
            row = await session.get(m.TournamentEntrant, (tournament_id, entrant))
            if row is None:
                return False
            await session.delete(row)
            return True

    # -------------------------------------------------------------------------------- rounds

    async def add_round(
        self,
        tournament_id: str,
        number: int,
        *,
        byes: Sequence[str],
        relaxed: bool,
        slots: Sequence[str | None] | None,
        tables: Sequence[tuple[int, Sequence[Sequence[str]]]],
        now: datetime,
    ) -> None:
        """A new round and its tables (no server tables yet), in one transaction."""
        async with self.store.write() as session:
            session.add(
                m.TournamentRound(
                    tournament_id=tournament_id,
                    number=number,
                    byes=list(byes),
                    relaxed=relaxed,
                    slots=None if slots is None else list(slots),
                    status=RoundStatus.PLAYING.value,
                    started_at=now,
                )
            )
            await session.flush()
            for table_number, lines in tables:
                session.add(
                    m.TournamentTable(
                        tournament_id=tournament_id,
                        round=number,
                        number=table_number,
                        lines=[list(line) for line in lines],
                    )
                )

    async def finish_round(self, tournament_id: str, number: int, now: datetime) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(m.TournamentRound)
                .where(
                    m.TournamentRound.tournament_id == tournament_id,
                    m.TournamentRound.number == number,
                )
                .values(status=RoundStatus.FINISHED.value, finished_at=now)
            )

    async def set_table(
        self,
        tournament_id: str,
        round: int,
        number: int,
        *,
        table_id: str,
        played: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        values: dict[str, Any] = {"table_id": table_id}
        if played is not None:
            values["played"] = list(played)
        async with self.store.write() as session:
            await session.execute(
                update(m.TournamentTable)
                .where(
                    m.TournamentTable.tournament_id == tournament_id,
                    m.TournamentTable.round == round,
                    m.TournamentTable.number == number,
                )
                .values(**values)
            )

    async def set_result(
        self, tournament_id: str, round: int, number: int, result: Mapping[str, Any]
    ) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(m.TournamentTable)
                .where(
                    m.TournamentTable.tournament_id == tournament_id,
                    m.TournamentTable.round == round,
                    m.TournamentTable.number == number,
                )
                .values(result=dict(result))
            )

    async def table_owner(self, table_id: str) -> tuple[str, int, int] | None:
        """The tournament, round and table number a server table is played for."""
        async with self.store.sessions() as session:
            row = (
                await session.execute(
                    select(
                        m.TournamentTable.tournament_id,
                        m.TournamentTable.round,
                        m.TournamentTable.number,
                    ).where(m.TournamentTable.table_id == table_id)
                )
            ).first()
            return None if row is None else (row[0], row[1], row[2])

    async def same_cards_hidden(self, table_ids: Sequence[str]) -> set[str]:
        """Of ``table_ids``, the server tables of a same-cards round still being played (the
        rule of ``hidden.same_cards_in_play``, in one query)."""
        if not table_ids:
            return set()
        t = m.TournamentTable
        async with self.store.sessions() as session:
            found = await session.scalars(
                select(t.table_id).where(
                    t.table_id.in_(list(table_ids)), same_cards_in_play(t.table_id)
                )
            )
            return {str(table_id) for table_id in found.all()}

    async def finished_match(self, table_id: str, match_no: int = 1) -> FinishedMatch | None:
        async with self.store.sessions() as session:
            row = await session.get(models.MatchLog, (table_id, match_no))
            if row is None:
                return None
            return FinishedMatch(tuple(row.totals), row.winner, row.ended, row.record)

    # ------------------------------------------------------------------ recurring events

    async def add_recurring(self, **values: Any) -> int:
        async with self.store.write() as session:
            row = m.RecurringEvent(**values)
            session.add(row)
            await session.flush()
            return int(row.id)

    async def recurring(self, *, user_id: int | None = None) -> list[m.RecurringEvent]:
        """The active schedules (of ``user_id``'s, if given)."""
        query = select(m.RecurringEvent).where(m.RecurringEvent.active.is_(True))
        if user_id is not None:
            query = query.where(m.RecurringEvent.created_by == user_id)
        async with self.store.sessions() as session:
            return list((await session.scalars(query.order_by(m.RecurringEvent.id))).all())

    async def set_recurring(self, event_id: int, **values: Any) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(m.RecurringEvent).where(m.RecurringEvent.id == event_id).values(**values)
            )
