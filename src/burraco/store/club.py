"""Persistence of the club manager (tables ``club_*``, migration ``0002_club``).

``ClubStore(store)`` gives transactions: ``async with clubs.write() as tx`` commits when the block
ends and rolls everything back when it raises, so an operation that finds bad input half way
changes nothing; ``clubs.read()`` is for looking only. ``ClubTx`` reads and writes rows and gives
plain frozen dataclasses back, never ORM objects. What the rows mean (the draw, the rankings,
the fees) is computed in ``burraco.club`` from these rows with ``burraco.tournament``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import club_models as m
from . import models
from .store import Store


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite gives naive datetimes back for timezone-aware columns: they were stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _maybe(moment: datetime | None) -> datetime | None:
    return None if moment is None else _aware(moment)


def _utc(moment: datetime | None) -> datetime | None:
    """What is stored: UTC (SQLite keeps no offset, so a local time would be read back
    wrong)."""
    return None if moment is None else _aware(moment).astimezone(UTC)


# ------------------------------------------------------------------------------ the records


@dataclass(frozen=True, slots=True)
class ClubInfo:
    id: int
    name: str
    timezone: str
    place: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MemberInfo:
    id: int
    club_id: int
    name: str
    email: str | None
    user_id: int | None
    user_name: str | None
    """The platform account's name (None: no account linked)."""
    officer: bool
    active: bool


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    id: int
    club_id: int
    name: str
    starts_on: date
    ends_on: date
    weekday: int
    checkin_opens: time
    checkin_closes: time
    break_minutes: int
    seating: str
    two_left_over: str
    vp_table: str
    monthly_fee_cents: int
    pool_share_cents: int
    weekly_prize_cents: int
    season_prizes_cents: tuple[int, ...]
    rules_note: str


SEASON_SETTINGS = (
    "name",
    "starts_on",
    "ends_on",
    "weekday",
    "checkin_opens",
    "checkin_closes",
    "break_minutes",
    "seating",
    "two_left_over",
    "vp_table",
    "monthly_fee_cents",
    "pool_share_cents",
    "weekly_prize_cents",
    "season_prizes_cents",
    "rules_note",
)
"""The settings of a season that officers may change."""


@dataclass(frozen=True, slots=True)
class EveningInfo:
    id: int
    season_id: int
    date: date
    type: str
    one_game_fewer: bool
    status: str
    seed: int | None
    stations: tuple[int, ...] | None
    drawn_at: datetime | None
    published_at: datetime | None
    note: str


@dataclass(frozen=True, slots=True)
class CheckinInfo:
    member_id: int
    at: datetime
    late: bool
    recorded_by: str
    override_by: str | None
    override_reason: str | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    member_id: int
    table_no: int
    line: int
    position: int


@dataclass(frozen=True, slots=True)
class RestRow:
    member_id: int
    drawn: bool


@dataclass(frozen=True, slots=True)
class ResultRow:
    table_no: int
    ns: int
    ew: int
    smazzate: tuple[tuple[int, int], ...] | None
    timed_out: int | None
    entered_by: str
    entered_at: datetime
    corrections: int


@dataclass(frozen=True, slots=True)
class GameInfo:
    number: int
    drawn: bool
    relaxed: bool
    seated_at: datetime
    started_at: datetime | None
    seats: tuple[SeatRow, ...]
    rests: tuple[RestRow, ...]
    results: tuple[ResultRow, ...]

    def result(self, table_no: int) -> ResultRow | None:
        for r in self.results:
            if r.table_no == table_no:
                return r
        return None

    @property
    def tables(self) -> tuple[int, ...]:
        return tuple(sorted({s.table_no for s in self.seats}))


@dataclass(frozen=True, slots=True)
class ScoreCheckInfo:
    id: int
    evening_id: int
    game: int
    table_no: int
    member_id: int | None
    requested_by: str
    requested_at: datetime
    note: str
    status: str
    resolved_by: str | None
    resolved_at: datetime | None
    resolution: str | None


@dataclass(frozen=True, slots=True)
class EveningState:
    """Everything about one evening: what the draw, the results and the rankings are made of."""

    evening: EveningInfo
    checkins: tuple[CheckinInfo, ...]
    games: tuple[GameInfo, ...]
    checks: tuple[ScoreCheckInfo, ...]

    def game(self, number: int) -> GameInfo | None:
        for g in self.games:
            if g.number == number:
                return g
        return None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    club_id: int
    at: datetime
    user_id: int | None
    actor: str
    action: str
    subject: str
    season_id: int | None
    evening_id: int | None
    before: Any
    after: Any
    reason: str | None


@dataclass(frozen=True, slots=True)
class ChargeInfo:
    """An adjustment (extra charge or waiver) of what a member owes."""

    id: int
    season_id: int
    member_id: int
    due_on: date
    amount_cents: int
    reason: str
    created_by: str


@dataclass(frozen=True, slots=True)
class PaymentInfo:
    id: int
    season_id: int
    member_id: int
    amount_cents: int
    paid_on: date
    note: str
    recorded_by: str


@dataclass(frozen=True, slots=True)
class PrizeInfo:
    id: int
    season_id: int
    kind: str
    evening_id: int | None
    place: int | None
    member_id: int
    value_cents: int
    description: str
    delivered_on: date | None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """One seat of a seating to store."""

    member_id: int
    table_no: int
    line: int
    position: int


# ------------------------------------------------------------------------------ conversions


def _club(row: m.Club) -> ClubInfo:
    return ClubInfo(row.id, row.name, row.timezone, row.place, _aware(row.created_at))


def _member(row: m.ClubMember, user_name: str | None) -> MemberInfo:
    return MemberInfo(
        row.id, row.club_id, row.name, row.email, row.user_id, user_name, row.officer, row.active
    )


def _season(row: m.ClubSeason) -> SeasonInfo:
    return SeasonInfo(
        id=row.id,
        club_id=row.club_id,
        name=row.name,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        weekday=row.weekday,
        checkin_opens=row.checkin_opens,
        checkin_closes=row.checkin_closes,
        break_minutes=row.break_minutes,
        seating=row.seating,
        two_left_over=row.two_left_over,
        vp_table=row.vp_table,
        monthly_fee_cents=row.monthly_fee_cents,
        pool_share_cents=row.pool_share_cents,
        weekly_prize_cents=row.weekly_prize_cents,
        season_prizes_cents=tuple(int(v) for v in row.season_prizes_cents),
        rules_note=row.rules_note,
    )


def _evening(row: m.ClubEvening) -> EveningInfo:
    return EveningInfo(
        id=row.id,
        season_id=row.season_id,
        date=row.date,
        type=row.type,
        one_game_fewer=row.one_game_fewer,
        status=row.status,
        seed=row.seed,
        stations=None if row.stations is None else tuple(int(i) for i in row.stations),
        drawn_at=_maybe(row.drawn_at),
        published_at=_maybe(row.published_at),
        note=row.note,
    )


def _check(row: m.ClubScoreCheck) -> ScoreCheckInfo:
    return ScoreCheckInfo(
        id=row.id,
        evening_id=row.evening_id,
        game=row.game,
        table_no=row.table_no,
        member_id=row.member_id,
        requested_by=row.requested_by,
        requested_at=_aware(row.requested_at),
        note=row.note,
        status=row.status,
        resolved_by=row.resolved_by,
        resolved_at=_maybe(row.resolved_at),
        resolution=row.resolution,
    )


def _audit(row: m.ClubAudit) -> AuditEntry:
    return AuditEntry(
        id=row.id,
        club_id=row.club_id,
        at=_aware(row.at),
        user_id=row.user_id,
        actor=row.actor,
        action=row.action,
        subject=row.subject,
        season_id=row.season_id,
        evening_id=row.evening_id,
        before=row.before,
        after=row.after,
        reason=row.reason,
    )


def _charge(row: m.ClubCharge) -> ChargeInfo:
    return ChargeInfo(
        row.id,
        row.season_id,
        row.member_id,
        row.due_on,
        row.amount_cents,
        row.reason,
        row.created_by,
    )


def _payment(row: m.ClubPayment) -> PaymentInfo:
    return PaymentInfo(
        row.id,
        row.season_id,
        row.member_id,
        row.amount_cents,
        row.paid_on,
        row.note,
        row.recorded_by,
    )


def _prize(row: m.ClubPrize) -> PrizeInfo:
    return PrizeInfo(
        row.id,
        row.season_id,
        row.kind,
        row.evening_id,
        row.place,
        row.member_id,
        row.value_cents,
        row.description,
        row.delivered_on,
    )


# ------------------------------------------------------------------------------ the store


class ClubStore:
    """The club manager's transactions on the platform's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @asynccontextmanager
    async def write(self) -> AsyncIterator[ClubTx]:
        """One transaction: committed at the end of the block, rolled back if it raises.

        PostgreSQL serialises two changes of one evening with a row lock (``evening(...,
        lock=True)``). SQLite cannot upgrade two concurrent readers to writers (one of them
        fails with "database is locked"), so on SQLite the club's write transactions of one
        process take turns with every other write of the store (``Store.exclusive``)."""
        async with self.store.write() as session:
            yield ClubTx(session)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[ClubTx]:
        async with self.store.sessions() as session:
            yield ClubTx(session)


class ClubTx:
    """Reads and writes inside one transaction (see ``ClubStore``)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ----------------------------------------------------------------------- clubs and members

    async def create_club(self, name: str, *, timezone: str, place: str = "") -> ClubInfo:
        row = m.Club(name=name, timezone=timezone, place=place, created_at=_now())
        self.session.add(row)
        await self.session.flush()
        return _club(row)

    async def update_club(self, club_id: int, **values: Any) -> None:
        await self.session.execute(update(m.Club).where(m.Club.id == club_id).values(**values))

    async def club(self, club_id: int) -> ClubInfo | None:
        row = await self.session.get(m.Club, club_id)
        return None if row is None else _club(row)

    async def club_by_name(self, name: str) -> ClubInfo | None:
        row = await self.session.scalar(
            select(m.Club).where(func.lower(m.Club.name) == name.casefold())
        )
        return None if row is None else _club(row)

    async def clubs(self) -> list[ClubInfo]:
        rows = await self.session.scalars(select(m.Club).order_by(m.Club.name))
        return [_club(r) for r in rows]

    async def clubs_of_user(self, user_id: int) -> list[tuple[ClubInfo, MemberInfo]]:
        rows = await self.session.execute(
            select(m.Club, m.ClubMember, models.User.name)
            .join(m.ClubMember, m.ClubMember.club_id == m.Club.id)
            .join(models.User, models.User.id == m.ClubMember.user_id)
            .where(m.ClubMember.user_id == user_id)
            .order_by(m.Club.name)
        )
        return [(_club(c), _member(mem, uname)) for c, mem, uname in rows]

    async def add_member(
        self,
        club_id: int,
        name: str,
        *,
        email: str | None = None,
        user_id: int | None = None,
        officer: bool = False,
    ) -> MemberInfo:
        row = m.ClubMember(
            club_id=club_id,
            name=name,
            email=email,
            user_id=user_id,
            officer=officer,
            active=True,
            joined_at=_now(),
        )
        self.session.add(row)
        await self.session.flush()
        member = await self.member(row.id)
        assert member is not None
        return member

    async def update_member(self, member_id: int, **values: Any) -> None:
        await self.session.execute(
            update(m.ClubMember).where(m.ClubMember.id == member_id).values(**values)
        )

    def _members_query(self) -> Any:
        return select(m.ClubMember, models.User.name).outerjoin(
            models.User, models.User.id == m.ClubMember.user_id
        )

    async def member(self, member_id: int) -> MemberInfo | None:
        found = (
            await self.session.execute(self._members_query().where(m.ClubMember.id == member_id))
        ).first()
        return None if found is None else _member(found[0], found[1])

    async def members(self, club_id: int) -> list[MemberInfo]:
        rows = await self.session.execute(
            self._members_query().where(m.ClubMember.club_id == club_id).order_by(m.ClubMember.name)
        )
        return [_member(row, uname) for row, uname in rows]

    async def member_of_user(self, club_id: int, user_id: int) -> MemberInfo | None:
        found = (
            await self.session.execute(
                self._members_query().where(
                    m.ClubMember.club_id == club_id, m.ClubMember.user_id == user_id
                )
            )
        ).first()
        return None if found is None else _member(found[0], found[1])

    async def user_id_by_name(self, name: str) -> int | None:
        user_id: int | None = await self.session.scalar(
            select(models.User.id).where(models.User.name_key == name.casefold())
        )
        return user_id

    # ----------------------------------------------------------------------- seasons, evenings

    async def create_season(self, club_id: int, **settings: Any) -> SeasonInfo:
        settings = dict(settings)
        settings["season_prizes_cents"] = list(settings.get("season_prizes_cents", ()))
        row = m.ClubSeason(club_id=club_id, created_at=_now(), **settings)
        self.session.add(row)
        await self.session.flush()
        return _season(row)

    async def update_season(self, season_id: int, **settings: Any) -> None:
        if "season_prizes_cents" in settings:
            settings["season_prizes_cents"] = list(settings["season_prizes_cents"])
        await self.session.execute(
            update(m.ClubSeason).where(m.ClubSeason.id == season_id).values(**settings)
        )

    async def season(self, season_id: int) -> SeasonInfo | None:
        row = await self.session.get(m.ClubSeason, season_id)
        return None if row is None else _season(row)

    async def seasons(self, club_id: int) -> list[SeasonInfo]:
        rows = await self.session.scalars(
            select(m.ClubSeason)
            .where(m.ClubSeason.club_id == club_id)
            .order_by(m.ClubSeason.starts_on, m.ClubSeason.id)
        )
        return [_season(r) for r in rows]

    async def add_evening(
        self, season_id: int, day: date, type: str, *, one_game_fewer: bool = False
    ) -> EveningInfo:
        row = m.ClubEvening(
            season_id=season_id,
            date=day,
            type=type,
            one_game_fewer=one_game_fewer,
            status="scheduled",
            note="",
        )
        self.session.add(row)
        await self.session.flush()
        return _evening(row)

    async def update_evening(self, evening_id: int, **values: Any) -> None:
        if "stations" in values and values["stations"] is not None:
            values["stations"] = list(values["stations"])
        for key in ("drawn_at", "published_at"):
            if key in values:
                values[key] = _utc(values[key])
        await self.session.execute(
            update(m.ClubEvening).where(m.ClubEvening.id == evening_id).values(**values)
        )

    async def delete_evening(self, evening_id: int) -> None:
        await self.session.execute(delete(m.ClubEvening).where(m.ClubEvening.id == evening_id))

    async def evening(self, evening_id: int, *, lock: bool = False) -> EveningInfo | None:
        """The evening; ``lock``: for the rest of the transaction (PostgreSQL ``FOR UPDATE``,
        so two officers' changes of one evening happen one after the other)."""
        query = select(m.ClubEvening).where(m.ClubEvening.id == evening_id)
        if lock:
            query = query.with_for_update()
        row = await self.session.scalar(query)
        return None if row is None else _evening(row)

    async def evenings(self, season_id: int) -> list[EveningInfo]:
        rows = await self.session.scalars(
            select(m.ClubEvening)
            .where(m.ClubEvening.season_id == season_id)
            .order_by(m.ClubEvening.date)
        )
        return [_evening(r) for r in rows]

    async def evening_on(self, club_id: int, day: date) -> EveningInfo | None:
        row = await self.session.scalar(
            select(m.ClubEvening)
            .join(m.ClubSeason, m.ClubSeason.id == m.ClubEvening.season_id)
            .where(m.ClubSeason.club_id == club_id, m.ClubEvening.date == day)
        )
        return None if row is None else _evening(row)

    # ----------------------------------------------------------------------- one evening's play

    async def add_checkin(
        self,
        evening_id: int,
        member_id: int,
        *,
        at: datetime,
        late: bool,
        recorded_by: str,
        override_by: str | None = None,
        override_reason: str | None = None,
    ) -> None:
        self.session.add(
            m.ClubCheckin(
                evening_id=evening_id,
                member_id=member_id,
                at=_utc(at),
                late=late,
                recorded_by=recorded_by,
                override_by=override_by,
                override_reason=override_reason,
            )
        )
        await self.session.flush()

    async def remove_checkin(self, evening_id: int, member_id: int) -> None:
        await self.session.execute(
            delete(m.ClubCheckin).where(
                m.ClubCheckin.evening_id == evening_id, m.ClubCheckin.member_id == member_id
            )
        )

    async def add_game(
        self,
        evening_id: int,
        number: int,
        seats: Sequence[NewSeat],
        rests: Sequence[int],
        *,
        drawn: bool,
        relaxed: bool = False,
        rests_drawn: bool | None = None,
    ) -> None:
        """A game's seating: its seats and the members resting (``rests_drawn``: whether the
        rests were drawn, by default as ``drawn``)."""
        self.session.add(
            m.ClubGame(
                evening_id=evening_id,
                number=number,
                drawn=drawn,
                relaxed=relaxed,
                seated_at=_now(),
                started_at=None,
            )
        )
        await self.session.flush()
        rest_drawn = drawn if rests_drawn is None else rests_drawn
        self.session.add_all(
            m.ClubSeat(
                evening_id=evening_id,
                game=number,
                member_id=s.member_id,
                table_no=s.table_no,
                line=s.line,
                position=s.position,
            )
            for s in seats
        )
        self.session.add_all(
            m.ClubRest(evening_id=evening_id, game=number, member_id=r, drawn=rest_drawn)
            for r in rests
        )
        await self.session.flush()

    async def delete_games(self, evening_id: int, *, from_game: int = 1) -> None:
        """Remove the seatings (and their results) of games ``from_game`` and later."""
        for model in (m.ClubResult, m.ClubSeat, m.ClubRest):
            await self.session.execute(
                delete(model).where(model.evening_id == evening_id, model.game >= from_game)
            )
        await self.session.execute(
            delete(m.ClubGame).where(
                m.ClubGame.evening_id == evening_id, m.ClubGame.number >= from_game
            )
        )

    async def set_game_started(self, evening_id: int, number: int, at: datetime | None) -> None:
        await self.session.execute(
            update(m.ClubGame)
            .where(m.ClubGame.evening_id == evening_id, m.ClubGame.number == number)
            .values(started_at=_utc(at))
        )

    async def set_result(
        self,
        evening_id: int,
        game: int,
        table_no: int,
        *,
        ns: int,
        ew: int,
        smazzate: Sequence[tuple[int, int]] | None,
        timed_out: int | None,
        entered_by: str,
        correction: bool = False,
    ) -> None:
        """Enter a table's result, or replace it (``correction``)."""
        rows = None if smazzate is None else [[a, b] for a, b in smazzate]
        if correction:
            await self.session.execute(
                update(m.ClubResult)
                .where(
                    m.ClubResult.evening_id == evening_id,
                    m.ClubResult.game == game,
                    m.ClubResult.table_no == table_no,
                )
                .values(
                    ns=ns,
                    ew=ew,
                    smazzate=rows,
                    timed_out=timed_out,
                    entered_by=entered_by,
                    entered_at=_now(),
                    corrections=m.ClubResult.corrections + 1,
                )
            )
            return
        self.session.add(
            m.ClubResult(
                evening_id=evening_id,
                game=game,
                table_no=table_no,
                ns=ns,
                ew=ew,
                smazzate=rows,
                timed_out=timed_out,
                entered_by=entered_by,
                entered_at=_now(),
                corrections=0,
            )
        )
        await self.session.flush()

    async def evening_state(self, evening_id: int, *, lock: bool = False) -> EveningState | None:
        evening = await self.evening(evening_id, lock=lock)
        if evening is None:
            return None
        checkins = await self.session.scalars(
            select(m.ClubCheckin)
            .where(m.ClubCheckin.evening_id == evening_id)
            .order_by(m.ClubCheckin.at, m.ClubCheckin.member_id)
        )
        games = (
            await self.session.scalars(
                select(m.ClubGame)
                .where(m.ClubGame.evening_id == evening_id)
                .order_by(m.ClubGame.number)
            )
        ).all()
        seats = (
            await self.session.scalars(
                select(m.ClubSeat)
                .where(m.ClubSeat.evening_id == evening_id)
                .order_by(
                    m.ClubSeat.game, m.ClubSeat.table_no, m.ClubSeat.line, m.ClubSeat.position
                )
            )
        ).all()
        rests = (
            await self.session.scalars(
                select(m.ClubRest)
                .where(m.ClubRest.evening_id == evening_id)
                .order_by(m.ClubRest.game, m.ClubRest.member_id)
            )
        ).all()
        results = (
            await self.session.scalars(
                select(m.ClubResult)
                .where(m.ClubResult.evening_id == evening_id)
                .order_by(m.ClubResult.game, m.ClubResult.table_no)
            )
        ).all()
        checks = await self.session.scalars(
            select(m.ClubScoreCheck)
            .where(m.ClubScoreCheck.evening_id == evening_id)
            .order_by(m.ClubScoreCheck.id)
        )
        return EveningState(
            evening=evening,
            checkins=tuple(
                CheckinInfo(
                    c.member_id,
                    _aware(c.at),
                    c.late,
                    c.recorded_by,
                    c.override_by,
                    c.override_reason,
                )
                for c in checkins
            ),
            games=tuple(
                GameInfo(
                    number=g.number,
                    drawn=g.drawn,
                    relaxed=g.relaxed,
                    seated_at=_aware(g.seated_at),
                    started_at=_maybe(g.started_at),
                    seats=tuple(
                        SeatRow(s.member_id, s.table_no, s.line, s.position)
                        for s in seats
                        if s.game == g.number
                    ),
                    rests=tuple(RestRow(r.member_id, r.drawn) for r in rests if r.game == g.number),
                    results=tuple(
                        ResultRow(
                            r.table_no,
                            r.ns,
                            r.ew,
                            None
                            if r.smazzate is None
                            else tuple((int(a), int(b)) for a, b in r.smazzate),
                            r.timed_out,
                            r.entered_by,
                            _aware(r.entered_at),
                            r.corrections,
                        )
                        for r in results
                        if r.game == g.number
                    ),
                )
                for g in games
            ),
            checks=tuple(_check(c) for c in checks),
        )

    # ----------------------------------------------------------------------- score checks

    async def add_check(
        self,
        evening_id: int,
        game: int,
        table_no: int,
        *,
        member_id: int | None,
        requested_by: str,
        note: str,
    ) -> ScoreCheckInfo:
        row = m.ClubScoreCheck(
            evening_id=evening_id,
            game=game,
            table_no=table_no,
            member_id=member_id,
            requested_by=requested_by,
            requested_at=_now(),
            note=note,
            status="open",
        )
        self.session.add(row)
        await self.session.flush()
        return _check(row)

    async def check(self, check_id: int) -> ScoreCheckInfo | None:
        row = await self.session.get(m.ClubScoreCheck, check_id)
        return None if row is None else _check(row)

    async def resolve_check(
        self, check_id: int, *, status: str, resolved_by: str, resolution: str
    ) -> None:
        await self.session.execute(
            update(m.ClubScoreCheck)
            .where(m.ClubScoreCheck.id == check_id)
            .values(
                status=status,
                resolved_by=resolved_by,
                resolved_at=_now(),
                resolution=resolution,
            )
        )

    # ----------------------------------------------------------------------- the audit trail

    async def audit(
        self,
        club_id: int,
        *,
        actor: str,
        user_id: int | None,
        action: str,
        subject: str,
        season_id: int | None = None,
        evening_id: int | None = None,
        before: Any = None,
        after: Any = None,
        reason: str | None = None,
    ) -> None:
        self.session.add(
            m.ClubAudit(
                club_id=club_id,
                at=_now(),
                user_id=user_id,
                actor=actor,
                action=action,
                subject=subject[:200],
                season_id=season_id,
                evening_id=evening_id,
                before=before,
                after=after,
                reason=reason,
            )
        )
        await self.session.flush()

    async def audit_trail(
        self,
        club_id: int,
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
        action_prefix: str | None = None,
    ) -> list[AuditEntry]:
        query = select(m.ClubAudit).where(m.ClubAudit.club_id == club_id)
        if season_id is not None:
            query = query.where(m.ClubAudit.season_id == season_id)
        if evening_id is not None:
            query = query.where(m.ClubAudit.evening_id == evening_id)
        if action_prefix is not None:
            query = query.where(m.ClubAudit.action.startswith(action_prefix))
        rows = await self.session.scalars(query.order_by(m.ClubAudit.id))
        return [_audit(r) for r in rows]

    # ----------------------------------------------------------------------- fees and prizes

    async def add_charge(
        self,
        season_id: int,
        member_id: int,
        *,
        due_on: date,
        amount_cents: int,
        reason: str,
        created_by: str,
    ) -> ChargeInfo:
        row = m.ClubCharge(
            season_id=season_id,
            member_id=member_id,
            due_on=due_on,
            amount_cents=amount_cents,
            reason=reason,
            created_by=created_by,
            created_at=_now(),
        )
        self.session.add(row)
        await self.session.flush()
        return _charge(row)

    async def charges(self, season_id: int) -> list[ChargeInfo]:
        rows = await self.session.scalars(
            select(m.ClubCharge)
            .where(m.ClubCharge.season_id == season_id)
            .order_by(m.ClubCharge.due_on, m.ClubCharge.id)
        )
        return [_charge(r) for r in rows]

    async def add_payment(
        self,
        season_id: int,
        member_id: int,
        *,
        amount_cents: int,
        paid_on: date,
        note: str,
        recorded_by: str,
    ) -> PaymentInfo:
        row = m.ClubPayment(
            season_id=season_id,
            member_id=member_id,
            amount_cents=amount_cents,
            paid_on=paid_on,
            note=note,
            recorded_by=recorded_by,
            recorded_at=_now(),
        )
        self.session.add(row)
        await self.session.flush()
        return _payment(row)

    async def payments(self, season_id: int) -> list[PaymentInfo]:
        rows = await self.session.scalars(
            select(m.ClubPayment)
            .where(m.ClubPayment.season_id == season_id)
            .order_by(m.ClubPayment.paid_on, m.ClubPayment.id)
        )
        return [_payment(r) for r in rows]

    async def replace_prizes(self, season_id: int, prizes: Sequence[dict[str, Any]]) -> None:
        """The season's awarded prizes, replaced as a whole (they are recomputed at closing)."""
        await self.session.execute(delete(m.ClubPrize).where(m.ClubPrize.season_id == season_id))
        now = _now()
        self.session.add_all(
            m.ClubPrize(season_id=season_id, awarded_at=now, **prize) for prize in prizes
        )
        await self.session.flush()

    async def prizes(self, season_id: int) -> list[PrizeInfo]:
        rows = await self.session.scalars(
            select(m.ClubPrize)
            .where(m.ClubPrize.season_id == season_id)
            .order_by(m.ClubPrize.kind, m.ClubPrize.place, m.ClubPrize.evening_id, m.ClubPrize.id)
        )
        return [_prize(r) for r in rows]

    async def set_prize_delivered(self, prize_id: int, on: date | None) -> None:
        await self.session.execute(
            update(m.ClubPrize).where(m.ClubPrize.id == prize_id).values(delivered_on=on)
        )
