"""Seasons and their evenings, inside one transaction (part of ``ClubTx``)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import delete, select, update

from burraco.tournament.season import SeasonSettings

from .. import club_models as m
from . import convert as to
from .members import Rows
from .records import EveningInfo, EveningStatus, SeasonInfo


class CalendarRows(Rows):
    """Seasons (their settings typed as ``SeasonSettings``) and evenings."""

    async def create_season(self, club_id: int, settings: SeasonSettings) -> SeasonInfo:
        values = settings.values()
        values["season_prizes_cents"] = list(values["season_prizes_cents"])
        row = m.ClubSeason(club_id=club_id, created_at=to.now(), **values)
        self.session.add(row)
        await self.session.flush()
        return to.season(row)

    async def update_season(self, season_id: int, **settings: Any) -> None:
        if "season_prizes_cents" in settings:
            settings["season_prizes_cents"] = list(settings["season_prizes_cents"])
        await self.session.execute(
            update(m.ClubSeason).where(m.ClubSeason.id == season_id).values(**settings)
        )

    async def season(self, season_id: int) -> SeasonInfo | None:
        row = await self.session.get(m.ClubSeason, season_id)
        return None if row is None else to.season(row)

    async def seasons(self, club_id: int) -> list[SeasonInfo]:
        rows = await self.session.scalars(
            select(m.ClubSeason)
            .where(m.ClubSeason.club_id == club_id)
            .order_by(m.ClubSeason.starts_on, m.ClubSeason.id)
        )
        return [to.season(r) for r in rows]

    async def add_evening(
        self, season_id: int, day: date, type: str, *, one_game_fewer: bool = False
    ) -> EveningInfo:
        row = m.ClubEvening(
            season_id=season_id,
            date=day,
            type=type,
            one_game_fewer=one_game_fewer,
            status=EveningStatus.SCHEDULED.value,
            note="",
        )
        self.session.add(row)
        await self.session.flush()
        return to.evening(row)

    async def update_evening(self, evening_id: int, **values: Any) -> None:
        if "status" in values:
            values["status"] = EveningStatus(values["status"]).value
        if "stations" in values and values["stations"] is not None:
            values["stations"] = list(values["stations"])
        for key in ("drawn_at", "published_at"):
            if key in values:
                values[key] = to.utc(values[key])
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
        return None if row is None else to.evening(row)

    async def evenings(self, season_id: int) -> list[EveningInfo]:
        rows = await self.session.scalars(
            select(m.ClubEvening)
            .where(m.ClubEvening.season_id == season_id)
            .order_by(m.ClubEvening.date)
        )
        return [to.evening(r) for r in rows]

    async def evening_on(self, club_id: int, day: date) -> EveningInfo | None:
        row = await self.session.scalar(
            select(m.ClubEvening)
            .join(m.ClubSeason, m.ClubSeason.id == m.ClubEvening.season_id)
            .where(m.ClubSeason.club_id == club_id, m.ClubEvening.date == day)
        )
        return None if row is None else to.evening(row)
