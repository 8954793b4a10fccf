"""A club's seasons: their settings (``SeasonSettings``), and finding one by name or date."""

from __future__ import annotations

from datetime import date
from typing import Any

from burraco.store.club import SeasonInfo

from .access import Actor, Part
from .checks import checked_settings, replaced_settings, season_settings, suggest
from .errors import bad, conflict, not_found


class Seasons(Part):
    """Seasons (part of ``ClubService``)."""

    async def create_season(
        self,
        actor: Actor,
        club_id: int,
        name: str,
        *,
        starts_on: date,
        ends_on: date,
        **settings: Any,
    ) -> SeasonInfo:
        """A season with ``settings`` (``SeasonSettings``'s; those not given: its defaults)."""
        values = season_settings(name=name, starts_on=starts_on, ends_on=ends_on, **settings)
        async with self.operation(actor, club_id=club_id) as op:
            seasons = await op.tx.seasons(club_id)
            if any(s.name.casefold() == values.name.casefold() for s in seasons):
                raise conflict(
                    f"there is already a season named {values.name!r}",
                    "season_exists",
                    name=values.name,
                )
            season = await op.tx.create_season(club_id, values)
            await op.audit(
                "season.create",
                f"season {season.name}",
                season_id=season.id,
                after=values.to_json(),
            )
            return season

    async def update_season(self, actor: Actor, season_id: int, **settings: Any) -> SeasonInfo:
        """Change some settings: each is checked before the season is read, the dates with the
        season's others."""
        values = checked_settings(settings)
        async with self.operation(actor, season_id=season_id) as op:
            if not values:  # an empty change (PATCH {}): the season as it is, no audit line
                return op.season
            old = op.season.settings
            new = replaced_settings(old, values)
            outside = [
                e.date
                for e in await op.tx.evenings(season_id)
                if not new.starts_on <= e.date <= new.ends_on
            ]
            if outside:
                raise bad(
                    f"the evening of {outside[0]} would fall outside the season",
                    "evening_outside_season",
                    date=str(outside[0]),
                )
            await op.tx.update_season(season_id, **new.values(list(values)))
            await op.audit(
                "season.update",
                f"season {op.season.name}",
                before=old.to_json(list(values)),
                after=new.to_json(list(values)),
            )
            updated = await op.tx.season(season_id)
            assert updated is not None
            return updated

    async def seasons(self, actor: Actor, club_id: int) -> list[SeasonInfo]:
        async with self.reading(actor, club_id=club_id) as op:
            return await op.tx.seasons(club_id)

    async def season(self, actor: Actor | None, season_id: int) -> SeasonInfo:
        """A season (``actor`` None: no check, for the public calendar)."""
        async with self.reading(actor, season_id=season_id) as op:
            return op.season

    async def find_season(self, club_id: int, name: str | None, on: date | None = None) -> int:
        """A season by name; else the one holding ``on``; else the latest."""
        async with self.db.read() as tx:
            seasons = await tx.seasons(club_id)
        if not seasons:
            raise not_found("the club has no season yet")
        if name:
            for s in seasons:
                if s.name.casefold() == name.casefold() or str(s.id) == name:
                    return s.id
            known = [s.name for s in seasons]
            raise not_found(f"no season named {name!r}{suggest(name, known)}")
        if on is not None:
            for s in reversed(seasons):
                if s.starts_on <= on <= s.ends_on:
                    return s.id
            raise bad(
                f"{on} is outside every season of the club", "date_outside_seasons", date=str(on)
            )
        return seasons[-1].id

    async def club_of(self, *, season_id: int | None = None, evening_id: int | None = None) -> int:
        """The club of a season or of an evening."""
        async with self.db.read() as tx:
            if evening_id is not None:
                ev = await tx.evening(evening_id)
                if ev is None:
                    raise not_found(f"no evening {evening_id}")
                season_id = ev.season_id
            assert season_id is not None
            season = await tx.season(season_id)
            if season is None:
                raise not_found(f"no season {season_id}")
            return season.club_id
