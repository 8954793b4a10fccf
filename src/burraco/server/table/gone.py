"""Seats whose player deleted his account (docs/accounts.md, "Deleting an account"): he will
never come back, so nothing waits for him. At a table still waiting for players he stands up
(and a table he created that nobody else sits at is withdrawn); in a match under way his line
forfeits where an absent line does (T14: a rated or tournament table), else a bot plays his
seat, and a casual match with no other person seated ends with no winner. A finished table
frees his seat, so a rematch waits for somebody else.

The hub tells the table before the account is deleted (``AccountGone``), so a forfeit is rated
while his rating still exists. A seat that lost its player in the store (his account deleted
while another process held the table, or between a tournament's draw and its table) is found
gone when the table is built (``TableActor.__init__``) and settled at its first deal."""

from __future__ import annotations

import logging

from .. import messages
from . import commands as cmd
from .core import TableCore
from .seats import SeatState
from .status import TableStatus

log = logging.getLogger("burraco.table")


class GoneMixin(TableCore):
    async def _account_gone(self, command: cmd.AccountGone) -> None:
        user_id = command.user_id
        for conn in [c for c in self.watchers if c.user.id == user_id]:
            del self.watchers[conn]
            conn.tables.discard(self.id)
        created = self.created_by == user_id
        if created:
            self.created_by = None
        seats = [seat for seat, holder in enumerate(self.seats) if holder.user_id == user_id]
        if self.status == TableStatus.PLAYING:
            for seat in seats:
                await self._leave_for_good(seat, command.name)
        if self.status == TableStatus.OPEN:
            for seat in seats:
                await self.hub.store.set_seat(self.id, seat, user_id=None, bot=None)
                self.seats[seat] = SeatState()
            if seats:
                self._publish(messages.seats(self._seats_json()))
            nobody = all(holder.user_id is None for holder in self.seats)
            if created and nobody and self.config.tournament is None:
                await self._withdraw("creator")
            return
        if self.status == TableStatus.FINISHED:
            for seat in seats:  # (a rematch would wait for him for ever)
                await self.hub.store.set_seat(self.id, seat, user_id=None, bot=None)
                self.seats[seat] = SeatState()

    async def _leave_for_good(self, seat: int, name: str) -> None:
        """``seat``'s player deleted his account in the middle of the match."""
        holder = self.seats[seat]
        self._cancel_timer(f"away{seat}")
        self._cancel_timer(f"presence{seat}")
        if self._forfeits(seat) and self.state is not None:
            # Decided now, while he is still seated: the match is rated with his rating.
            self._note_abandoned(seat)
            await self._forfeit(seat, gone=True)
            return
        holder.user_id, holder.name, holder.gone = None, name, True
        holder.connections, holder.away_since, holder.came = 0, None, False
        holder.silent = False
        await self._seed_gone(seat)
        await self._settle_gone()

    def _forfeits(self, seat: int) -> bool:
        """An absent line loses here (T14): two lines, and the table says so."""
        return self.config.absent == "forfeit" and self.rules.players != 3

    async def _settle_gone(self) -> None:
        """Give every gone seat of the match under way its outcome (see the module's doc). A
        deal still waiting for seeds is settled once dealt (``_store_deal`` calls this)."""
        if self.status != TableStatus.PLAYING or self.state is None:
            return
        people = any(holder.user_id is not None for holder in self.seats)
        for seat, holder in enumerate(self.seats):
            if not holder.gone or holder.substitute is not None:
                continue
            if self._forfeits(seat):
                self._note_abandoned(seat)
                await self._forfeit(seat, gone=True)
                return
            if self.config.tournament is None and not people:
                log.info("table %s: no person is left at the match; it ends", self.id)
                await self._finish("forfeit", timed_out_line=None, timed_out_seat=None)
                return
            self._note_abandoned(seat)
            holder.substitute = self.hub.config.substitute_bot
            self._publish(messages.substitute(seat, self._seats_json()))
        self._maybe_bot()
