"""The season's reports: one member's season (his evenings, standing, prizes and account), and
the club's for its officers (calendar with attendance, standings, fees, prizes, corrections)."""

from __future__ import annotations

from burraco.store.club import ClubTx

from .access import Access, Actor, Part, member_row, reader
from .errors import ClubError
from .money import fees_of, prizes_of
from .reading import standings_of
from .views import ClubReport, EveningSummary, MemberEvening, MemberReport, StandingsView


class Reports(Part):
    """Season reports (part of ``ClubService``)."""

    async def member_report(
        self, actor: Actor | None, season_id: int, who: int | str
    ) -> MemberReport:
        """One member's season: each finished evening (place, VP, MP, points, rests, late),
        his standing, weekly and season prizes, and his fees account. Officers see anyone's;
        a member sees his own."""
        async with self.reading(None, season_id=season_id) as op:
            club, season = op.club, op.season
            member = await member_row(op.tx, club.id, who)
            if actor is not None:
                # After the member is found: an unknown name is said as such to anyone.
                role = await reader(op.tx, actor, club.id)
                if not role.officer and role.member_id != member.id:
                    raise ClubError("forbidden", "a member sees only his own report")
            standings = await standings_of(op.tx, club, season, None)
            prizes = prizes_of(standings, ())
            report = await fees_of(op.tx, club, season, prizes=False)
            return MemberReport(
                club=club,
                season=season,
                member=member.name,
                standing=next((r for r in standings.rows if r.player == member.name), None),
                evenings=await _member_evenings(op.tx, standings, member.id, member.name),
                weekly=tuple(w for w in prizes.weekly if w.player == member.name),
                season_prize=next((p for p in prizes.season if p.player == member.name), None),
                account=next((a for a in report.accounts if a.member == member.name), None),
            )

    async def club_report(self, actor: Actor | None, season_id: int) -> ClubReport:
        """The club's season for its officers: the calendar with attendance and each
        evening's best, the standings, fees and pool, prizes, corrections."""
        async with self.reading(actor, season_id=season_id, access=Access.OFFICER) as op:
            club, season = op.club, op.season
            standings = await standings_of(op.tx, club, season, None)
            summaries = []
            for e in standings.evenings:
                state = await op.tx.evening_state(e.info.id)
                assert state is not None
                summaries.append(
                    EveningSummary(
                        e,
                        len(e.info.stations or ()),
                        sum(1 for c in state.checkins if c.late),
                        () if e.ranking is None else tuple(e.ranking.best),
                    )
                )
            trail = await op.tx.audit_trail(club.id, season_id=season_id)
            return ClubReport(
                club=club,
                season=season,
                evenings=tuple(summaries),
                standings=standings,
                fees=await fees_of(op.tx, club, season),
                prizes=prizes_of(standings, await op.tx.prizes(season_id)),
                corrections=sum(1 for a in trail if a.action == "result.correct"),
                members=sum(1 for m in await op.tx.members(club.id) if m.active),
            )


async def _member_evenings(
    tx: ClubTx, standings: StandingsView, member_id: int, name: str
) -> tuple[MemberEvening, ...]:
    rows: list[MemberEvening] = []
    for e in standings.counted:
        assert e.ranking is not None
        state = await tx.evening_state(e.info.id)
        assert state is not None
        late = any(c.member_id == member_id and c.late for c in state.checkins)
        found = next((r for r in e.ranking.rows if r.player == name), None)
        rows.append(MemberEvening(e, found, late))
    return tuple(rows)
