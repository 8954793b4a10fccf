"""Fees and prizes: payments and adjustments of what members owe (``fees`` computes the
accounts), the weekly and season prizes (T28) and their value, closing a season."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from typing import Any

from burraco.store.club import ClubInfo, ClubTx, PrizeInfo, PrizeKind, SeasonInfo
from burraco.tournament import Standings, Total

from . import calendar as cal
from . import fees as fee
from .access import Access, Actor, Part, member_row, names
from .checks import clean
from .errors import bad, conflict
from .evenings import names_of
from .reading import standings_of
from .views import PrizesReport, SeasonPrize, StandingsView, WeeklyPrize


class Money(Part):
    """Fees and prizes (part of ``ClubService``)."""

    async def record_payment(
        self,
        actor: Actor,
        season_id: int,
        who: int | str,
        amount_cents: int,
        *,
        paid_on: date | None = None,
        note: str = "",
    ) -> fee.MemberAccount:
        if not isinstance(amount_cents, int) or amount_cents <= 0:
            raise bad("a payment is a positive amount", "payment_positive")
        async with self.operation(actor, season_id=season_id) as op:
            member = await member_row(op.tx, op.club.id, who)
            day = paid_on or self.clock().astimezone(cal.zone(op.club.timezone)).date()
            await op.tx.add_payment(
                season_id,
                member.id,
                amount_cents=amount_cents,
                paid_on=day,
                note=clean(note)[:200],
                recorded_by=op.who,
            )
            await op.audit(
                "fee.payment",
                f"{member.name}: {fee.euros(amount_cents)}",
                after={"member": member.name, "cents": amount_cents, "paid_on": str(day)},
                reason=clean(note) or None,
            )
            report = await fees_of(op.tx, op.club, op.season, prizes=False)
            return report.account(member.name)

    async def add_charge(
        self,
        actor: Actor,
        season_id: int,
        who: int | str,
        amount_cents: int,
        *,
        reason: str,
        due_on: date | None = None,
    ) -> fee.MemberAccount:
        """An adjustment of what a member owes: an extra charge, or a waiver (negative)."""
        if not isinstance(amount_cents, int) or amount_cents == 0:
            raise bad("an adjustment is a non-zero amount", "adjustment_zero")
        if not clean(reason):
            raise bad("an adjustment needs a reason", "reason_needed")
        async with self.operation(actor, season_id=season_id) as op:
            member = await member_row(op.tx, op.club.id, who)
            day = due_on or self.clock().astimezone(cal.zone(op.club.timezone)).date()
            await op.tx.add_charge(
                season_id,
                member.id,
                due_on=day,
                amount_cents=amount_cents,
                reason=clean(reason),
                created_by=op.who,
            )
            await op.audit(
                "fee.adjust",
                f"{member.name}: {fee.euros(amount_cents)}",
                after={"member": member.name, "cents": amount_cents, "due_on": str(day)},
                reason=clean(reason),
            )
            report = await fees_of(op.tx, op.club, op.season, prizes=False)
            return report.account(member.name)

    async def fees(self, actor: Actor | None, season_id: int) -> fee.FeesReport:
        """Every member's account (officers) or only one's own (members)."""
        async with self.reading(actor, season_id=season_id) as op:
            report = await fees_of(op.tx, op.club, op.season)
            member = op.role.member
            if op.role.officer:
                return report
            mine = tuple(a for a in report.accounts if member and a.member == member.name)
            return fee.FeesReport(mine, report.pool_share_cents, report.prizes_cents)

    async def prizes(self, actor: Actor | None, season_id: int) -> PrizesReport:
        """The weekly prizes (each evening's best score, T28) and the top-3 prizes, with their
        value; and what was awarded when the season was closed."""
        async with self.reading(actor, season_id=season_id) as op:
            standings = await standings_of(op.tx, op.club, op.season, None)
            report = prizes_of(standings, await op.tx.prizes(season_id))
            return PrizesReport(
                report.weekly, report.season, report.awarded, await names(op.tx, op.club.id)
            )

    async def close_season(self, actor: Actor, season_id: int) -> PrizesReport:
        """Award the prizes (stored; closing again replaces them): every evening must be
        finished or cancelled."""
        async with self.operation(actor, season_id=season_id, access=Access.OFFICER) as op:
            open_ = [e.date for e in await op.tx.evenings(season_id) if e.status.open]
            if open_:
                raise conflict(f"the evening of {open_[0]} is neither finished nor cancelled")
            standings = await standings_of(op.tx, op.club, op.season, None)
            ids = {n: i for i, n in (await names(op.tx, op.club.id)).items()}
            rows = _prize_rows(prizes_of(standings, ()), ids)
            await op.tx.replace_prizes(season_id, rows)
            await op.audit(
                "season.close",
                f"season {op.season.name}: prizes awarded",
                after=[
                    {
                        "kind": r["kind"].value,
                        "member": names_of(ids)[r["member_id"]],
                        "cents": r["value_cents"],
                    }
                    for r in rows
                ],
            )
            return prizes_of(standings, await op.tx.prizes(season_id))


async def fees_of(
    tx: ClubTx, club: ClubInfo, season: SeasonInfo, *, prizes: bool = True
) -> fee.FeesReport:
    """Every member's account; ``prizes``: with the value of the prizes so far (it needs
    the standings)."""
    who = await names(tx, club.id)
    attendance: dict[str, list[date]] = {}
    for e in await tx.evenings(season.id):
        if e.status.drawn:
            for member_id in e.stations or ():
                attendance.setdefault(who[member_id], []).append(e.date)
    adjustments: dict[str, list[fee.Adjustment]] = {}
    for c in await tx.charges(season.id):
        adjustments.setdefault(who[c.member_id], []).append(
            fee.Adjustment(c.due_on, c.amount_cents, c.reason)
        )
    payments: dict[str, list[fee.Payment]] = {}
    for p in await tx.payments(season.id):
        payments.setdefault(who[p.member_id], []).append(
            fee.Payment(p.paid_on, p.amount_cents, p.note)
        )
    value = 0
    if prizes:
        value = prizes_of(await standings_of(tx, club, season, None), ()).total_cents
    return fee.FeesReport(
        fee.accounts(attendance, adjustments, payments, season.monthly_fee_cents),
        season.pool_share_cents,
        value,
    )


def prizes_of(standings: StandingsView, awarded: Sequence[PrizeInfo]) -> PrizesReport:
    """Weekly prizes: each finished evening's best (T28 [ENG]: highest VP, then MP; players
    still tied each get one). Top-3 prizes: places 1-3 of the standings; players tied share
    the places they cover and split their prizes equally (T17), to the cent."""
    season = standings.season
    weekly = []
    for e in standings.counted:
        assert e.ranking is not None
        for player in e.ranking.best:
            row = e.ranking.row(player)
            weekly.append(
                WeeklyPrize(e.info, e.number, player, row.vp, row.mp, season.weekly_prize_cents)
            )
    amounts = list(season.season_prizes_cents)
    top: list[SeasonPrize] = []
    if standings.rows:
        ranking = Standings.from_totals(Total(r.player, vp=r.points) for r in standings.rows)
        shares = ranking.prizes(amounts + [0] * len(ranking.rows))
        for srow in standings.rows:
            if srow.place <= 3:
                value = shares.get(srow.player, Fraction(0))
                top.append(SeasonPrize(srow.place, srow.player, srow.points, round(value)))
    return PrizesReport(tuple(weekly), tuple(top), tuple(awarded))


def _prize_rows(report: PrizesReport, ids: dict[str, int]) -> list[dict[str, Any]]:
    """The prizes to store when the season closes: the weekly ones, then places 1-3."""
    return [
        {
            "kind": PrizeKind.WEEKLY,
            "evening_id": w.evening.id,
            "place": None,
            "member_id": ids[w.player],
            "value_cents": w.value_cents,
            "description": f"{w.evening.date}: {w.vp} VP, {w.mp:+d} MP",
        }
        for w in report.weekly
    ] + [
        {
            "kind": PrizeKind.SEASON,
            "evening_id": None,
            "place": s.place,
            "member_id": ids[s.player],
            "value_cents": s.value_cents,
            "description": f"{s.place}: {s.points}",
        }
        for s in report.season
    ]
