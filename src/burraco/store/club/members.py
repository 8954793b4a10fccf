"""Clubs and their members, inside one transaction (part of ``ClubTx``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import club_models as m
from .. import models
from . import convert as to
from .records import ClubInfo, MemberInfo


class Rows:
    """What every part of a transaction works on: its session."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session


class MemberRows(Rows):
    """Clubs, members and the platform accounts linked to them."""

    async def create_club(self, name: str, *, timezone: str, place: str = "") -> ClubInfo:
        row = m.Club(name=name, timezone=timezone, place=place, created_at=to.now())
        self.session.add(row)
        await self.session.flush()
        return to.club(row)

    async def update_club(self, club_id: int, **values: Any) -> None:
        await self.session.execute(update(m.Club).where(m.Club.id == club_id).values(**values))

    async def club(self, club_id: int) -> ClubInfo | None:
        row = await self.session.get(m.Club, club_id)
        return None if row is None else to.club(row)

    async def club_by_name(self, name: str) -> ClubInfo | None:
        row = await self.session.scalar(
            select(m.Club).where(func.lower(m.Club.name) == name.casefold())
        )
        return None if row is None else to.club(row)

    async def clubs(self) -> list[ClubInfo]:
        rows = await self.session.scalars(select(m.Club).order_by(m.Club.name))
        return [to.club(r) for r in rows]

    async def clubs_of_user(self, user_id: int) -> list[tuple[ClubInfo, MemberInfo]]:
        rows = await self.session.execute(
            select(m.Club, m.ClubMember, models.User.name)
            .join(m.ClubMember, m.ClubMember.club_id == m.Club.id)
            .join(models.User, models.User.id == m.ClubMember.user_id)
            .where(m.ClubMember.user_id == user_id)
            .order_by(m.Club.name)
        )
        return [(to.club(c), to.member(mem, uname)) for c, mem, uname in rows]

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
            joined_at=to.now(),
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
        return None if found is None else to.member(found[0], found[1])

    async def members(self, club_id: int) -> list[MemberInfo]:
        rows = await self.session.execute(
            self._members_query().where(m.ClubMember.club_id == club_id).order_by(m.ClubMember.name)
        )
        return [to.member(row, uname) for row, uname in rows]

    async def member_of_user(self, club_id: int, user_id: int) -> MemberInfo | None:
        found = (
            await self.session.execute(
                self._members_query().where(
                    m.ClubMember.club_id == club_id, m.ClubMember.user_id == user_id
                )
            )
        ).first()
        return None if found is None else to.member(found[0], found[1])

    async def user_id_by_name(self, name: str) -> int | None:
        user_id: int | None = await self.session.scalar(
            select(models.User.id).where(models.User.name_key == name.casefold())
        )
        return user_id
