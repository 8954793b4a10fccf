"""The clock of scheduled tournaments: registration closes 2 minutes before the start and the
tournament starts (or is cancelled, T1) on time, even with nobody asking."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

from burraco.tournament import TournamentStatus

from .views import REGISTRATION_CLOSES

if TYPE_CHECKING:
    from ..tournaments import TournamentManager

log = logging.getLogger("burraco.tournaments")

SCHEDULER_NAP: Final = 30.0
"""Seconds the scheduler sleeps at most between two looks at the scheduled tournaments."""


class Scheduler:
    """Wakes at the next moment a scheduled tournament needs (or after ``SCHEDULER_NAP``, or
    when ``poke`` says a tournament was created)."""

    def __init__(self, manager: TournamentManager) -> None:
        self.manager = manager
        self._wake = asyncio.Event()
        self._closed_announced: set[str] = set()

    def poke(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        manager = self.manager
        while True:
            delay = SCHEDULER_NAP
            try:
                await self.tick()
                now = manager.clock()
                for info in await manager.store.tournaments([TournamentStatus.REGISTERING]):
                    if info.starts_at is not None:
                        for moment in (info.starts_at - REGISTRATION_CLOSES, info.starts_at):
                            if moment > now:
                                delay = min(delay, (moment - now).total_seconds())
            except Exception:  # the store may be away for a moment: try again later
                log.exception("tournament scheduler")
            self._wake.clear()
            alarm = manager.hub.clock.call_later(max(0.05, delay + 0.05), self._wake.set)
            try:
                await self._wake.wait()
            finally:
                alarm.cancel()

    async def tick(self) -> None:
        """Start (or cancel) every scheduled tournament whose time has come, and tell the
        watchers when a registration closes (once)."""
        manager = self.manager
        now = manager.clock()
        await manager.recurring_tick(now)
        for info in await manager.store.tournaments([TournamentStatus.REGISTERING]):
            if info.start != "scheduled" or info.starts_at is None:
                continue
            if now >= info.starts_at:
                await manager.begin(info.id)
            elif (
                now >= info.starts_at - REGISTRATION_CLOSES
                and info.id not in self._closed_announced
            ):
                self._closed_announced.add(info.id)
                await manager.push(info.id, "registration_closed")
