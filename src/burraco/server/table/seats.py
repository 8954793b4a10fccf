"""Who sits where and who watches: joining and leaving, sitting, standing, bots, away players
and their substitutes, and the lobby's life of a table (start, rematch, cancel, desertion)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from burraco.engine.clock import RoundClock
from burraco.engine.match import Match

from .. import messages
from ..connection import Connection
from ..fairness import random_seat
from ..lesson import LESSON_SEAT
from ..protocol import ErrorCode, ProtocolError, encode
from ..tournament.samecards import deals_for, hidden
from . import commands as cmd
from .commands import TimerPurpose
from .core import TableCore, TableError
from .status import TableStatus

GONE_NAME = "Deleted"
"""The name of a seat whose player's account was deleted before the table knew his name."""


@dataclass
class SeatState:
    user_id: int | None = None
    name: str | None = None
    bot: str | None = None
    """The bot level seated here (a bot player)."""
    connections: int = 0
    away_since: float | None = None
    substitute: str | None = None
    """A bot level playing for the seated person while he is away."""
    user_bot: bool = False
    """The seated user is a bot account (an outside program playing online)."""
    came: bool = False
    """The seated person has opened the table since the match started."""
    gone: bool = False
    """The seat's player deleted his account: he will never come back (``_settle_gone``)."""
    silent: bool = False
    """A bot account with the table open that did not play at its turn for the server's
    ``bot_silence_seconds``: away all the same until it plays (``_silence_expired``)."""

    @property
    def free(self) -> bool:
        return self.user_id is None and self.bot is None and not self.gone

    @property
    def present(self) -> bool:
        """A seated person with the table open (and not silent at his turn)."""
        return self.user_id is not None and self.connections > 0 and not self.silent

    def json(self, seat: int) -> messages.SeatJson:
        return messages.seat(
            seat,
            name=self.name if self.user_id is not None or self.gone else None,
            bot=self.bot,
            connected=self.bot is not None or self.connections > 0,
            away=self.away_since is not None,
            substitute=self.substitute,
            bot_account=self.user_bot and self.user_id is not None,
        )


class SeatsMixin(TableCore):
    # ------------------------------------------------------------------------ connections

    async def _join(self, command: cmd.Join) -> None:
        conn, last_seq = command.conn, command.last_seq
        if not conn.joins.take():  # each join is answered with a snapshot or a resend: M5
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many joins; wait a moment")
        if not await self.hub.join_limits.check(f"user:{conn.user.id}"):
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many joins from this account")
        seat = self.seat_of(conn.user)
        if (
            seat is None
            and self.config.same_cards is not None
            and await hidden(self.hub.store, self.id)
        ):
            raise ProtocolError(
                ErrorCode.SAME_CARDS_HIDDEN,
                "the other tables of this same-cards round are playing the same cards: "
                "it may be watched once the round is over",
            )
        previous = self.watchers.get(conn, -2)
        # The seat's news (``back``, ``seats``) goes out before the connection is a watcher:
        # it reaches it inside its answer (the resent events or the snapshot), not ahead of it.
        if seat is not None and previous != seat:
            holder = self.seats[seat]
            holder.connections += 1
            holder.came = True
            if holder.silent:
                pass  # opening the table again is no move: a silent seat is back by playing
            elif holder.substitute is not None:  # the substitute bot leaves: say so at once
                holder.away_since = None
                holder.substitute = None
                self._cancel_timer(f"away{seat}")
                self._tell_presence(seat)
            elif holder.away_since is not None:
                holder.away_since = None
                self._cancel_timer(f"away{seat}")
                self._presence_changed(seat)
            elif holder.connections == 1:
                self._publish(messages.seats(self._seats_json()))
        self.watchers[conn] = seat
        conn.tables.add(self.id)
        if last_seq is not None and last_seq > self.seq:
            stale = ProtocolError(
                ErrorCode.STALE,
                f"event {last_seq} does not exist yet (the table is at {self.seq});"
                " here is a snapshot",
            )
            conn.send(encode(messages.error(stale, table=self.id)))
            last_seq = None
        self._catch_up(conn, seat, last_seq)
        if seat is not None and self.status == TableStatus.PLAYING:
            await self._someone_came(seat)
        self._maybe_bot()

    async def _someone_came(self, seat: int) -> None:
        """A seated person is at the table: a deserted match no longer is, and a seat whose
        player is away past his deadline with nobody playing for him (nobody was there to play
        with: ``_away_expired``) gets its bot now."""
        self._cancel_timer("deserted")
        now = self.hub.clock.now()
        for other, holder in enumerate(self.seats):
            if (
                other != seat
                and holder.user_id is not None
                and not holder.present
                and holder.substitute is None
                and holder.away_since is not None
                and f"away{other}" not in self._timers
                and now - holder.away_since >= self._away_grace()
            ):
                await self._away_expired(other)

    async def _leave(self, command: cmd.Leave) -> None:
        await self._unwatch(command.conn)
        command.conn.tables.discard(self.id)

    async def _disconnect(self, command: cmd.Disconnect) -> None:
        await self._unwatch(command.conn)

    async def _unwatch(self, conn: Connection) -> None:
        if conn not in self.watchers:
            return
        seat = self.watchers.pop(conn)
        if seat is None:
            return
        holder = self.seats[seat]
        holder.connections = max(0, holder.connections - 1)
        if holder.connections == 0:
            holder.silent = False  # gone now: away as anybody who left (the same deadline)
            if self.status == TableStatus.PLAYING and holder.user_id is not None:
                if holder.away_since is None:
                    self._mark_away(seat, self.hub.clock.now())
                self._presence_changed(seat)
                self._arm_deserted()
            else:
                self._publish(messages.seats(self._seats_json()))
            await self._reader_gone(seat)  # a player who left does not hold up the next deal
            await self._seed_gone(seat)  # nor a deal waiting for his seed

    # ----------------------------------------------------------------------- presence news

    def _presence_changed(self, seat: int) -> None:
        """A seated player left or came back. A departure is told once it has lasted
        ``presence_quiet_seconds`` (a page reload or a network blip is never news, and a client
        toggling join/leave, which sent the opponent 200 away/back notices in 10 s, now sends
        at most two per quiet time: issue 19); a return is told at once when the departure was.
        The away deadline itself runs from the real departure (``_mark_away``)."""
        key = f"presence{seat}"
        if self.seats[seat].away_since is None:
            self._tell_presence(seat)
        elif key not in self._timers:
            self._set_timer(
                key, self.hub.config.presence_quiet_seconds, TimerPurpose.PRESENCE, seat
            )

    def _tell_presence(self, seat: int) -> None:
        """Publish the seat's presence (``away`` with its deadline, or ``back``) if it is not
        what the table was last told."""
        self._cancel_timer(f"presence{seat}")
        holder = self.seats[seat]
        away = holder.away_since is not None
        if self.status != TableStatus.PLAYING or away == self._presence_told.get(seat, False):
            return
        self._presence_told[seat] = away
        if away:
            assert holder.away_since is not None
            deadline = holder.away_since + self._away_grace()
            if self.config.absent == "forfeit":
                then: messages.AwayThen = "forfeit"
            else:
                then = "wait" if self._nobody_waits(seat) else "bot"
            self._publish(messages.away(seat, deadline, then, self._seats_json()))
        else:
            self._publish(messages.back(seat, self._seats_json()))

    def _back_from_silence(self, seat: int) -> None:
        """A silent seat's bot account played (``_act``): it is back, its substitute (if its
        deadline had passed) leaves, and the table is told at once."""
        holder = self.seats[seat]
        holder.silent = False
        holder.away_since = None
        holder.substitute = None
        self._cancel_timer(f"away{seat}")
        self._tell_presence(seat)

    def _mark_away(self, seat: int, now: float) -> float:
        """The seated player is away from ``now``: his deadline (a bot, or a forfeit, after
        it) is set; returns it."""
        grace = self._away_grace()
        self.seats[seat].away_since = now
        self._set_timer(f"away{seat}", grace, TimerPurpose.AWAY, seat)
        return now + grace

    def _absent_at_start(self) -> None:
        """A table starts without waiting: whoever is not at it is away at once, with the usual
        deadline (then a bot plays his seat, or his line forfeits: ``_away_expired``). A
        tournament's table says so at once; a lobby table after the quiet time, since its
        creator's page usually opens it a moment after the last seat was taken. (A lobby
        table's seat never opened was never away: the one who came waited for ever.)"""
        now = self.hub.clock.now()
        for seat, holder in enumerate(self.seats):
            holder.came = holder.connections > 0
            if holder.user_id is not None and holder.connections == 0:
                self._mark_away(seat, now)
                if self.config.tournament is not None:
                    self._tell_presence(seat)
                else:
                    self._presence_changed(seat)

    # ----------------------------------------------------------------------------- seating

    async def _sit(self, command: cmd.Sit) -> messages.TableInfoJson:
        user, seat = command.user, command.seat
        if self.status != TableStatus.OPEN:
            raise TableError("not_open", "the match has started; seats are taken")
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat} at this table")
        if self.seat_of(user) is not None:
            raise TableError("already_seated", "you already have a seat at this table")
        if not self.seats[seat].free:
            raise TableError("seat_taken", f"seat {seat} is taken")
        if self.config.rated and user.is_guest:
            raise TableError(
                "guest_not_rated", "a rated table is for registered players: guests are never rated"
            )
        if user.is_bot:
            self.hub.check_bot_seats(user)
        if self.config.tournament is None:  # a seat is one more live table (issue 19, M1)
            self.hub.check_live_tables(user.id, besides=self)
        await self.hub.store.set_seat(self.id, seat, user_id=user.id, bot=None)
        self.seats[seat] = SeatState(user.id, user.name, None, user_bot=user.is_bot)
        for conn in [c for c in self.watchers if c.user.id == user.id]:
            self.watchers[conn] = seat
            self.seats[seat].connections += 1
        self._publish(messages.seats(self._seats_json()))
        await self._start_if_full()
        return self._info()

    async def _stand(self, command: cmd.Stand) -> messages.TableInfoJson:
        seat = self.seat_of(command.user)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        if self.status != TableStatus.OPEN:
            raise TableError("not_open", "the match has started: a seat cannot be left now")
        await self.hub.store.set_seat(self.id, seat, user_id=None, bot=None)
        self.seats[seat] = SeatState()
        for conn, watched in list(self.watchers.items()):
            if watched == seat:
                self.watchers[conn] = None
        self._publish(messages.seats(self._seats_json()))
        return self._info()

    async def _seat_bot(self, command: cmd.SeatBot) -> messages.TableInfoJson:
        user, seat, level = command.user, command.seat, command.level
        if self.status != TableStatus.OPEN:
            raise TableError("not_open", "the match has started")
        if user.id != self.created_by and self.seat_of(user) is None:
            raise TableError("forbidden", "only the table's players can seat bots")
        if not 0 <= seat < len(self.seats):
            raise TableError("no_such_seat", f"there is no seat {seat} at this table")
        holder = self.seats[seat]
        if level is None:
            if holder.bot is None:
                raise TableError("no_bot", f"seat {seat} has no bot")
        elif not holder.free:
            raise TableError("seat_taken", f"seat {seat} is taken")
        last_free = level is not None and [i for i, s in enumerate(self.seats) if s.free] == [seat]
        if last_free and all(s.user_id is None for s in self.seats) and self.created_by is not None:
            self.hub.check_bot_table(self.created_by, besides=self)  # only bots would play
        await self.hub.store.set_seat(self.id, seat, user_id=None, bot=level)
        self.seats[seat] = SeatState(None, None, level)
        self._publish(messages.seats(self._seats_json()))
        await self._start_if_full()
        return self._info()

    # ----------------------------------------------------------------- the table's life

    async def _cancel(self, command: cmd.Cancel) -> messages.TableInfoJson:
        """The creator withdraws a table that still waits for players: it leaves the lobby and
        the server's memory (its seated players are told by a ``cancelled`` event)."""
        if command.user.id != self.created_by:
            raise TableError("forbidden", "only the table's creator can cancel it")
        if self.status != TableStatus.OPEN:
            raise TableError("not_open", "the match has started: it cannot be cancelled")
        if self.config.tournament is not None:
            raise TableError("forbidden", "a tournament table cannot be cancelled")
        await self._withdraw("creator")
        return self._info()

    async def _close(self, command: cmd.Close) -> messages.TableInfoJson:
        """A moderator's close (the route checked the role and wrote the audit entry)."""
        if self.status == TableStatus.OPEN:
            await self._withdraw("moderator")
        elif self.status == TableStatus.PLAYING:
            await self._finish("closed")
        else:
            raise TableError("not_playing", "the table is neither waiting nor in play")
        return self._info()

    async def _withdraw(self, reason: Literal["creator", "abandoned", "moderator"]) -> None:
        self.status = TableStatus.CANCELLED
        await self.hub.store.set_status(self.id, TableStatus.CANCELLED)
        self._publish(messages.cancelled(reason))
        self._cancel_timers()
        self._leave_memory()

    def _arm_expiry(self) -> None:
        delay = self.hub.config.abandoned_table_seconds
        if delay > 0 and self.config.tournament is None:
            self._set_timer("expire", delay, TimerPurpose.EXPIRE)

    async def _expire_if_deserted(self) -> None:
        """An open table with no person seated and nobody watching, at two checks in a row
        (``abandoned_table_seconds`` apart), is cancelled: the lobby keeps only live tables."""
        if self.status != TableStatus.OPEN:
            return
        deserted = not self.watchers and all(s.user_id is None for s in self.seats)
        if deserted and self._deserted_at_last_check:
            await self._withdraw("abandoned")
            return
        self._deserted_at_last_check = deserted
        self._arm_expiry()

    async def _rematch(self, command: cmd.Rematch) -> messages.TableInfoJson:
        if self.status != TableStatus.FINISHED or self.conclusion is not None:
            # (a match not stored yet is not over for the store: finish.py)
            raise TableError("not_finished", "a rematch starts after the match has ended")
        if self.config.tournament is not None:
            raise TableError("forbidden", "a tournament table plays one match")
        if self.seat_of(command.user) is None:
            raise TableError("not_seated", "only the players can ask for a rematch")
        # The table is live again: within the limits of whoever created it, and of the asker.
        for user_id in {self.created_by, command.user.id} - {None}:
            assert user_id is not None
            self.hub.check_live_tables(user_id, besides=self)
        self.match_no += 1
        self.status = TableStatus.OPEN
        await self.hub.store.set_status(self.id, TableStatus.OPEN, match_no=self.match_no)
        self._publish(messages.rematch(self.match_no))
        self._arm_expiry()
        await self._start_if_full()
        return self._info()

    async def _start_if_full(self) -> None:
        if self.status != TableStatus.OPEN or any(s.free for s in self.seats):
            return
        self.status = TableStatus.PLAYING
        await self.hub.store.set_status(
            self.id, TableStatus.PLAYING, match_no=self.match_no, owner=self.hub.config.process_id
        )
        if self.config.lesson:
            first = LESSON_SEAT
        elif self.config.same_cards is not None:  # the round's first seat, at every table
            assert self.config.tournament is not None
            deals = await deals_for(self.hub.store, self.config.tournament, self.config.same_cards)
            first = deals.first
        else:
            first = random_seat(self.rules.players, self.hub.test_random)
        self.match = Match(self.rules, first=first)
        self.decks, self.hands, self.scores = [], [], []
        self.number = 0
        self.ended = None
        if self.control is not None:
            self.clock = RoundClock.start_round(self.control, self._clock_lines())
        self._publish(messages.started(self.match_no, self._seats_json()))
        self._absent_at_start()
        if self.config.tournament is None:
            self._arm_unjoined()
            self._arm_deserted()
        await self._deal()

    def _empty_seats_gone(self) -> None:
        """The seats with nobody at a table whose seats were all taken (a tournament's, quick
        play's, a match under way) were their players' whose accounts have since been deleted:
        they are gone (gone.py)."""
        for holder in self.seats:
            if holder.free:
                holder.gone, holder.name = True, GONE_NAME

    def _clock_lines(self) -> tuple[int, ...]:
        """The line of each seat, for the clocks: a bank per line (partners share theirs)."""
        return (0, 1, 0, 1) if self.rules.players == 4 else tuple(range(self.rules.players))

    async def _start(self, command: cmd.Start) -> messages.TableInfoJson:
        """Start a table whose seats were all filled in the store (tournament tables). A seat
        found empty had a player whose account was deleted since (gone.py)."""
        self._empty_seats_gone()
        await self._start_if_full()
        return self._info()
