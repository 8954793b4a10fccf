"""Bots at the table: a seated bot, or the substitute of an away player, thinks in the hub's
bot runner (worker processes) and its choice comes back to the actor as a ``BotMove``."""

from __future__ import annotations

import asyncio

from burraco.engine.autoplay import auto_play_choice

from . import commands as cmd
from .core import TableCore
from .status import TableStatus


class BotsMixin(TableCore):
    _bot_pending: int | None
    """The event number a bot was last asked to think at (one request per position)."""

    def _bot_for(self, seat: int) -> str | None:
        holder = self.seats[seat]
        return holder.bot or holder.substitute

    def _maybe_bot(self) -> None:
        state = self.state
        if self.status != TableStatus.PLAYING or state is None or state.is_over:
            return
        seat = state.current
        spec = self._bot_for(seat)
        if spec is None or self._bot_pending == self.seq:
            return
        self._bot_pending = self.seq
        token = self.seq
        view = state.view(seat)
        legal = state.legal_actions()
        delay = self.hub.config.bot_delay
        seed = hash((self.id, self.match_no, seat)) & 0x7FFFFFFF

        async def think() -> None:
            started = self.hub.clock.monotonic()
            action = await self.hub.bots.choose(
                self.id, seat, spec, seed=seed, view=view, legal=legal, account=self.bot_account
            )
            wait = delay - (self.hub.clock.monotonic() - started)
            if wait > 0:
                await self.hub.clock.sleep(wait)
            self.post(cmd.BotMove(token, seat, action))

        asyncio.get_running_loop().create_task(think())

    async def _bot_move(self, command: cmd.BotMove) -> None:
        seat, action = command.seat, command.action
        if command.token != self.seq or self.state is None or self.state.is_over:
            return
        if self._bot_for(seat) is None or self.state.current != seat:
            return
        if not self.state.can(action):
            action = auto_play_choice(self.state.view(seat), self.state.legal_actions())
        substitute = self.seats[seat].bot is None
        await self._commit(action, auto=substitute)
