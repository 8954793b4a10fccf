"""Clubs and their members: founding a club, its place and time zone, who belongs to it, who is
an officer and which platform account each member logs in with."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from burraco.store.club import ClubInfo, ClubTx, MemberInfo
from burraco.store.names import club_name_key, has_hidden_marks, reads_as_latin, scripts_of

from . import calendar as cal
from .access import Access, Actor, Part, Role, member_row, role_of
from .checks import check_email, check_name, clean, suggest
from .errors import ClubError, bad, conflict, not_found

MAX_CLUBS_RUN = 5
"""Clubs a platform account may be an officer of and still found another (issue 19: one
account founded 25); the console (``burraco club``) has no such limit."""


class Clubs(Part):
    """Clubs and members (part of ``ClubService``)."""

    async def create_club(
        self,
        actor: Actor,
        name: str,
        *,
        timezone: str = "Europe/Rome",
        place: str = "",
        founder: str | None = None,
        founder_email: str | None = None,
    ) -> ClubInfo:
        """A new club. A platform user who creates it becomes its first officer (a member named
        ``founder``, by default his user name, linked to his account)."""
        name = " ".join(unicodedata.normalize("NFKC", name).split())
        if not 1 <= len(name) <= 80:
            raise bad("a club's name has 1 to 80 characters", "club_name")
        # A club's name could pass for another's as a person's could (issue 19, M9).
        if has_hidden_marks(name):
            raise bad(
                "a club's name has no invisible or combining marks: write an accented letter"
                " as one",
                "club_name_marks",
            )
        if len(scripts_of(name)) > 1 or reads_as_latin(name):
            raise bad(
                "a club's name is written in one alphabet, and not in letters that look Latin",
                "club_name_scripts",
            )
        cal.zone(timezone)
        if not actor.console and actor.user_id is None:
            raise ClubError("not_authenticated", "log in first")
        # No ``operation``: there is no club to look up yet, and whoever founds it is its
        # officer.
        async with self.db.write() as tx:
            if actor.user_id is not None:
                runs = [c for c, m in await tx.clubs_of_user(actor.user_id) if m.officer]
                if len(runs) >= MAX_CLUBS_RUN:
                    raise conflict(
                        f"you are already an officer of {len(runs)} clubs (a platform account"
                        f" founds a club only while it runs fewer than {MAX_CLUBS_RUN})",
                        "too_many_clubs",
                        limit=MAX_CLUBS_RUN,
                    )
            key = club_name_key(name)
            same = [c for c in await tx.clubs() if club_name_key(c.name) == key]
            if same or await tx.club_by_name(name) is not None:
                taken = same[0].name if same else name
                raise conflict(
                    f"there is already a club named {taken!r}", "club_exists", name=taken
                )
            club = await tx.create_club(name, timezone=timezone, place=clean(place)[:200])
            member = None
            if actor.user_id is not None:
                member = await tx.add_member(
                    club.id,
                    check_name(founder or actor.name),
                    email=check_email(founder_email),
                    user_id=actor.user_id,
                    officer=True,
                )
            await tx.audit(
                club.id,
                actor=member.name if member is not None else actor.name,
                user_id=actor.user_id,
                action="club.create",
                subject=f"club {name}",
            )
            return club

    async def clubs(self) -> list[ClubInfo]:
        async with self.db.read() as tx:
            return await tx.clubs()

    async def clubs_of(self, actor: Actor) -> list[tuple[ClubInfo, MemberInfo]]:
        if actor.user_id is None:
            return []
        async with self.db.read() as tx:
            return await tx.clubs_of_user(actor.user_id)

    async def find_club(self, name: str | None) -> ClubInfo:
        """By name; with no name, the only club there is."""
        async with self.db.read() as tx:
            if name:
                club = await tx.club_by_name(" ".join(name.split()))
                if club is None:
                    known = [c.name for c in await tx.clubs()]
                    raise not_found(f"no club named {name!r}{suggest(name, known)}")
                return club
            clubs = await tx.clubs()
            if len(clubs) != 1:
                raise bad(
                    "name the club (--club NAME): "
                    + ("there is none yet" if not clubs else f"there are {len(clubs)}")
                )
            return clubs[0]

    async def club(self, actor: Actor, club_id: int) -> tuple[ClubInfo, Role]:
        async with self.reading(actor, club_id=club_id) as op:
            return op.club, op.role

    async def role(self, actor: Actor, club_id: int) -> Role:
        async with self.db.read() as tx:
            return await role_of(tx, actor, club_id)

    async def require_officer(self, actor: Actor, club_id: int) -> Role:
        async with self.reading(actor, club_id=club_id, access=Access.OFFICER) as op:
            return op.role

    async def update_club(
        self, actor: Actor, club_id: int, *, place: str | None = None, timezone: str | None = None
    ) -> ClubInfo:
        async with self.operation(actor, club_id=club_id) as op:
            values: dict[str, Any] = {}
            if place is not None:
                values["place"] = clean(place)[:200]
            if timezone is not None:
                cal.zone(timezone)
                values["timezone"] = timezone
            if values:
                await op.tx.update_club(club_id, **values)
                await op.audit(
                    "club.update",
                    f"club {op.club.name}",
                    before={k: getattr(op.club, k) for k in values},
                    after=values,
                )
            updated = await op.tx.club(club_id)
            assert updated is not None
            return updated

    # ---------------------------------------------------------------------------- members

    async def add_member(
        self,
        actor: Actor,
        club_id: int,
        name: str,
        *,
        email: str | None = None,
        officer: bool = False,
        account: str | None = None,
    ) -> MemberInfo:
        name = check_name(name)
        address = check_email(email)
        async with self.operation(actor, club_id=club_id) as op:
            members = await op.tx.members(club_id)
            if any(m.name.casefold() == name.casefold() for m in members):
                raise conflict(
                    f"there is already a member named {name!r}", "member_exists", name=name
                )
            user_id = await _account(op.tx, account, members)
            member = await op.tx.add_member(
                club_id, name, email=address, user_id=user_id, officer=officer
            )
            await op.audit(
                "member.add",
                f"member {name}",
                after={"email": address, "officer": officer, "account": account},
            )
            return member

    async def update_member(
        self,
        actor: Actor,
        club_id: int,
        who: int | str,
        *,
        name: str | None = None,
        email: str | None = None,
        officer: bool | None = None,
        account: str | None = None,
        active: bool | None = None,
    ) -> MemberInfo:
        """Change a member (``email=""`` or ``account=""`` remove them)."""
        async with self.operation(actor, club_id=club_id) as op:
            member = await member_row(op.tx, club_id, who)
            members = await op.tx.members(club_id)
            values: dict[str, Any] = {}
            if name is not None:
                new = check_name(name)
                if any(m.name.casefold() == new.casefold() and m.id != member.id for m in members):
                    raise conflict(
                        f"there is already a member named {new!r}", "member_exists", name=new
                    )
                values["name"] = new
            if email is not None:
                values["email"] = check_email(email)
            if officer is not None:
                values["officer"] = officer
            if account is not None:
                values["user_id"] = await _account(op.tx, account, members, member.id)
            if active is not None:
                values["active"] = active
            if not values:
                return member
            if (officer is False or active is False) and member.officer:
                others = [m for m in members if m.officer and m.active and m.id != member.id]
                if not others:
                    raise conflict("the club must keep at least one active officer", "last_officer")
            await op.tx.update_member(member.id, **values)
            updated = await op.tx.member(member.id)
            assert updated is not None
            await op.audit(
                "member.update",
                f"member {member.name}",
                before=_member_json(member),
                after=_member_json(updated),
            )
            return updated

    async def members(self, actor: Actor, club_id: int) -> list[MemberInfo]:
        async with self.reading(actor, club_id=club_id) as op:
            members = await op.tx.members(club_id)
            if op.role.officer:
                return members
            # Members see each other's names, not their addresses.
            return [
                MemberInfo(m.id, m.club_id, m.name, None, None, None, m.officer, m.active)
                for m in members
            ]

    async def mailing_list(self, club_id: int) -> list[MemberInfo]:
        """The active members with an e-mail address."""
        async with self.db.read() as tx:
            return [m for m in await tx.members(club_id) if m.active and m.email]


async def _account(
    tx: ClubTx,
    account: str | None,
    members: Sequence[MemberInfo],
    member_id: int | None = None,
) -> int | None:
    """The platform account to link (its user name), linked to no other member."""
    if not account:
        return None
    user_id = await tx.user_id_by_name(account.strip())
    if user_id is None:
        raise bad(f"no platform account named {account!r}", "no_account", account=account)
    if any(m.user_id == user_id and m.id != member_id for m in members):
        raise conflict(
            f"the account {account!r} is already linked to another member",
            "account_linked",
            account=account,
        )
    return user_id


def _member_json(member: MemberInfo) -> dict[str, Any]:
    return {
        "name": member.name,
        "email": member.email,
        "officer": member.officer,
        "account": member.user_name,
        "active": member.active,
    }
