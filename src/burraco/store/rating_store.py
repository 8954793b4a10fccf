"""Ratings in the database: ``RatingStore(store)`` rates a finished match in one transaction
(read the players' ratings, compute with ``burraco.ratings``, write the new ratings and the
history) and answers the leaderboards and a player's ratings and history from indexed queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from burraco.ratings import (
    PRESETS,
    Entrant,
    MatchOutcome,
    Mode,
    Rating,
    RatingsError,
    RatingSettings,
    bot_rating,
    rate,
)
from burraco.ratings.rate import is_provisional

from . import models
from . import rating_models as m
from .hidden import same_cards_in_play
from .store import Store, _aware


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    name: str
    mode: Mode
    rating: Rating
    matches: int
    wins: int
    draws: int
    abandoned: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class RatingChange:
    seat: int
    key: str
    before: Rating
    after: Rating
    result: str
    """``win``, ``loss``, ``draw``, ``abandoned`` or ``held``; a bot's is its team's."""


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    at: datetime
    mu: float
    sigma: float
    delta: float
    result: str
    table_id: str
    match_no: int


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    name: str
    rating: Rating
    matches: int
    delta: float | None
    """The month's change (monthly boards), None on the overall board."""
    bot: bool = False
    """A bot account (rated in the pool as a person is: docs/accounts.md)."""


def _user_id(key: str) -> int | None:
    kind, _, value = key.partition(":")
    return int(value) if kind == "user" else None


def _month_bounds(year: int, month: int) -> tuple[datetime, datetime]:
    if not 1 <= month <= 12:
        raise RatingsError(f"a month is 1 to 12, not {month}")
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def _check_seats(mode: Mode, seats: Sequence[str]) -> None:
    """RatingsError unless every seat is a person or a bot with an anchor."""
    for seat, key in enumerate(seats):
        if _user_id(key) is None and bot_rating(mode, key.partition(":")[2]) is None:
            raise RatingsError(f"seat {seat} ({key}) cannot be rated", code="outside_bot")


async def _check_people(session: AsyncSession, seats: Sequence[str]) -> list[int]:
    """The seated people's ids; RatingsError when one of them cannot be rated."""
    ids = [uid for uid in (_user_id(k) for k in seats) if uid is not None]
    people = (
        await session.execute(
            select(models.User.id, models.User.name, models.User.is_guest).where(
                models.User.id.in_(ids)
            )
        )
    ).all()
    if len({p.id for p in people}) < len(set(ids)):
        # A player deleted his account before the match was rated (his rating went with
        # it): the match stands unrated rather than failing on his missing row.
        raise RatingsError("a player of this match has deleted his account", code="account_deleted")
    guests = [p.name for p in people if p.is_guest]
    if guests:
        raise RatingsError(f"guests are never rated: {', '.join(guests)}", code="guest")
    return ids


def _outcome_json(outcome: MatchOutcome) -> dict[str, list[Any]]:
    return {
        "teams": [list(team) for team in outcome.teams],
        "ranks": list(outcome.ranks),
        "held": sorted(outcome.held),
        "penalised": sorted(outcome.penalised),
    }


def _outcome(data: dict[str, list[Any]]) -> MatchOutcome:
    return MatchOutcome(
        tuple(tuple(int(s) for s in team) for team in data["teams"]),
        tuple(int(r) for r in data["ranks"]),
        held=frozenset(int(s) for s in data["held"]),
        penalised=frozenset(int(s) for s in data["penalised"]),
    )


@dataclass(frozen=True, slots=True)
class PendingDone:
    """A pending match whose round is over (``RatingStore.rate_pending``)."""

    table_id: str
    match_no: int
    changes: list[RatingChange] | None
    """What the rating did (None: rated already, or not rated: ``unrated``)."""
    unrated: RatingsError | None = None
    """Why it could not be rated after all (a player deleted his account meanwhile)."""


class RatingStore:
    def __init__(self, store: Store, settings: RatingSettings = PRESETS["standard"]) -> None:
        self.store = store
        self.settings = settings

    def new_rating(self) -> Rating:
        return Rating(self.settings.mu, self.settings.sigma)

    async def rate_match(
        self,
        *,
        table_id: str,
        match_no: int,
        mode: Mode,
        seats: Sequence[str],
        outcome: MatchOutcome,
        now: datetime,
    ) -> list[RatingChange] | None:
        """Rate a finished match; None when it was rated already. ``seats``: ``user:ID`` or
        ``bot:LEVEL`` per seat. Raises RatingsError (and writes nothing) when it cannot be."""
        _check_seats(mode, seats)
        async with self.store.write() as session:
            ids = await _check_people(session, seats)
            session.add(m.RatedMatch(table_id=table_id, match_no=match_no, mode=mode.value, at=now))
            try:
                await session.flush()
            except IntegrityError:
                await session.rollback()
                return None
            rows = {
                row.user_id: row
                for row in (
                    await session.scalars(
                        select(m.PlayerRating)
                        .where(m.PlayerRating.mode == mode.value, m.PlayerRating.user_id.in_(ids))
                        .with_for_update()
                    )
                ).all()
            }

            def current(key: str) -> Rating:
                uid = _user_id(key)
                if uid is None:
                    anchor = bot_rating(mode, key.partition(":")[2])
                    assert anchor is not None
                    return anchor
                row = rows.get(uid)
                return self.new_rating() if row is None else Rating(row.mu, row.sigma)

            teams = [
                [
                    Entrant(
                        seats[s],
                        current(seats[s]),
                        fixed=_user_id(seats[s]) is None or s in outcome.held,
                    )
                    for s in team
                ]
                for team in outcome.teams
            ]
            penalised = {seats[s] for s in outcome.penalised if _user_id(seats[s]) is not None}
            after = rate(self.settings, teams, outcome.ranks, penalised=penalised)
            best = min(outcome.ranks)
            shared = outcome.ranks.count(best) > 1
            changes: list[RatingChange] = []
            for team, place in zip(outcome.teams, outcome.ranks, strict=True):
                for seat in team:
                    key = seats[seat]
                    if seat in outcome.penalised:
                        result = "abandoned"
                    elif seat in outcome.held:
                        result = "held"
                    elif place == best:
                        result = "draw" if shared else "win"
                    else:
                        result = "loss"
                    before = current(key)
                    new = after.get(key, before)
                    changes.append(RatingChange(seat, key, before, new, result))
                    uid = _user_id(key)
                    if uid is None:
                        continue
                    session.add(
                        m.RatingEvent(
                            user_id=uid,
                            mode=mode.value,
                            table_id=table_id,
                            match_no=match_no,
                            at=now,
                            mu=new.mu,
                            sigma=new.sigma,
                            delta=new.mu - before.mu,
                            result=result,
                        )
                    )
                    await self._add_to_month(
                        session, uid, mode, now=now, new=new, delta=new.mu - before.mu
                    )
                    if result == "held":
                        continue
                    row = rows.get(uid)
                    if row is None:
                        row = m.PlayerRating(
                            user_id=uid, mode=mode.value, matches=0, wins=0, draws=0, abandoned=0
                        )
                        session.add(row)
                        rows[uid] = row
                    row.mu, row.sigma, row.updated_at = new.mu, new.sigma, now
                    row.matches += 1
                    row.wins += result == "win"
                    row.draws += result == "draw"
                    row.abandoned += result == "abandoned"
        return sorted(changes, key=lambda c: c.seat)

    async def defer_match(
        self,
        *,
        table_id: str,
        match_no: int,
        mode: Mode,
        seats: Sequence[str],
        outcome: MatchOutcome,
        now: datetime,
    ) -> bool:
        """Keep a finished match to be rated once its same-cards round is over
        (``rate_pending``): rated now, its result would reach the round's other tables
        (docs/tournaments.md, "Same cards"). ``rate_match``'s arguments and checks: raises
        RatingsError (and keeps nothing) when it cannot be rated; False when it was rated
        already."""
        _check_seats(mode, seats)
        async with self.store.write() as session:
            await _check_people(session, seats)
            if await session.get(m.RatedMatch, (table_id, match_no)) is not None:
                return False
            await session.merge(
                m.PendingRating(
                    table_id=table_id,
                    match_no=match_no,
                    mode=mode.value,
                    seats=list(seats),
                    outcome=_outcome_json(outcome),
                    finished_at=now,
                )
            )
        return True

    async def rate_pending(self, now: datetime) -> list[PendingDone]:
        """Rate the kept matches whose same-cards round is over (``hidden``'s condition no
        longer holds), in the order they ended, each at ``now``, and forget them. A match that
        cannot be rated any more (a player deleted his account meanwhile) is forgotten with
        its reason. Safe to repeat: a match rated before a crash is not rated twice."""
        p = m.PendingRating
        async with self.store.sessions() as session:
            due = [
                (row.table_id, row.match_no, Mode(row.mode), list(row.seats), dict(row.outcome))
                for row in (
                    await session.scalars(
                        select(p)
                        .where(~same_cards_in_play(p.table_id))
                        .order_by(p.finished_at, p.table_id, p.match_no)
                    )
                ).all()
            ]
        done: list[PendingDone] = []
        for table_id, match_no, mode, seats, outcome in due:
            try:
                changes = await self.rate_match(
                    table_id=table_id,
                    match_no=match_no,
                    mode=mode,
                    seats=seats,
                    outcome=_outcome(outcome),
                    now=now,
                )
            except RatingsError as error:
                done.append(PendingDone(table_id, match_no, None, error))
            else:
                done.append(PendingDone(table_id, match_no, changes))
            async with self.store.write() as session:
                await session.execute(
                    delete(p).where(p.table_id == table_id, p.match_no == match_no)
                )
        return done

    async def _add_to_month(
        self,
        session: AsyncSession,
        uid: int,
        mode: Mode,
        *,
        now: datetime,
        new: Rating,
        delta: float,
    ) -> None:
        month = now.astimezone(UTC).strftime("%Y-%m")
        row = await session.get(m.RatingMonth, (uid, mode.value, month), with_for_update=True)
        if row is None:
            session.add(
                m.RatingMonth(
                    user_id=uid,
                    mode=mode.value,
                    month=month,
                    mu=new.mu,
                    sigma=new.sigma,
                    delta=delta,
                    matches=1,
                )
            )
            return
        row.mu, row.sigma = new.mu, new.sigma
        row.delta += delta
        row.matches += 1

    def _row(self, rating: m.PlayerRating, name: str) -> RatingRow:
        value = Rating(rating.mu, rating.sigma)
        return RatingRow(
            rating.user_id,
            name,
            Mode(rating.mode),
            value,
            rating.matches,
            rating.wins,
            rating.draws,
            rating.abandoned,
            is_provisional(self.settings, value),
        )

    async def ratings_of(self, user_id: int) -> list[RatingRow]:
        """The player's rating in every mode he has played rated."""
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(m.PlayerRating, models.User.name)
                    .join(models.User, models.User.id == m.PlayerRating.user_id)
                    .where(m.PlayerRating.user_id == user_id)
                    .order_by(m.PlayerRating.mode)
                )
            ).all()
        return [self._row(rating, name) for rating, name in rows]

    async def history(self, user_id: int, mode: Mode, *, limit: int = 500) -> list[HistoryPoint]:
        """The player's rated matches in ``mode``, oldest first (the last ``limit``); none of a
        same-cards round still being played (``hidden.same_cards_in_play``)."""
        e = m.RatingEvent
        async with self.store.sessions() as session:
            rows = (
                await session.scalars(
                    select(e)
                    .where(
                        e.user_id == user_id,
                        e.mode == mode.value,
                        ~same_cards_in_play(e.table_id),
                    )
                    .order_by(m.RatingEvent.at.desc(), m.RatingEvent.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            HistoryPoint(_aware(r.at), r.mu, r.sigma, r.delta, r.result, r.table_id, r.match_no)
            for r in reversed(rows)
        ]

    async def leaderboard(
        self,
        mode: Mode,
        *,
        provisional: bool = False,
        month: tuple[int, int] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[LeaderRow]:
        """A mode's players by rating, established ones (or, ``provisional``, the others)
        apart. ``month`` (year, month): the players who played rated in that month, by their
        rating at its end, with the month's change."""
        cut = self.settings.provisional_sigma
        async with self.store.sessions() as session:
            if month is None:
                r = m.PlayerRating
                query = (
                    select(
                        r.user_id,
                        models.User.name,
                        r.mu,
                        r.sigma,
                        r.matches,
                        models.User.bot_owner_id,
                    )
                    .join(models.User, models.User.id == r.user_id)
                    .where(r.mode == mode.value, r.sigma > cut if provisional else r.sigma <= cut)
                    .order_by(r.mu.desc(), r.user_id)
                    .limit(limit)
                    .offset(offset)
                )
                return [
                    LeaderRow(uid, name, Rating(mu, sigma), matches, None, owner is not None)
                    for uid, name, mu, sigma, matches, owner in (await session.execute(query)).all()
                ]
            start, _ = _month_bounds(*month)
            mo = m.RatingMonth
            monthly = (
                select(
                    mo.user_id,
                    models.User.name,
                    mo.mu,
                    mo.sigma,
                    mo.matches,
                    mo.delta,
                    models.User.bot_owner_id,
                )
                .join(models.User, models.User.id == mo.user_id)
                .where(
                    mo.mode == mode.value,
                    mo.month == start.strftime("%Y-%m"),
                    mo.sigma > cut if provisional else mo.sigma <= cut,
                )
                .order_by(mo.mu.desc(), mo.user_id)
                .limit(limit)
                .offset(offset)
            )
            found: list[Any] = list((await session.execute(monthly)).all())
            return [
                LeaderRow(
                    row[0],
                    row[1],
                    Rating(row[2], row[3]),
                    int(row[4]),
                    float(row[5]),
                    row[6] is not None,
                )
                for row in found
            ]
