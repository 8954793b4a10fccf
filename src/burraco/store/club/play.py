"""One evening's play inside one transaction (part of ``ClubTx``): check-ins, the games'
seatings and rests, results, the whole ``EveningState``, and the score checks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, update

from .. import club_models as m
from . import convert as to
from .calendar import CalendarRows
from .records import CheckStatus, EveningState, NewSeat, ScoreCheckInfo


class PlayRows(CalendarRows):
    """Reads the evening with ``CalendarRows.evening`` (locked when asked)."""

    async def add_checkin(
        self,
        evening_id: int,
        member_id: int,
        *,
        at: datetime,
        late: bool,
        recorded_by: str,
        override_by: str | None = None,
        override_reason: str | None = None,
    ) -> None:
        self.session.add(
            m.ClubCheckin(
                evening_id=evening_id,
                member_id=member_id,
                at=to.utc(at),
                late=late,
                recorded_by=recorded_by,
                override_by=override_by,
                override_reason=override_reason,
            )
        )
        await self.session.flush()

    async def remove_checkin(self, evening_id: int, member_id: int) -> None:
        await self.session.execute(
            delete(m.ClubCheckin).where(
                m.ClubCheckin.evening_id == evening_id, m.ClubCheckin.member_id == member_id
            )
        )

    async def add_game(
        self,
        evening_id: int,
        number: int,
        seats: Sequence[NewSeat],
        rests: Sequence[int],
        *,
        drawn: bool,
        relaxed: bool = False,
        rests_drawn: bool | None = None,
    ) -> None:
        """A game's seating: its seats and the members resting (``rests_drawn``: whether the
        rests were drawn, by default as ``drawn``)."""
        self.session.add(
            m.ClubGame(
                evening_id=evening_id,
                number=number,
                drawn=drawn,
                relaxed=relaxed,
                seated_at=to.now(),
                started_at=None,
            )
        )
        await self.session.flush()
        rest_drawn = drawn if rests_drawn is None else rests_drawn
        self.session.add_all(
            m.ClubSeat(
                evening_id=evening_id,
                game=number,
                member_id=s.member_id,
                table_no=s.table_no,
                line=s.line,
                position=s.position,
            )
            for s in seats
        )
        self.session.add_all(
            m.ClubRest(evening_id=evening_id, game=number, member_id=r, drawn=rest_drawn)
            for r in rests
        )
        await self.session.flush()

    async def delete_games(self, evening_id: int, *, from_game: int = 1) -> None:
        """Remove the seatings (and their results) of games ``from_game`` and later."""
        for model in (m.ClubResult, m.ClubSeat, m.ClubRest):
            await self.session.execute(
                delete(model).where(model.evening_id == evening_id, model.game >= from_game)
            )
        await self.session.execute(
            delete(m.ClubGame).where(
                m.ClubGame.evening_id == evening_id, m.ClubGame.number >= from_game
            )
        )

    async def set_game_started(self, evening_id: int, number: int, at: datetime | None) -> None:
        await self.session.execute(
            update(m.ClubGame)
            .where(m.ClubGame.evening_id == evening_id, m.ClubGame.number == number)
            .values(started_at=to.utc(at))
        )

    async def set_result(
        self,
        evening_id: int,
        game: int,
        table_no: int,
        *,
        ns: int,
        ew: int,
        smazzate: Sequence[tuple[int, int]] | None,
        timed_out: int | None,
        entered_by: str,
        correction: bool = False,
    ) -> None:
        """Enter a table's result, or replace it (``correction``)."""
        rows = None if smazzate is None else [[a, b] for a, b in smazzate]
        if correction:
            await self.session.execute(
                update(m.ClubResult)
                .where(
                    m.ClubResult.evening_id == evening_id,
                    m.ClubResult.game == game,
                    m.ClubResult.table_no == table_no,
                )
                .values(
                    ns=ns,
                    ew=ew,
                    smazzate=rows,
                    timed_out=timed_out,
                    entered_by=entered_by,
                    entered_at=to.now(),
                    corrections=m.ClubResult.corrections + 1,
                )
            )
            return
        self.session.add(
            m.ClubResult(
                evening_id=evening_id,
                game=game,
                table_no=table_no,
                ns=ns,
                ew=ew,
                smazzate=rows,
                timed_out=timed_out,
                entered_by=entered_by,
                entered_at=to.now(),
                corrections=0,
            )
        )
        await self.session.flush()

    async def evening_state(self, evening_id: int, *, lock: bool = False) -> EveningState | None:
        evening = await self.evening(evening_id, lock=lock)
        if evening is None:
            return None
        checkins = await self.session.scalars(
            select(m.ClubCheckin)
            .where(m.ClubCheckin.evening_id == evening_id)
            .order_by(m.ClubCheckin.at, m.ClubCheckin.member_id)
        )
        games = (
            await self.session.scalars(
                select(m.ClubGame)
                .where(m.ClubGame.evening_id == evening_id)
                .order_by(m.ClubGame.number)
            )
        ).all()
        seats = (
            await self.session.scalars(
                select(m.ClubSeat)
                .where(m.ClubSeat.evening_id == evening_id)
                .order_by(
                    m.ClubSeat.game, m.ClubSeat.table_no, m.ClubSeat.line, m.ClubSeat.position
                )
            )
        ).all()
        rests = (
            await self.session.scalars(
                select(m.ClubRest)
                .where(m.ClubRest.evening_id == evening_id)
                .order_by(m.ClubRest.game, m.ClubRest.member_id)
            )
        ).all()
        results = (
            await self.session.scalars(
                select(m.ClubResult)
                .where(m.ClubResult.evening_id == evening_id)
                .order_by(m.ClubResult.game, m.ClubResult.table_no)
            )
        ).all()
        checks = await self.session.scalars(
            select(m.ClubScoreCheck)
            .where(m.ClubScoreCheck.evening_id == evening_id)
            .order_by(m.ClubScoreCheck.id)
        )
        return EveningState(
            evening=evening,
            checkins=tuple(to.checkin(c) for c in checkins),
            games=tuple(to.game(g, seats, rests, results) for g in games),
            checks=tuple(to.check(c) for c in checks),
        )

    # ----------------------------------------------------------------------- score checks

    async def add_check(
        self,
        evening_id: int,
        game: int,
        table_no: int,
        *,
        member_id: int | None,
        requested_by: str,
        note: str,
    ) -> ScoreCheckInfo:
        row = m.ClubScoreCheck(
            evening_id=evening_id,
            game=game,
            table_no=table_no,
            member_id=member_id,
            requested_by=requested_by,
            requested_at=to.now(),
            note=note,
            status=CheckStatus.OPEN.value,
        )
        self.session.add(row)
        await self.session.flush()
        return to.check(row)

    async def check(self, check_id: int) -> ScoreCheckInfo | None:
        row = await self.session.get(m.ClubScoreCheck, check_id)
        return None if row is None else to.check(row)

    async def resolve_check(
        self, check_id: int, *, status: CheckStatus, resolved_by: str, resolution: str
    ) -> None:
        await self.session.execute(
            update(m.ClubScoreCheck)
            .where(m.ClubScoreCheck.id == check_id)
            .values(
                status=CheckStatus(status).value,
                resolved_by=resolved_by,
                resolved_at=to.now(),
                resolution=resolution,
            )
        )
