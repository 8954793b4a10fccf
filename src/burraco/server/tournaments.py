"""Online tournaments: registration, rounds played on server tables, standings pushed live.

A ``TournamentManager`` lives in the server process next to the tables (``hub.tournaments``).
Everything it knows is in the store (``burraco.store.tournament_store``): it reads a tournament
back before each change, so that a restarted server simply goes on. Every decision is the pure
``burraco.tournament.TournamentState``'s (the pairing systems, T21 eliminations, knockout
brackets and tie-breaks, forfeits, MP, VP and standings); this module only decides *when*
(registration closes, the tournament starts, a round's last table finishes) and does the I/O
(server tables, the store, the watchers' messages: ``server.tournament``). docs/tournaments.md,
"Online tournaments", describes the behaviour; docs/protocol.md the messages.

It stays one module of about 650 lines: registration, the scheduler, views and pushes already
live in ``server.tournament``; what is left is the manager's one lock and the life of a
tournament under it (create, start, a round, its end), which read best together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from burraco.engine.errors import RecordError
from burraco.errors import ErrorCode, ServiceError
from burraco.store import (
    EntrantInfo,
    FinishedMatch,
    RoundTableInfo,
    TournamentData,
    TournamentInfo,
    TournamentStore,
    UserInfo,
    Withdrawal,
)
from burraco.tournament import (
    ACTIVE_TOURNAMENTS,
    MAX_ENTRANTS,
    EarlierMatch,
    EntrantId,
    EntrantStatus,
    FinishedTable,
    RoundStatus,
    TournamentSettings,
    TournamentSettingsError,
    TournamentStatus,
    admit,
)
from burraco.tournament.recurrence import Recurrence

from . import messages
from .connection import Connection
from .protocol import encode
from .table import TableActor
from .tournament.errors import TournamentError
from .tournament.pushes import Watchers
from .tournament.records import (
    closings_of,
    count_closings,
    counted_entrants,
    deals_of,
    seats,
    settings_of,
    state_of,
    table_config,
)
from .tournament.registration import Registration
from .tournament.scheduler import Scheduler
from .tournament.views import REGISTRATION_CLOSES, summary, view

MAX_LEAD = timedelta(days=366)
"""How far ahead a scheduled tournament may start."""

MAX_RECURRING = 5
"""Schedules one organiser may keep."""

if TYPE_CHECKING:
    from .hub import Hub

__all__ = [
    "MAX_ENTRANTS",
    "REGISTRATION_CLOSES",
    "TournamentError",
    "TournamentManager",
    "TournamentSettings",
    "TournamentSettingsError",
]

log = logging.getLogger("burraco.tournaments")


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class TournamentManager:
    def __init__(self, hub: Hub, *, clock: Callable[[], datetime] | None = None) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.store)
        self.clock = clock or hub.clock.utcnow
        """Now, as the tournaments see it (the hub's clock unless told)."""
        self.watchers = Watchers(hub.tell)
        self.lock = asyncio.Lock()
        """Held by every change of a tournament (one at a time: each reads it back first)."""
        self.registration = Registration(self)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._scheduler = Scheduler(self)
        self._clock_task: asyncio.Task[None] | None = None
        hub.finish_listeners.append(self._on_table_finished)

    # --------------------------------------------------------------------------- lifecycle

    async def start(self, *, scheduler: bool = True) -> None:
        """Go on with every tournament the store has in progress (after a restart), then
        watch the clock for scheduled ones."""
        await self.resume_all()
        if scheduler:
            self._clock_task = asyncio.get_running_loop().create_task(
                self._scheduler.run(), name="tournament scheduler"
            )

    async def resume_all(self) -> None:
        """Finish what is pending in every tournament in progress, from the store: after a
        restart, and in a cluster at each sweep of the process that runs the tournaments
        (a table's end reported while no process ran them, or lost on the way, is found)."""
        for info in await self.store.tournaments(ACTIVE_TOURNAMENTS):
            try:
                await self._resume(info.id)
            except Exception:  # one broken tournament must not keep the others from going on
                log.exception("tournament %s could not be resumed", info.id)
        async with self.lock:  # a round that ended before a crash rated nothing yet
            await self._rate_pending()

    async def close(self) -> None:
        tasks = [t for t in (self._clock_task, *self._tasks) if t is not None]
        self._clock_task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def tick(self) -> None:
        """Start (or cancel) every scheduled tournament whose time has come, and tell the
        watchers when a registration closes (``tournament.scheduler``)."""
        await self._scheduler.tick()

    async def begin(self, tournament_id: str) -> None:
        """Start a tournament now (T1), taking the lock."""
        async with self.lock:
            await self.begin_locked(tournament_id)

    async def push(self, tournament_id: str, reason: str) -> None:
        await self._push(tournament_id, reason)

    # ------------------------------------------------------------------------- requests

    async def create(
        self,
        user: UserInfo,
        *,
        name: str,
        start: str,
        size: int | None,
        starts_at: datetime | None,
        settings: TournamentSettings,
    ) -> dict[str, Any]:
        # The settings checked themselves when built; the table they play on is the server's.
        table_config(settings, "check").validate()  # RulesError: 422 bad_rules
        table_config(settings, "check").given_once()
        limit = self.hub.config.max_tournaments_per_user
        if len(await self.store.tournaments(ACTIVE_TOURNAMENTS, created_by=user.id)) >= limit:
            raise TournamentError(
                ErrorCode.TOO_MANY_TABLES,
                f"you already organise {limit} tournaments not finished: let one end first",
                detail="tournaments",
                params={"limit": limit},
            )
        now = self.clock()
        per_table = settings.entrant_kind.entrants_per_table
        if start == "sitgo":
            if size is None or not 4 <= size <= MAX_ENTRANTS or size % per_table:
                raise TournamentError(
                    ErrorCode.BAD_TOURNAMENT,
                    f"a Sit&Go needs a size of 4 to {MAX_ENTRANTS} entrants, a multiple of "
                    f"{per_table}",
                )
            starts_at = None
        elif start == "scheduled":
            if starts_at is None:
                raise TournamentError(
                    ErrorCode.BAD_TOURNAMENT, "a scheduled tournament needs starts_at"
                )
            starts_at = _utc(starts_at)
            # Compared on now's side: a start near year 1 leaves no room to subtract from it
            # (issue 19: a 500); a year ahead is as far as a schedule is planned.
            if starts_at > now + MAX_LEAD:
                raise TournamentError(
                    ErrorCode.BAD_TOURNAMENT, "the start must be at most a year away"
                )
            if starts_at <= now + REGISTRATION_CLOSES:
                raise TournamentError(
                    ErrorCode.BAD_TOURNAMENT,
                    "the start must be more than 2 minutes away (registration closes then)",
                )
            size = None
        else:
            raise TournamentError(ErrorCode.BAD_TOURNAMENT, "start is sitgo or scheduled")
        tournament_id = secrets.token_urlsafe(9)
        await self.store.create(
            tournament_id,
            name=name.strip()[:80] or tournament_id,
            created_by=user.id,
            start=start,
            starts_at=starts_at,
            size=size,
            settings=settings.to_json(),
            seed=secrets.randbits(62),
            now=now,
        )
        self._scheduler.poke()
        return await self.view(tournament_id)

    async def _mail_standings(self, tournament_id: str) -> int:
        """The final standings by mail to every entrant with a confirmed address who asked for
        them (issue 16); how many were sent. A mail server's refusal is logged per recipient
        and does not stop the others (the tournament is over either way)."""
        mailer = self.hub.mailer
        if not mailer.available:
            return 0
        data = await self.store.load(tournament_id)
        if data is None:
            return 0
        shown = await self.view(tournament_id)
        table = "\n".join(
            f"{row['place']}. {row['name']}  {row['vp']} VP" for row in shown["standings"]
        )
        sent = 0
        for entrant in data.entrants:
            for user_id in entrant.users:
                account = await self.hub.accounts.account(user_id)
                if account is None or account.email is None or not account.mail_standings:
                    continue
                try:
                    await mailer.send(
                        account.email,
                        "standings",
                        "it",
                        name=account.name,
                        tournament=data.info.name,
                        table=table,
                    )
                    sent += 1
                except ServiceError as error:
                    log.warning("standings of %s to %s: %s", tournament_id, account.name, error)
        return sent

    # ------------------------------------------------------------------ recurring events

    async def add_recurring(
        self, user: UserInfo, *, name: str, recurrence: Recurrence, settings: TournamentSettings
    ) -> dict[str, Any]:
        """An organiser's schedule: each event is created ``recurrence.lead`` before its start
        (by the scheduler's ``recurring_tick``)."""
        if user.is_guest:
            raise TournamentError(ErrorCode.FORBIDDEN, "register to organise events")
        table_config(settings, "check").validate()
        table_config(settings, "check").given_once()
        mine = await self.store.recurring(user_id=user.id)
        if len(mine) >= MAX_RECURRING:
            raise TournamentError(
                ErrorCode.BAD_TOURNAMENT, f"at most {MAX_RECURRING} schedules per organiser"
            )
        event_id = await self.store.add_recurring(
            created_by=user.id,
            name=name.strip()[:80] or "Torneo",
            weekdays=list(recurrence.weekdays),
            at=recurrence.at.strftime("%H:%M"),
            zone=recurrence.zone,
            lead_minutes=int(recurrence.lead.total_seconds() // 60),
            settings=settings.to_json(),
            active=True,
            created_at=self.clock(),
            last_start=None,
        )
        self._scheduler.poke()
        return {"id": event_id}

    async def recurring_of(self, user: UserInfo) -> list[dict[str, Any]]:
        return [
            {
                "id": r.id,
                "name": r.name,
                "weekdays": list(r.weekdays),
                "at": r.at,
                "zone": r.zone,
                "lead_minutes": r.lead_minutes,
                "last_start": None if r.last_start is None else _utc(r.last_start).isoformat(),
            }
            for r in await self.store.recurring(user_id=user.id)
        ]

    async def stop_recurring(self, user: UserInfo, event_id: int) -> None:
        if not any(r.id == event_id for r in await self.store.recurring(user_id=user.id)):
            raise TournamentError(ErrorCode.NOT_FOUND, "you have no such schedule")
        await self.store.set_recurring(event_id, active=False)

    async def recurring_tick(self, now: datetime) -> list[str]:
        """Create the events whose time to be created has come; their ids."""
        created: list[str] = []
        for row in await self.store.recurring():
            recurrence = Recurrence(
                weekdays=tuple(row.weekdays),
                at=time.fromisoformat(row.at),
                zone=row.zone,
                lead=timedelta(minutes=row.lead_minutes),
            )
            after = _utc(row.last_start) if row.last_start is not None else _utc(row.created_at)
            owner = await self.hub.store.user(row.created_by)
            if owner is None:
                continue
            for start in recurrence.starts_between(after, now + recurrence.lead):
                await self.store.set_recurring(row.id, last_start=start)
                if start - REGISTRATION_CLOSES <= now:
                    continue  # too late to open it for registration: skipped, not late
                made = await self.create(
                    owner,
                    name=row.name,
                    start="scheduled",
                    size=None,
                    starts_at=start,
                    settings=TournamentSettings.from_json(row.settings),
                )
                created.append(made["id"])
        return created

    async def summaries(self, *, past: int = 50) -> list[dict[str, Any]]:
        """Every tournament registering or running (oldest first), then the ``past`` latest
        finished or cancelled ones (newest first)."""
        infos = await self.store.tournaments()
        active = [i for i in infos if i.status in ACTIVE_TOURNAMENTS]
        over = [i for i in infos if i.status not in ACTIVE_TOURNAMENTS][::-1][:past]
        counts = await self.store.entrant_counts([i.id for i in active + over])
        now = self.clock()
        return [summary(i, counts.get(i.id, 0), now) for i in active + over]

    async def view(self, tournament_id: str) -> dict[str, Any]:
        data = await self.store.load(tournament_id)
        if data is None:
            raise TournamentError(ErrorCode.NO_SUCH_TOURNAMENT, "there is no such tournament")
        return view(data, state_of(data), self.clock())

    async def register(
        self, user: UserInfo, tournament_id: str, partner: str | None = None
    ) -> dict[str, Any]:
        """Register ``user`` (with ``partner``, a pairs tournament's other player)."""
        return await self.registration.register(user, tournament_id, partner)

    async def confirm(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        """The partner named by a pair agrees to play."""
        return await self.registration.confirm(user, tournament_id)

    async def invitations(self, user: UserInfo) -> list[dict[str, Any]]:
        return await self.registration.invitations(user)

    async def add_bots(
        self, user: UserInfo, tournament_id: str, level: str, count: int
    ) -> dict[str, Any]:
        return await self.registration.add_bots(user, tournament_id, level, count)

    async def unregister(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        return await self.registration.unregister(user, tournament_id)

    async def withdrawn(self, withdrawals: Sequence[Withdrawal], user: UserInfo) -> None:
        """``user`` deleted his account and his entries to tournaments still registering were
        withdrawn with it (``AccountStore.delete_account``): a pair's partner is told, and
        every such tournament's page shows its list again."""
        for withdrawal in withdrawals:
            self.watchers.tell_partner(
                withdrawal.partner_id, withdrawal.tournament_id, "partner_left", user
            )
            await self._push(withdrawal.tournament_id, "registration")

    # ------------------------------------------------------------------- starting, rounds

    async def begin_locked(self, tournament_id: str) -> None:
        """T1: admit the earliest registrants up to a multiple of the table size, exclude (and
        tell) the others, or cancel below the minimum; then pair round 1. Lock held."""
        data = await self.store.load(tournament_id)
        if data is None or data.info.status != TournamentStatus.REGISTERING:
            return
        settings = settings_of(data)
        registered = [
            EntrantId(e.entrant) for e in data.entrants if e.status == EntrantStatus.REGISTERED
        ]
        admission = admit(registered, settings.entrant_kind, min_players=settings.min_players)
        now = self.clock()
        statuses: dict[str, EntrantStatus] = dict.fromkeys(
            admission.excluded, EntrantStatus.EXCLUDED
        )
        statuses |= dict.fromkeys(admission.admitted, EntrantStatus.PLAYING)
        # Pairs whose partner never confirmed do not play (and are told so).
        unconfirmed = [e.entrant for e in data.entrants if e.status == EntrantStatus.INVITED]
        statuses |= dict.fromkeys(unconfirmed, EntrantStatus.UNCONFIRMED)
        self.watchers.notify(data, unconfirmed, "unconfirmed")
        if admission.cancelled:
            await self.store.set_status(
                tournament_id,
                TournamentStatus.CANCELLED,
                finished_at=now,
                note=f"fewer than {settings.min_players} players registered",
                entrants=statuses,
            )
            self.watchers.notify(data, admission.excluded, "cancelled")
            await self._push(tournament_id, "cancelled")
            return
        await self.store.set_status(
            tournament_id, TournamentStatus.RUNNING, started_at=now, entrants=statuses
        )
        self.watchers.notify(data, admission.excluded, "excluded")
        await self._advance(tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        """Pair and start the next round, or end the tournament (the state decides which).
        Lock held."""
        data = await self.store.load(tournament_id)
        if data is None or data.info.status != TournamentStatus.RUNNING:
            return
        if any(r.status == RoundStatus.PLAYING for r in data.rounds):
            return
        step = state_of(data).next_round()
        if step.eliminated:  # T21: tell those who went out after the round just finished
            self.watchers.notify(data, step.eliminated, "eliminated")
        if step.draw is None:
            await self.store.set_status(
                tournament_id, TournamentStatus.FINISHED, finished_at=self.clock()
            )
            await self._push(tournament_id, "finished")
            self._spawn(self._mail_standings(tournament_id))  # off the tournament's path
            return
        pairing = step.draw.pairing
        await self.store.add_round(
            tournament_id,
            step.number,
            byes=list(pairing.byes),
            relaxed=pairing.relaxed,
            slots=step.draw.slots,
            tables=[(t.number, t.lines) for t in pairing.tables],
            now=self.clock(),
        )
        await self._open_tables(tournament_id)
        if not pairing.tables:  # everyone had a bye (cannot happen with 2 or more entrants)
            await self._round_over(tournament_id, step.number)

    async def _open_tables(self, tournament_id: str) -> None:
        """Create a server table for every table of the current round that has none."""
        data = await self.store.load(tournament_id)
        assert data is not None
        settings = settings_of(data)
        current = max((r.number for r in data.rounds), default=0)
        entrants = {e.entrant: e for e in data.entrants}
        opened: list[tuple[RoundTableInfo, str]] = []
        for row in data.tables:
            if row.round == current and row.table_id is None and row.result is None:
                table_id = await self._server_table(data.info, settings, row, entrants)
                opened.append((row, table_id))
        if not opened:
            return
        await self._push(tournament_id, "round")
        for row, table_id in opened:
            self.watchers.tell_table(tournament_id, _users(row, entrants), row.round, table_id)

    async def _server_table(
        self,
        info: TournamentInfo,
        settings: TournamentSettings,
        row: RoundTableInfo,
        entrants: Mapping[str, EntrantInfo],
        *,
        smazzate: int | None = None,
        played: Sequence[dict[str, Any]] | None = None,
    ) -> str:
        """A server table for ``row`` with every seat taken, started at once."""
        config = table_config(settings, info.id)
        if settings.same_cards:  # every table of the round deals the round's decks
            config = replace(config, same_cards=row.round)
        if smazzate is not None:
            config = replace(config, smazzate=smazzate)

        async def record(table_id: str) -> None:
            await self.store.set_table(
                info.id, row.round, row.number, table_id=table_id, played=played
            )

        return await self.hub.open_seated_table(
            config,
            seats(row, entrants, config.players),
            created_by=info.created_by,
            before_start=record,
        )

    # ------------------------------------------------------------------- finished tables

    def _on_table_finished(self, actor: TableActor, result: dict[str, Any]) -> None:
        if actor.config.tournament is None:
            return
        closed_by = (sheet.get("closed_by") for sheet in actor.scores)
        closings = count_closings(closed_by, actor.rules.players)
        cluster = self.hub.cluster
        if cluster is not None and not cluster.leader:
            cluster.table_done(actor.id, result, closings)  # to the process running them
            return
        self.table_done(actor.id, result, closings)

    def table_done(
        self, table_id: str, result: Mapping[str, Any], closings: tuple[int, int] | None
    ) -> None:
        self._spawn(self._table_done(table_id, result, closings))

    async def _table_done(
        self, table_id: str, result: Mapping[str, Any], closings: tuple[int, int] | None
    ) -> None:
        """Store what the state makes of a finished table (``closings`` None: they could not
        be read, and the state refuses to break a knockout tie without them)."""
        async with self.lock:
            owner = await self.store.table_owner(table_id)
            if owner is None:
                return
            tournament_id, round_number, number = owner
            data = await self.store.load(tournament_id)
            if data is None or data.info.status != TournamentStatus.RUNNING:
                return
            row = next(t for t in data.tables if t.round == round_number and t.number == number)
            if row.result is not None or row.table_id != table_id:
                return
            totals = [int(t) for t in result["totals"]]
            winner = result.get("winner")
            deals: tuple[tuple[int, int], ...] = ()
            if settings_of(data).same_cards:
                deals = await self._deals(table_id)
            finished = FinishedTable(
                table_id=table_id,
                totals=(totals[0], totals[1]),
                winner=None if winner is None else int(winner),
                ended=str(result.get("ended", "complete")),
                closings=closings,
                earlier=tuple(EarlierMatch.from_json(p) for p in row.played),
                deals=deals,
            )
            settled = state_of(data).settle(finished)
            if isinstance(settled, EarlierMatch):
                await self._extra_smazzata(data, row, settled)
                return
            await self.store.set_result(tournament_id, round_number, number, settled.to_json())
            fresh = await self.store.load(tournament_id)
            assert fresh is not None
            if all(t.result is not None for t in fresh.tables if t.round == round_number):
                await self._round_over(tournament_id, round_number)
            else:
                await self._push(tournament_id, "result")

    async def _extra_smazzata(
        self, data: TournamentData, row: RoundTableInfo, tied: EarlierMatch
    ) -> None:
        """T23: the match is tied on totals and closings: the same seats play one more
        smazzata at a new table, the tied matches kept for its decision. Lock held."""
        entrants = {e.entrant: e for e in data.entrants}
        played = [*row.played, tied.to_json()]
        new_id = await self._server_table(
            data.info, settings_of(data), row, entrants, smazzate=1, played=played
        )
        await self._push(data.info.id, "extra_smazzata")
        self.watchers.tell_table(data.info.id, _users(row, entrants), row.round, new_id)

    async def _round_over(self, tournament_id: str, number: int) -> None:
        await self.store.finish_round(tournament_id, number, self.clock())
        await self._rate_pending()
        await self._advance(tournament_id)

    async def _rate_pending(self) -> None:
        """Rate the matches of the same-cards rounds now over, kept unrated while they were
        played (docs/tournaments.md, "Same cards"). A failure is logged; ``resume_all`` (at
        start, and at each sweep of a cluster) tries again."""
        try:
            done = await self.hub.ratings.rate_pending(self.clock())
        except Exception:
            log.exception("the ratings of a same-cards round could not be stored")
            return
        for match in done:
            if match.unrated is not None:
                log.warning(
                    "table %s match %s not rated: %s",
                    match.table_id,
                    match.match_no,
                    match.unrated,
                )

    async def _resume(self, tournament_id: str) -> None:
        """After a restart: finish what the crash interrupted, from the store."""
        pending: list[tuple[str, FinishedMatch]] = []
        async with self.lock:
            data = await self.store.load(tournament_id)
            if data is None:
                return
            info = data.info
            if info.status == TournamentStatus.REGISTERING:
                if info.size is not None and counted_entrants(data) >= info.size:
                    await self.begin_locked(tournament_id)
                return
            if info.status != TournamentStatus.RUNNING:
                return
            playing = [r for r in data.rounds if r.status == RoundStatus.PLAYING]
            if not playing:
                await self._advance(tournament_id)
                return
            await self._open_tables(tournament_id)
            data = await self.store.load(tournament_id)
            assert data is not None
            current = [t for t in data.tables if t.round == playing[0].number]
            for row in current:
                if row.result is None and row.table_id:
                    done = await self.store.finished_match(row.table_id)
                    if done is not None:
                        pending.append((row.table_id, done))
            if all(row.result is not None for row in current):  # stopped before the pairing
                await self._round_over(tournament_id, playing[0].number)
        for table_id, done in pending:
            await self._table_done(
                table_id,
                {"totals": list(done.totals), "winner": done.winner, "ended": done.ended},
                await self._closings(table_id, done),
            )

    async def _deals(self, table_id: str) -> tuple[tuple[int, int], ...]:
        """A same-cards table's line scores per smazzata, from its stored record (the
        comparison's input); none (logged) when it cannot be read: the table is then compared
        on no deal."""
        done = await self.store.finished_match(table_id)
        if done is None:
            log.error("table %s: a same-cards table finished without a stored record", table_id)
            return ()
        try:
            return await asyncio.to_thread(deals_of, done.record)
        except RecordError:
            log.exception("table %s: the deals of its record cannot be read", table_id)
            return ()

    @staticmethod
    async def _closings(table_id: str, done: FinishedMatch) -> tuple[int, int] | None:
        """The closings of a match finished while the server was away, from its record; None
        (logged) when the record cannot be read: the state then refuses to settle a tied
        knockout match on them (T23) rather than deciding it on zeros."""
        try:
            return await asyncio.to_thread(closings_of, done.record)
        except RecordError:
            log.exception("table %s: the closings of its record cannot be read", table_id)
            return None

    # ------------------------------------------------------------------------- watchers

    async def watch(self, conn: Connection, tournament_id: str) -> None:
        current = await self.view(tournament_id)  # TournamentError: no such tournament
        self.watchers.add(conn, tournament_id)
        conn.send(encode(messages.tournament("watch", current)))

    def unwatch(self, conn: Connection, tournament_id: str) -> None:
        self.watchers.remove(conn, tournament_id)

    async def _push(self, tournament_id: str, reason: str) -> None:
        """Send the tournament as it now stands to everyone watching it (in a cluster, the
        other processes push it to theirs)."""
        if self.hub.cluster is not None:
            self.hub.cluster.push_tournament(tournament_id, reason)
        await self.push_local(tournament_id, reason)

    async def push_local(self, tournament_id: str, reason: str) -> None:
        await self.watchers.push(tournament_id, reason, self.view)


def _users(row: RoundTableInfo, entrants: Mapping[str, EntrantInfo]) -> list[int]:
    """The players of a round's table."""
    return [u for line in row.lines for e in line for u in entrants[e].users]
