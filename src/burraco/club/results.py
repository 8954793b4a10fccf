"""Results and their corrections, score checks and the room timer: a table's two totals as the
organiser enters them, the next game drawn when one is complete, an officer's correction with a
reason (closing the open checks of the table), a player's request for a check."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from burraco.store.club import (
    CheckStatus,
    EveningState,
    EveningStatus,
    GameInfo,
    ScoreCheckInfo,
)

from .access import Access, Actor, Operation, Part, member_row, names
from .checks import check_score, clean
from .errors import ClubError, bad, conflict, not_found
from .evenings import build_evening, result_json, timer_of
from .reading import evening_view
from .seating import draw_next
from .timer import TimerState
from .views import EveningView, ResultInput


class Results(Part):
    """Results, score checks and the timer (part of ``ClubService``)."""

    async def enter_result(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        ns: int,
        ew: int,
        smazzate: Sequence[Sequence[int]] | None = None,
        timed_out: int | None = None,
    ) -> EveningView:
        """A table's result: the two lines' scores (NS, EW) of the game, and optionally its
        smazzate, which must add up to them. When the game is complete the next one is drawn;
        after the last game the evening is finished."""
        return await self.enter_results(
            actor, evening_id, game, [ResultInput(table, ns, ew, smazzate, timed_out)]
        )

    async def enter_results(
        self, actor: Actor, evening_id: int, game: int, results: Sequence[ResultInput]
    ) -> EveningView:
        """Several tables' results of one game at once, in one transaction: one bad result
        (an unknown table, a score that is not a multiple of 5, smazzate that do not add up,
        a table already entered) and none is stored."""
        if not results:
            raise bad("no result given", "no_result")
        rows = [checked_result(r.ns, r.ew, r.smazzate, r.timed_out) for r in results]
        tables = [r.table for r in results]
        if len(set(tables)) != len(tables):
            raise bad("a table's result is given twice", "result_twice")
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            for r in results:
                if seated_game(op.state, game, r.table).result(r.table) is not None:
                    raise conflict(
                        f"game {game}, table {r.table} already has a result:"
                        " correct it with a reason"
                    )
            for r, checked in zip(results, rows, strict=True):
                await op.tx.set_result(
                    evening_id,
                    game,
                    r.table,
                    ns=r.ns,
                    ew=r.ew,
                    smazzate=checked,
                    timed_out=r.timed_out,
                    entered_by=op.who,
                )
            await _after_result(op)
            return await evening_view(op.tx, evening_id)

    async def correct_result(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        ns: int,
        ew: int,
        reason: str,
        smazzate: Sequence[Sequence[int]] | None = None,
        timed_out: int | None = None,
    ) -> EveningView:
        """An officer corrects a published result, with a reason: the audit trail keeps the
        old and new scores, the open score checks of the table are closed as corrected, and the
        rankings (computed from the results) follow."""
        if not clean(reason):
            raise bad("a correction needs a reason", "reason_needed")
        rows = checked_result(ns, ew, smazzate, timed_out)
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            old = seated_game(op.state, game, table).result(table)
            if old is None:
                raise bad(
                    f"game {game}, table {table} has no result yet: enter it",
                    "no_result_yet",
                    game=game,
                    table=table,
                )
            if (old.ns, old.ew, old.smazzate, old.timed_out) == (ns, ew, rows, timed_out):
                raise bad("the correction changes nothing", "correction_same")
            await op.tx.set_result(
                evening_id,
                game,
                table,
                ns=ns,
                ew=ew,
                smazzate=rows,
                timed_out=timed_out,
                entered_by=op.who,
                correction=True,
            )
            for check in op.state.checks:
                if (check.game, check.table_no, check.status) == (game, table, CheckStatus.OPEN):
                    await op.tx.resolve_check(
                        check.id,
                        status=CheckStatus.CORRECTED,
                        resolved_by=op.who,
                        resolution=clean(reason),
                    )
            await op.audit(
                "result.correct",
                f"evening {op.evening.date}: game {game}, table {table}",
                before=result_json(old.ns, old.ew, old.smazzate, old.timed_out),
                after=result_json(ns, ew, rows, timed_out),
                reason=clean(reason),
            )
            return await evening_view(op.tx, evening_id)

    # ---------------------------------------------------------------------------- score checks

    async def request_check(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        note: str = "",
        member: int | str | None = None,
    ) -> ScoreCheckInfo:
        """A player asks for a check of a published score (seed 003: during the break, after
        two games). A member asks for himself; an officer may ask on a player's behalf."""
        async with self.operation(actor, evening_id=evening_id, access=Access.READER) as op:
            asker = op.role.member
            if member is not None:
                asker = await member_row(op.tx, op.club.id, member)
                if not op.role.officer and asker.id != op.role.member_id:
                    raise ClubError("forbidden", "a member asks for a check for himself")
            if seated_game(op.state, game, table).result(table) is None:
                raise bad(f"game {game}, table {table} has no published score to check")
            if any(
                (c.game, c.table_no, c.status) == (game, table, CheckStatus.OPEN)
                for c in op.state.checks
            ):
                raise conflict(f"a check of game {game}, table {table} is already open")
            return await op.tx.add_check(
                evening_id,
                game,
                table,
                member_id=None if asker is None else asker.id,
                requested_by=op.who if asker is None else asker.name,
                note=clean(note)[:1000],
            )

    async def resolve_check(self, actor: Actor, check_id: int, resolution: str) -> ScoreCheckInfo:
        """The officer checked the score and it stands (a wrong score is corrected with
        ``correct_result``, which closes the check as corrected)."""
        async with self.db.write() as tx:
            check = await tx.check(check_id)
            if check is None:
                raise not_found(f"no score check {check_id}")
            op = await Operation.open(tx, actor, evening_id=check.evening_id)
            if check.status is not CheckStatus.OPEN:
                raise conflict(f"the check {check_id} is already {check.status}")
            await tx.resolve_check(
                check_id,
                status=CheckStatus.CONFIRMED,
                resolved_by=op.who,
                resolution=clean(resolution),
            )
            await op.audit(
                "check.confirm",
                f"evening {op.evening.date}: game {check.game}, table {check.table_no}",
                reason=clean(resolution) or None,
            )
            found = await tx.check(check_id)
            assert found is not None
            return found

    # ---------------------------------------------------------------------------- timer

    async def start_game(
        self, actor: Actor, evening_id: int, game: int, *, at: datetime | None = None
    ) -> TimerState:
        """Start the room's timer for a game (seated already)."""
        when = at or self.clock()
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            if op.state.game(game) is None:
                raise bad(f"game {game} is not seated yet")
            await op.tx.set_game_started(evening_id, game, when)
            after = await op.tx.evening_state(evening_id)
            assert after is not None
            return timer_of(after, op.season, when)

    async def timer(self, evening_id: int, *, now: datetime | None = None) -> TimerState:
        """Public: the projection page needs no login."""
        async with self.reading(None, evening_id=evening_id) as op:
            return timer_of(op.state, op.season, now or self.clock())


def checked_result(
    ns: int, ew: int, smazzate: Sequence[Sequence[int]] | None, timed_out: int | None
) -> tuple[tuple[int, int], ...] | None:
    """A result's scores checked; its smazzate (if given) must add up to them."""
    check_score(ns, "the NS score")
    check_score(ew, "the EW score")
    if timed_out not in (None, 0, 1):
        raise bad("timed_out is 0 (NS), 1 (EW) or nothing")
    if smazzate is None:
        return None
    rows: list[tuple[int, int]] = []
    for i, pair in enumerate(smazzate, 1):
        if len(pair) != 2:
            raise bad(f"smazzata {i}: two scores, NS and EW")
        rows.append(
            (check_score(pair[0], f"smazzata {i} NS"), check_score(pair[1], f"smazzata {i} EW"))
        )
    if not rows:
        return None
    total = (sum(a for a, _ in rows), sum(b for _, b in rows))
    if total != (ns, ew):
        raise bad(
            f"the result does not add up: the smazzate total {total[0]} - {total[1]},"
            f" the result says {ns} - {ew}"
        )
    return tuple(rows)


def seated_game(state: EveningState, game: int, table: int) -> GameInfo:
    """The game of a table that has been seated (a clear error otherwise)."""
    if not state.evening.status.drawn:
        raise conflict(f"the seats of {state.evening.date} are not drawn yet")
    current = state.game(game)
    if current is None:
        raise bad(f"game {game} is not seated yet")
    if table not in current.tables:
        raise bad(f"game {game} has tables {', '.join(map(str, current.tables))}, not {table}")
    return current


async def _after_result(op: Operation) -> None:
    """The next game drawn when this one is complete; the evening finished after its last."""
    state = await op.tx.evening_state(op.evening.id)
    assert state is not None
    who = await names(op.tx, op.club.id)
    await draw_next(op.tx, state, op.season, who)
    evening, _ = build_evening(state, op.season, who)
    status = EveningStatus.FINISHED if evening.finished else EveningStatus.PLAYING
    if status != state.evening.status:
        await op.tx.update_evening(state.evening.id, status=status)
