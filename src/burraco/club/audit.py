"""The audit trail (who changed what, when and why: written by every change in its own
transaction, see ``access.Operation.audit``) and the record of e-mails sent."""

from __future__ import annotations

from collections.abc import Sequence

from burraco.store.club import AuditEntry

from .access import Access, Actor, Part


class Audit(Part):
    """The audit trail (part of ``ClubService``)."""

    async def audit_trail(
        self,
        actor: Actor | None,
        club_id: int,
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
        action_prefix: str | None = None,
    ) -> list[AuditEntry]:
        async with self.reading(actor, club_id=club_id, access=Access.OFFICER) as op:
            return await op.tx.audit_trail(
                club_id, season_id=season_id, evening_id=evening_id, action_prefix=action_prefix
            )

    async def note_mail(
        self,
        actor: Actor,
        club_id: int,
        what: str,
        recipients: Sequence[str],
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
    ) -> None:
        """Record e-mails sent (and, for an evening's standings, when they were published)."""
        async with self.operation(actor, club_id=club_id) as op:
            if evening_id is not None and what == "standings":
                await op.tx.update_evening(evening_id, published_at=self.clock())
            await op.audit(
                f"mail.{what}",
                f"{len(recipients)} recipients",
                season_id=season_id,
                evening_id=evening_id,
                after=sorted(recipients),
            )
