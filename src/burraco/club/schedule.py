"""A season's calendar: planning its evenings, adding, moving, cancelling or removing one, the
public calendar and its ``.ics`` (the planning itself is ``calendar``'s, pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from burraco.store.club import (
    ClubInfo,
    ClubTx,
    EveningInfo,
    EveningState,
    EveningStatus,
    SeasonInfo,
)
from burraco.tournament import EveningType

from . import calendar as cal
from .access import Actor, Part, club_row, jsonable, season_row
from .checks import clean, evening_type
from .errors import bad, conflict, not_found
from .evenings import complete, numbered, times_of
from .texts import check_lang, evening_description, evening_summary
from .views import SeasonEvening


def check_in_season(season: SeasonInfo, day: date) -> None:
    if not season.starts_on <= day <= season.ends_on:
        raise bad(
            f"{day} is outside the season {season.name!r} ({season.starts_on} to {season.ends_on})",
            "date_outside_season",
            date=str(day),
            start=str(season.starts_on),
            end=str(season.ends_on),
            season=season.name,
        )


class Schedule(Part):
    """The calendar (part of ``ClubService``)."""

    async def create_calendar(
        self,
        actor: Actor,
        season_id: int,
        *,
        first: date | None = None,
        count: int = cal.EVENINGS,
        italiano: Sequence[int] | None = None,
        skip: Iterable[date] = (),
    ) -> list[EveningInfo]:
        """The season's evenings, every week on the season's weekday from ``first`` (default:
        the season's start), but the ``skip`` dates; ``italiano``: which are Burraco Italiano
        (default five spread evenly). All must fall inside the season."""
        async with self.operation(actor, season_id=season_id) as op:
            season = op.season
            if first is not None:
                check_in_season(season, first)  # before counting weeks from it
            planned = cal.plan(
                first or season.starts_on,
                count,
                weekday=season.weekday,
                skip=skip,
                italiano=italiano,
            )
            for p in planned:
                check_in_season(season, p.date)
            existing = {e.date for e in await op.tx.evenings(season_id)}
            clash = [p.date for p in planned if p.date in existing]
            if clash:
                raise conflict(
                    f"there is already an evening on {clash[0]}",
                    "evening_exists",
                    date=str(clash[0]),
                )
            out = [await op.tx.add_evening(season_id, p.date, p.type.value) for p in planned]
            await op.audit(
                "calendar.create",
                f"season {season.name}: {len(out)} evenings",
                after=[{"date": str(e.date), "type": e.type} for e in out],
            )
            return out

    async def add_evening(
        self,
        actor: Actor,
        season_id: int,
        day: date,
        type: str = "internazionale",
        *,
        one_game_fewer: bool = False,
    ) -> EveningInfo:
        kind = evening_type(type)
        async with self.operation(actor, season_id=season_id) as op:
            check_in_season(op.season, day)
            if any(e.date == day for e in await op.tx.evenings(season_id)):
                raise conflict(
                    f"there is already an evening on {day}", "evening_exists", date=str(day)
                )
            evening = await op.tx.add_evening(
                season_id, day, kind.value, one_game_fewer=one_game_fewer
            )
            await op.audit(
                "evening.add",
                f"evening {day}",
                evening_id=evening.id,
                after={"date": str(day), "type": kind.value, "one_game_fewer": one_game_fewer},
            )
            return evening

    async def update_evening(
        self,
        actor: Actor,
        evening_id: int,
        *,
        day: date | None = None,
        type: str | None = None,
        one_game_fewer: bool | None = None,
        cancelled: bool | None = None,
        note: str | None = None,
        reason: str | None = None,
    ) -> EveningInfo:
        """Move an evening, change its type, play one game fewer (the officers' choice, T26:
        allowed until that game has results), cancel it or give it back."""
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            ev = op.evening
            values: dict[str, Any] = {}
            if day is not None and day != ev.date:
                await _check_move(op.tx, op.state, op.season, day)
                values["date"] = day
            if type is not None and evening_type(type).value != ev.type:
                if ev.status is not EveningStatus.SCHEDULED:
                    raise conflict("the type of an evening cannot change once seats are drawn")
                values["type"] = evening_type(type).value
            if one_game_fewer is not None and one_game_fewer != ev.one_game_fewer:
                kind = EveningType(values.get("type", ev.type))
                values |= await _games_change(op.tx, op.state, kind, one_game_fewer)
            if cancelled is not None:
                values |= _cancellation(ev, cancelled)
            if note is not None:
                values["note"] = clean(note)[:200]
            if not values:
                return ev
            await op.tx.update_evening(evening_id, **values)
            await op.audit(
                "evening.update",
                f"evening {ev.date}",
                before=jsonable({k: getattr(ev, k) for k in values}),
                after=jsonable(values),
                reason=clean(reason) or None,
            )
            updated = await op.tx.evening(evening_id)
            assert updated is not None
            return updated

    async def delete_evening(self, actor: Actor, evening_id: int, reason: str = "") -> None:
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            ev = op.evening
            if ev.status.drawn or op.state.checkins:
                raise conflict(
                    "only an evening without check-ins can be removed", "evening_has_checkins"
                )
            await op.tx.delete_evening(evening_id)
            await op.audit(
                "evening.delete",
                f"evening {ev.date}",
                evening_id=None,
                before={"date": str(ev.date), "type": ev.type},
                reason=clean(reason) or None,
            )

    async def evenings(self, actor: Actor | None, season_id: int) -> list[EveningInfo]:
        async with self.reading(actor, season_id=season_id) as op:
            return await op.tx.evenings(season_id)

    async def find_evening(self, club_id: int, day: date) -> int:
        async with self.db.read() as tx:
            evening = await tx.evening_on(club_id, day)
        if evening is None:
            raise not_found(f"no evening on {day}")
        return evening.id

    async def calendar(self, season_id: int) -> tuple[ClubInfo, SeasonInfo, list[SeasonEvening]]:
        """The public calendar: no login needed (the .ics link is a subscription)."""
        async with self.db.read() as tx:
            season = await season_row(tx, season_id)
            club = await club_row(tx, season.club_id)
            return club, season, numbered(await tx.evenings(season_id))

    async def calendar_ics(self, season_id: int, lang: str = "it") -> str:
        lang = check_lang(lang)
        club, season, evenings = await self.calendar(season_id)
        tz = cal.zone(club.timezone)
        events = []
        for e in evenings:
            times = times_of(e.info, season, tz)
            events.append(
                cal.IcsEvent(
                    uid=f"club{club.id}-season{season.id}-evening{e.info.id}@burraco",
                    start=times.start,
                    end=times.end,
                    summary=evening_summary(lang, e, season, club),
                    description=evening_description(lang, e, season, times),
                    location=club.place,
                    cancelled=e.info.status is EveningStatus.CANCELLED,
                )
            )
        return cal.ics(f"{club.name} — {season.name}", events, stamp=self.clock())


async def _check_move(tx: ClubTx, state: EveningState, season: SeasonInfo, day: date) -> None:
    if state.evening.status is not EveningStatus.SCHEDULED or state.checkins:
        raise conflict("only an evening without check-ins can be moved", "evening_has_checkins")
    check_in_season(season, day)
    if any(e.date == day for e in await tx.evenings(season.id)):
        raise conflict(f"there is already an evening on {day}", "evening_exists", date=str(day))


async def _games_change(
    tx: ClubTx, state: EveningState, kind: EveningType, one_game_fewer: bool
) -> dict[str, Any]:
    """One game fewer (or back): the games beyond the new last are removed while they have no
    results; a playing evening whose games are all complete is finished (and back)."""
    ev = state.evening
    games = kind.games - one_game_fewer
    done = [g for g in state.games if g.results]
    if any(g.number > games for g in done):
        raise conflict(f"game {kind.games} already has results")
    if any(g.number > games for g in state.games):
        await tx.delete_games(ev.id, from_game=games + 1)
    values: dict[str, Any] = {"one_game_fewer": one_game_fewer}
    if ev.status.drawn:
        finished = sum(1 for g in state.games if complete(g) and g.number <= games)
        values["status"] = EveningStatus.FINISHED if finished >= games else EveningStatus.PLAYING
    return values


def _cancellation(ev: EveningInfo, cancelled: bool) -> dict[str, Any]:
    if cancelled and ev.status is not EveningStatus.CANCELLED:
        if ev.status is not EveningStatus.SCHEDULED:
            raise conflict("an evening whose seats are drawn cannot be cancelled", "seats_drawn")
        return {"status": EveningStatus.CANCELLED}
    if not cancelled and ev.status is EveningStatus.CANCELLED:
        return {"status": EveningStatus.SCHEDULED}
    return {}
