"""Who may do what, and the one shape of an operation: find what it works on, check who asks,
run in one transaction, write the audit entry.

Every operation of the club manager opens ``Part.operation`` (a change) or ``Part.reading``::

    async with self.operation(actor, evening_id=evening_id, lock=True) as op:
        ...                                    # op.tx, op.role, op.club, op.season, op.state
        await op.audit("evening.update", f"evening {op.evening.date}", before=..., after=...)

which looks the evening (or season, or club) up (``not_found``), checks the actor's role for
``access`` (an officer by default; ``forbidden``), and commits when the block ends; anything
raised rolls the whole transaction back, the audit entry with it.

Who may do what: officers (members with ``officer``, logged in with their linked platform
account) change the calendar, check-ins, seatings, rests, results and fees; members read and
may check themselves in during the window and ask for a score check. The command line
(``Actor.console``) acts as the member it names: an officer changes, a member reads; a name
that is no member reads everything and may change only while the club has no active officer
(to set it up).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from enum import Enum, StrEnum
from typing import Any

from burraco.store.club import (
    ClubInfo,
    ClubStore,
    ClubTx,
    EveningInfo,
    EveningState,
    MemberInfo,
    SeasonInfo,
)

from .checks import suggest
from .errors import ClubError, bad, not_found


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a platform user (his club role is looked up), or the console (an officer)."""

    name: str
    user_id: int | None = None
    console: bool = False

    @classmethod
    def of_console(cls, name: str) -> Actor:
        return cls(name, None, True)


@dataclass(frozen=True, slots=True)
class Role:
    member: MemberInfo | None
    officer: bool

    @property
    def member_id(self) -> int | None:
        return None if self.member is None else self.member.id


class Access(Enum):
    """What an operation asks of its actor."""

    OFFICER = "officer"
    """One of the club's officers (every change but a member's own check-in or score check)."""
    READER = "reader"
    """A member (or the console): reading, asking for a score check."""
    ANYONE = "anyone"
    """The operation decides from the role (a check-in: an officer, or the member himself)."""


# ------------------------------------------------------------------------------ roles


async def role_of(tx: ClubTx, actor: Actor, club_id: int) -> Role:
    if actor.console:
        # The console acts as the member of that name: an officer, or a plain member who
        # may only read. A name that is no member is an officer only while the club has no
        # active officer yet (to set the club up).
        members = await tx.members(club_id)
        found = next((m for m in members if m.name.casefold() == actor.name.casefold()), None)
        if found is not None:
            return Role(found, found.officer and found.active)
        return Role(None, not any(m.officer and m.active for m in members))
    if actor.user_id is None:
        return Role(None, False)
    member = await tx.member_of_user(club_id, actor.user_id)
    return Role(member, bool(member and member.officer and member.active))


async def officer(tx: ClubTx, actor: Actor, club_id: int) -> Role:
    role = await role_of(tx, actor, club_id)
    if not role.officer:
        raise ClubError("forbidden", "only the club's officers may do that")
    return role


async def reader(tx: ClubTx, actor: Actor, club_id: int) -> Role:
    role = await role_of(tx, actor, club_id)
    if actor.console and role.member is None:
        # The command line without a member's name: whoever runs it has the database, he
        # reads everything (with ``--as NAME`` he reads as that member).
        return Role(None, True)
    if not role.officer and role.member is None:
        raise ClubError("forbidden", "only the club's members may see that")
    return role


CHECKS = {Access.OFFICER: officer, Access.READER: reader, Access.ANYONE: role_of}


def who(actor: Actor, role: Role) -> str:
    """The name an action is recorded under: the member's, else the actor's."""
    return role.member.name if role.member is not None else actor.name


# ------------------------------------------------------------------------------ lookups


async def club_row(tx: ClubTx, club_id: int) -> ClubInfo:
    club = await tx.club(club_id)
    if club is None:
        raise not_found(f"no club {club_id}")
    return club


async def season_row(tx: ClubTx, season_id: int) -> SeasonInfo:
    season = await tx.season(season_id)
    if season is None:
        raise not_found(f"no season {season_id}")
    return season


async def evening_rows(
    tx: ClubTx, evening_id: int, *, lock: bool = False
) -> tuple[EveningState, SeasonInfo, ClubInfo]:
    state = await tx.evening_state(evening_id, lock=lock)
    if state is None:
        raise not_found(f"no evening {evening_id}")
    season = await season_row(tx, state.evening.season_id)
    return state, season, await club_row(tx, season.club_id)


async def names(tx: ClubTx, club_id: int) -> dict[int, str]:
    return {m.id: m.name for m in await tx.members(club_id)}


async def member_row(tx: ClubTx, club_id: int, who: int | str) -> MemberInfo:
    """A member of the club by id or by name (case does not matter): an unknown player is a
    clear error, with the closest names."""
    members = await tx.members(club_id)
    if isinstance(who, int):
        for m in members:
            if m.id == who:
                return m
        raise bad(f"unknown player: no member {who} in this club", "unknown_player", name=str(who))
    wanted = " ".join(who.split()).casefold()
    for m in members:
        if m.name.casefold() == wanted:
            return m
    raise bad(
        f"unknown player {who!r}{suggest(who, [m.name for m in members])}",
        "unknown_player",
        name=who,
    )


# ------------------------------------------------------------------------------ the operation


class _Target(Enum):
    TARGET = "target"


TARGET = _Target.TARGET
"""``Operation.audit``'s default: the season or evening the operation works on."""


@dataclass(slots=True)
class Operation:
    """One operation in its transaction: what it works on, and who asks (``role`` is what the
    access check gave: for ``READER`` the console without a name is an officer-reader)."""

    tx: ClubTx
    actor: Actor | None
    role: Role
    club: ClubInfo
    season_info: SeasonInfo | None = None
    evening_state: EveningState | None = None

    @classmethod
    async def open(
        cls,
        tx: ClubTx,
        actor: Actor | None,
        *,
        club_id: int | None = None,
        season_id: int | None = None,
        evening_id: int | None = None,
        lock: bool = False,
        access: Access = Access.OFFICER,
    ) -> Operation:
        """Look the target up (the evening, else the season, else the club), then check the
        actor (``actor`` None: no check, for the console's exports and public pages)."""
        state = season = None
        if evening_id is not None:
            state, season, club = await evening_rows(tx, evening_id, lock=lock)
        elif season_id is not None:
            season = await season_row(tx, season_id)
            club = await club_row(tx, season.club_id)
        elif club_id is not None:
            club = await club_row(tx, club_id)
        else:
            raise TypeError("an operation works on a club, a season or an evening")
        role = Role(None, True) if actor is None else await CHECKS[access](tx, actor, club.id)
        return cls(tx, actor, role, club, season, state)

    @property
    def season(self) -> SeasonInfo:
        assert self.season_info is not None, "the operation has no season"
        return self.season_info

    @property
    def state(self) -> EveningState:
        assert self.evening_state is not None, "the operation has no evening"
        return self.evening_state

    @property
    def evening(self) -> EveningInfo:
        return self.state.evening

    @property
    def who(self) -> str:
        """The name the change is recorded under."""
        assert self.actor is not None, "a change has an actor"
        return who(self.actor, self.role)

    async def audit(
        self,
        action: str,
        subject: str,
        *,
        season_id: int | _Target | None = TARGET,
        evening_id: int | _Target | None = TARGET,
        before: Any = None,
        after: Any = None,
        reason: str | None = None,
    ) -> None:
        """The audit entry of the change, in its transaction (season and evening: by default
        the operation's)."""
        assert self.actor is not None, "a change has an actor"
        if season_id is TARGET:
            season_id = None if self.season_info is None else self.season_info.id
        if evening_id is TARGET:
            evening_id = None if self.evening_state is None else self.evening_state.evening.id
        await self.tx.audit(
            self.club.id,
            actor=self.who,
            user_id=self.actor.user_id,
            action=action,
            subject=subject,
            season_id=season_id,
            evening_id=evening_id,
            before=before,
            after=after,
            reason=reason,
        )


def jsonable(values: Any) -> Any:
    """Values as the audit trail stores them (dates and times in ISO format)."""
    if isinstance(values, StrEnum):
        return values.value
    if isinstance(values, Mapping):
        return {k: jsonable(v) for k, v in values.items()}
    if isinstance(values, list | tuple):
        return [jsonable(v) for v in values]
    if isinstance(values, date | time | datetime):
        return values.isoformat()
    return values


def utcnow() -> datetime:
    return datetime.now(UTC)


class Part:
    """What every part of the club manager shares: the store, the clock and the seeds of the
    draws (both injectable for tests), and the way an operation runs."""

    def __init__(
        self,
        store: ClubStore,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.db = store
        self.clock = clock
        self.seeds = seeds or (lambda: secrets.randbits(62))

    @asynccontextmanager
    async def operation(
        self,
        actor: Actor | None,
        *,
        club_id: int | None = None,
        season_id: int | None = None,
        evening_id: int | None = None,
        lock: bool = False,
        access: Access = Access.OFFICER,
    ) -> AsyncIterator[Operation]:
        """A change: one write transaction, committed when the block ends (see the module)."""
        async with self.db.write() as tx:
            yield await Operation.open(
                tx,
                actor,
                club_id=club_id,
                season_id=season_id,
                evening_id=evening_id,
                lock=lock,
                access=access,
            )

    @asynccontextmanager
    async def reading(
        self,
        actor: Actor | None,
        *,
        club_id: int | None = None,
        season_id: int | None = None,
        evening_id: int | None = None,
        access: Access = Access.READER,
    ) -> AsyncIterator[Operation]:
        """A look: a read transaction, a member's (or an officer's, ``access``) by default."""
        async with self.db.read() as tx:
            yield await Operation.open(
                tx,
                actor,
                club_id=club_id,
                season_id=season_id,
                evening_id=evening_id,
                access=access,
            )
