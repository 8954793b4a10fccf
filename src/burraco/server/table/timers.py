"""The table's timers and clocks: the chess clock and turn timer (T5-T14), the next deal, the
away players' deadlines, and letting go of finished or deserted tables.

A timer posts a ``Timer`` command to the actor when it runs out, so it acts in turn with every
other command; one timer per key (setting one again replaces it). Timers and times are the
hub's clock's (``hub.clock``, server/clock.py): a test moves a fake one instead of waiting."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

from burraco.engine.actions import DISCARD
from burraco.engine.autoplay import auto_play_choice

from .. import messages
from ..clock import TimerHandle
from . import commands as cmd
from .commands import TimerPurpose
from .core import TableCore
from .status import TableStatus

if TYPE_CHECKING:
    from .actor import TableActor

log = logging.getLogger("burraco.table")


class TimersMixin(TableCore):
    _timers: dict[str, TimerHandle]

    def _set_timer(
        self, key: str, delay: float, purpose: TimerPurpose, seat: int | None = None
    ) -> None:
        self._cancel_timer(key)
        self._timers[key] = self.hub.clock.call_later(
            max(0.0, delay), self.post, cmd.Timer(key, purpose, seat)
        )

    def _cancel_timers(self) -> None:
        for key in list(self._timers):
            self._cancel_timer(key)

    def _cancel_timer(self, key: str) -> None:
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()

    async def _timer(self, command: cmd.Timer) -> None:
        if self._timers.pop(command.key, None) is None:
            return  # cancelled (or replaced) after it had posted this command
        purpose = command.purpose
        if purpose is TimerPurpose.DEAL:
            await self._deal_next()
        elif purpose is TimerPurpose.REVEAL:
            await self._complete_deal()
        elif purpose is TimerPurpose.AWAY:
            assert command.seat is not None
            await self._away_expired(command.seat)
        elif purpose is TimerPurpose.CLOCK:
            await self._clock_expired()
        elif purpose is TimerPurpose.EVICT:
            self._evict_if_idle()
        elif purpose is TimerPurpose.EXPIRE:
            await self._expire_if_deserted()
        elif purpose is TimerPurpose.UNJOINED:
            await self._end_if_never_joined()
        elif purpose is TimerPurpose.DESERTED:
            await self._end_if_deserted()
        elif purpose is TimerPurpose.PRESENCE:
            assert command.seat is not None
            self._tell_presence(command.seat)
        elif purpose is TimerPurpose.CONCLUDE:
            await self._conclude()
        elif purpose is TimerPurpose.SILENCE:
            assert command.seat is not None
            await self._silence_expired(command.seat)

    # ---------------------------------------------------------------------- clocks

    def _after_change(self) -> None:
        """Arm the clock's timer (or, without one, the silent bot's) and ask a bot to play if
        a bot is to act."""
        self._arm_clock()
        self._arm_silence()
        self._maybe_bot()

    def _arm_clock(self) -> None:
        self._cancel_timer("clock")
        if self.clock is None or self.status != TableStatus.PLAYING:
            return
        expiry = self.clock.next_expiry()
        if expiry is not None:
            at, _ = expiry
            self._set_timer("clock", at - self.hub.clock.now(), TimerPurpose.CLOCK)

    async def _clock_expired(self) -> None:
        clock, state = self.clock, self.state
        if clock is None or state is None or state.is_over or self.status != TableStatus.PLAYING:
            return
        now = self.hub.clock.now()
        expired = clock.expired(now)
        if expired is None:
            self._arm_clock()
            return
        seat = state.current
        if expired == "bank":
            await self._time_out(seat)
            return
        # T13: the turn timer ran out: play the rest of the turn automatically.
        if clock.note_auto_play(seat):
            await self._time_out(seat)
            return
        while self.state is not None and not self.state.is_over and self.state.current == seat:
            view = self.state.view(seat)
            action = auto_play_choice(view, self.state.legal_actions())
            await self._commit(action, auto=True)
            if action.verb == DISCARD:
                break

    async def _time_out(self, seat: int) -> None:
        """T14: a bank ran out (or too many automatic plays): the round ends at once."""
        state = self.state
        assert state is not None and self.match is not None
        line = state.line_of[seat] if self.match.sides == 2 else seat
        self._publish(messages.timeout(seat, line))
        await self._finish(
            "timeout", timed_out_line=line if self.match.sides == 2 else None, timed_out_seat=seat
        )

    # ---------------------------------------------------------- silent bot accounts

    def _arm_silence(self) -> None:
        """At a table without a turn timer, a bot account to act has ``bot_silence_seconds``
        to play (issue 27, H1: a connector that stopped sending, its socket open, held the
        match for ever); each change of the position sets the timer again."""
        self._cancel_timer("silence")
        state, delay = self.state, self.hub.config.bot_silence_seconds
        if (
            delay <= 0
            or self.clock is not None  # the turn timer plays for a player who does not (T13)
            or self.status != TableStatus.PLAYING
            or state is None
            or state.is_over
        ):
            return
        holder = self.seats[state.current]
        if holder.user_bot and holder.user_id is not None and holder.substitute is None:
            self._set_timer("silence", delay, TimerPurpose.SILENCE, state.current)

    async def _silence_expired(self, seat: int) -> None:
        """The bot account to act has not played for ``bot_silence_seconds``: with its socket
        open it is away all the same, from now (the away deadline, then its substitute or its
        line's forfeit, ``_away_expired``), until it plays (``_back_from_silence``). A seat
        whose socket is closed is away already: its silence is watched on, for its return."""
        state, holder = self.state, self.seats[seat]
        if (
            self.status != TableStatus.PLAYING
            or state is None
            or state.is_over
            or state.current != seat
            or holder.substitute is not None
            or holder.silent
        ):
            return
        delay = self.hub.config.bot_silence_seconds
        if holder.connections == 0 or holder.away_since is not None:
            self._set_timer("silence", delay, TimerPurpose.SILENCE, seat)
            return
        log.info(
            "table %s: seat %d (bot account %s) has not played for %.0f s at its turn,"
            " its socket open: away from now",
            self.id,
            seat,
            holder.name,
            delay,
        )
        holder.silent = True
        self._mark_away(seat, self.hub.clock.now())
        self._tell_presence(seat)  # at once: the silence was the quiet time
        self._arm_deserted()

    # --------------------------------------------------------------- away players

    def _people_never_joined(self) -> bool:
        """Seated people, none of whom has opened the table since the match started."""
        people = [h for h in self.seats if h.user_id is not None]
        return bool(people) and not any(h.came for h in people)

    def _nobody_waits(self, seat: int) -> bool:
        """At a casual lobby table, no other seated person is at the table: nobody would play
        with a bot that took ``seat`` (a tournament's table plays on for its round, and a rated
        one is decided: forfeit, or a bot with the leaver rated last)."""
        if self.config.tournament is not None or self.config.rated:
            return False
        return not any(h.present for other, h in enumerate(self.seats) if other != seat)

    def _arm_deserted(self) -> None:
        """A casual lobby match none of whose seated people is at it ends after
        ``deserted_match_seconds`` unless one comes (``_someone_came`` cancels it)."""
        delay = self.hub.config.deserted_match_seconds
        if (
            delay > 0
            and self.status == TableStatus.PLAYING
            and self.config.tournament is None
            and not self.config.rated
            and not any(h.present for h in self.seats)
        ):
            self._set_timer("deserted", delay, TimerPurpose.DESERTED)

    async def _end_if_deserted(self) -> None:
        """Nobody seated has been at this casual match for the deserted time: it ends with no
        winner, stored as ``forfeit``, instead of waiting in memory for ever."""
        if self.status != TableStatus.PLAYING or any(h.present for h in self.seats):
            return
        log.info("table %s: nobody seated is at the table; the match ends", self.id)
        await self._finish("forfeit", timed_out_line=None, timed_out_seat=None)

    def _arm_unjoined(self) -> None:
        delay = self.hub.config.unjoined_table_seconds
        if delay > 0 and self._people_never_joined():
            self._set_timer("unjoined", delay, TimerPurpose.UNJOINED)

    async def _end_if_never_joined(self) -> None:
        """A lobby table whose seated people never came (created with a bot and never opened,
        issue 19, M1) ends with no winner instead of being played by bots, or waiting, for
        ever; the match is stored as ``forfeit`` like a tournament table nobody came to."""
        if self.status != TableStatus.PLAYING or not self._people_never_joined():
            return
        log.info("table %s: nobody seated ever joined; the match ends", self.id)
        await self._finish("forfeit", timed_out_line=None, timed_out_seat=None)

    async def _away_expired(self, seat: int) -> None:
        """An away player's deadline passed: a bot plays for him, or his line forfeits. At a
        lobby table nobody seated ever came to, the unjoined rule decides instead (no winner);
        at a casual one where nobody else is there, nothing happens yet: no bot plays the match
        out for nobody (issue 19), the table waits for him, his seat gets its bot when another
        person comes (``_someone_came``), and the match ends once deserted."""
        holder = self.seats[seat]
        if holder.away_since is None or holder.present:
            return
        if self.config.tournament is None and self._people_never_joined():
            return
        if self.config.absent != "forfeit" and self._nobody_waits(seat):
            return
        self._note_abandoned(seat)
        if self.config.absent == "forfeit":
            await self._forfeit(seat)
            return
        holder.substitute = self.hub.config.substitute_bot
        self._tell_presence(seat)  # an away notice held back by the quiet time goes first
        self._publish(messages.substitute(seat, self._seats_json()))
        self._maybe_bot()

    async def _forfeit(self, seat: int, *, gone: bool = False) -> None:
        """``absent = forfeit``: the away player's line loses with the technical score of T14;
        when nobody of the other line is at the table either, neither line wins. ``gone``: the
        player deleted his account (gone.py); the other line wins unless it is gone too (its
        people need not be at the table yet: a tournament's table has just started)."""
        state, match = self.state, self.match
        if state is None or match is None or self.status != TableStatus.PLAYING or match.sides != 2:
            return
        line = state.line_of[seat]
        if gone:
            both = all(h.gone for s, h in enumerate(self.seats) if state.line_of[s] != line)
        else:
            others = [
                h
                for s, h in enumerate(self.seats)
                if state.line_of[s] != line and h.user_id is not None
            ]
            both = bool(others) and all(h.away_since is not None for h in others)
        self._publish(messages.forfeit(seat, None if both else line))
        await self._finish("forfeit", timed_out_line=None if both else line, timed_out_seat=seat)

    # ------------------------------------------------------------------- eviction

    def _arm_eviction(self) -> None:
        delay = self.hub.config.finished_table_seconds
        if delay > 0:
            self._set_timer("evict", delay, TimerPurpose.EVICT)

    def _evict_if_idle(self) -> None:
        """Let the hub forget a finished table nobody watches (its record is in the store, and
        ``Hub.table`` loads it again on demand): a long-running server must not keep every table
        it ever held in memory."""
        if not self.status.is_over:
            return  # a rematch began: its own end arms the eviction again
        if self.watchers or not self.queue.empty():
            self._arm_eviction()
            return
        self._leave_memory()

    def _leave_memory(self) -> None:
        """The hub forgets this actor; its loop ends after the current command."""
        self.evicted = True
        self.hub.forget(cast("TableActor", self))
