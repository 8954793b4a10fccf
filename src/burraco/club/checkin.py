"""Check-in (T30): registering the players present in the window, an officer's override for a
late player, removing a registration made by mistake."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from burraco.store.club import CheckinInfo, ClubInfo, EveningInfo, EveningStatus, SeasonInfo

from . import calendar as cal
from .access import Access, Actor, Operation, Part, member_row
from .checks import clean
from .errors import ClubError, bad, conflict


def window(ev: EveningInfo, season: SeasonInfo, club: ClubInfo) -> tuple[datetime, datetime]:
    """When check-in opens and closes that evening, in the club's time zone."""
    tz = cal.zone(club.timezone)
    return (
        datetime.combine(ev.date, season.checkin_opens, tz),
        datetime.combine(ev.date, season.checkin_closes, tz),
    )


class Checkin(Part):
    """Check-in (part of ``ClubService``)."""

    async def checkin(
        self,
        actor: Actor,
        evening_id: int,
        who: int | str,
        *,
        at: datetime | None = None,
        override: str | None = None,
    ) -> CheckinInfo:
        """Register a player present (T30: 20:30-20:45 by default). After the window the
        registration is refused, unless an officer overrides it with a reason; a member may
        register himself, in the window only. ``at``: when (default now)."""
        return (await self.checkins(actor, evening_id, [who], at=at, override=override))[0]

    async def checkins(
        self,
        actor: Actor,
        evening_id: int,
        players: Sequence[int | str],
        *,
        at: datetime | None = None,
        override: str | None = None,
    ) -> list[CheckinInfo]:
        """Several players registered at once, in one transaction: one refused (unknown, late,
        already registered...) and none is registered."""
        when = at or self.clock()
        reason = clean(override) or None
        if not players:
            raise bad("name the players to register", "no_players")
        async with self.operation(
            actor, evening_id=evening_id, lock=True, access=Access.ANYONE
        ) as op:
            ev = op.evening
            if ev.status is EveningStatus.CANCELLED:
                raise conflict(
                    f"the evening of {ev.date} is cancelled", "evening_cancelled", date=str(ev.date)
                )
            if ev.status is not EveningStatus.SCHEDULED:
                raise conflict(
                    f"the seats of {ev.date} are already drawn: undo the draw (no result"
                    " entered yet) to admit another player"
                )
            registered = {c.member_id for c in op.state.checkins}
            return [await _register(op, who, when, reason, registered) for who in players]

    async def uncheck(self, actor: Actor, evening_id: int, who: int | str, reason: str) -> None:
        """Remove a registration made by mistake (before the draw)."""
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            member = await member_row(op.tx, op.club.id, who)
            if op.evening.status is not EveningStatus.SCHEDULED:
                raise conflict("the seats are drawn: undo the draw first", "seats_drawn")
            if not any(c.member_id == member.id for c in op.state.checkins):
                raise bad(f"{member.name} is not registered for {op.evening.date}")
            await op.tx.remove_checkin(evening_id, member.id)
            await op.audit(
                "checkin.remove",
                f"evening {op.evening.date}: {member.name}",
                reason=clean(reason) or None,
            )


async def _register(
    op: Operation, who: int | str, when: datetime, reason: str | None, registered: set[int]
) -> CheckinInfo:
    """One player of ``checkins``: refused when he may not be registered (by this actor, at
    this time); an officer's override of the window is in the audit trail."""
    ev, role = op.evening, op.role
    opens, closes = window(ev, op.season, op.club)
    early, late = when < opens, when > closes
    member = await member_row(op.tx, op.club.id, who)
    if not role.officer and role.member_id != member.id:
        raise ClubError("forbidden", "only an officer may register another player")
    if not member.active:
        raise bad(f"{member.name} is not an active member", "not_active", name=member.name)
    if member.id in registered:
        raise conflict(
            f"{member.name} is already registered", "already_checked_in", name=member.name
        )
    registered.add(member.id)
    if (early or late) and not (role.officer and reason):
        local = when.astimezone(opens.tzinfo).strftime("%Y-%m-%d %H:%M")
        window_text = f"{opens:%H:%M}-{closes:%H:%M} on {ev.date}"
        if late:
            raise ClubError(
                "late",
                f"{member.name} arrived at {local}, after the check-in window"
                f" ({window_text}): late players do not play, unless an officer"
                " overrides with a reason",
                detail="arrived_late",
                params={"name": member.name, "at": local, "opens": f"{opens:%H:%M}"}
                | {"closes": f"{closes:%H:%M}"},
            )
        raise conflict(
            f"check-in is open {window_text}, not at {local}",
            "checkin_window",
            opens=f"{opens:%H:%M}",
            closes=f"{closes:%H:%M}",
            date=str(ev.date),
            at=local,
        )
    override_by = op.who if (early or late) else None
    await op.tx.add_checkin(
        ev.id,
        member.id,
        at=when,
        late=late,
        recorded_by=op.who,
        override_by=override_by,
        override_reason=reason if override_by else None,
    )
    if override_by:
        await op.audit(
            "checkin.override",
            f"evening {ev.date}: {member.name}",
            after={"member": member.name, "at": when.isoformat(), "late": late},
            reason=reason,
        )
    return CheckinInfo(member.id, when, late, op.who, override_by, override_by and reason)
