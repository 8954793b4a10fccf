"""The audit trail, the fees and the prizes, inside one transaction (part of ``ClubTx``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import delete, select, update

from .. import club_models as m
from . import convert as to
from .members import Rows
from .records import AuditEntry, ChargeInfo, PaymentInfo, PrizeInfo, PrizeKind


class LedgerRows(Rows):
    """Who changed what (the audit trail), what members owe and paid, what was awarded."""

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
                at=to.now(),
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
        return [to.audit(r) for r in rows]

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
            created_at=to.now(),
        )
        self.session.add(row)
        await self.session.flush()
        return to.charge(row)

    async def charges(self, season_id: int) -> list[ChargeInfo]:
        rows = await self.session.scalars(
            select(m.ClubCharge)
            .where(m.ClubCharge.season_id == season_id)
            .order_by(m.ClubCharge.due_on, m.ClubCharge.id)
        )
        return [to.charge(r) for r in rows]

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
            recorded_at=to.now(),
        )
        self.session.add(row)
        await self.session.flush()
        return to.payment(row)

    async def payments(self, season_id: int) -> list[PaymentInfo]:
        rows = await self.session.scalars(
            select(m.ClubPayment)
            .where(m.ClubPayment.season_id == season_id)
            .order_by(m.ClubPayment.paid_on, m.ClubPayment.id)
        )
        return [to.payment(r) for r in rows]

    async def replace_prizes(self, season_id: int, prizes: Sequence[dict[str, Any]]) -> None:
        """The season's awarded prizes, replaced as a whole (they are recomputed at closing)."""
        await self.session.execute(delete(m.ClubPrize).where(m.ClubPrize.season_id == season_id))
        now = to.now()
        self.session.add_all(
            m.ClubPrize(
                season_id=season_id,
                awarded_at=now,
                **(prize | {"kind": PrizeKind(prize["kind"]).value}),
            )
            for prize in prizes
        )
        await self.session.flush()

    async def prizes(self, season_id: int) -> list[PrizeInfo]:
        rows = await self.session.scalars(
            select(m.ClubPrize)
            .where(m.ClubPrize.season_id == season_id)
            .order_by(m.ClubPrize.kind, m.ClubPrize.place, m.ClubPrize.evening_id, m.ClubPrize.id)
        )
        return [to.prize(r) for r in rows]

    async def set_prize_delivered(self, prize_id: int, on: date | None) -> None:
        await self.session.execute(
            update(m.ClubPrize).where(m.ClubPrize.id == prize_id).values(delivered_on=on)
        )
