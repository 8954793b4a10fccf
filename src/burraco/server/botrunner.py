"""Runs bot decisions off the event loop.

Cheap bots (random, greedy, heuristic) decide in a thread; search bots are CPU-heavy for up to
their time budget, so they run in worker processes where they cannot stall the event loop by
holding the GIL. Each (table, seat) keeps its own seeded bot, so play is deterministic per seat.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from burraco.bots import Bot, make_bot
from burraco.bots.registry import parse_spec
from burraco.engine import Action
from burraco.engine.autoplay import auto_play_choice
from burraco.engine.views import SeatView

HEAVY_LEVELS = frozenset({"search"})

BotKey = tuple[str, int, str, int]
"""(table id, seat, bot spec, seed)."""

_WORKER_BOTS: dict[BotKey, Bot] = {}
"""In a worker process: the bots it has been asked to run."""


def _decide(key: BotKey, view: SeatView, legal: Sequence[Action]) -> Action:
    bot = _WORKER_BOTS.get(key)
    if bot is None:
        bot = _WORKER_BOTS[key] = make_bot(key[2], key[3])
    choice = bot.choose(view, legal)
    if choice not in legal:
        # A bot never gets to play an illegal action; the T13 default replaces it.
        return auto_play_choice(view, legal)
    return choice


def _forget(prefix: str) -> None:
    for key in [k for k in _WORKER_BOTS if k[0] == prefix]:
        _WORKER_BOTS.pop(key).close()


class BotRunner:
    def __init__(self, *, processes: int = 2, threads: int = 4) -> None:
        self._threads: Executor = ThreadPoolExecutor(threads, thread_name_prefix="bot")
        self._processes: ProcessPoolExecutor | None = None
        self._process_count = processes

    def _pool(self, spec: str) -> Executor:
        level, _ = parse_spec(spec)
        if level not in HEAVY_LEVELS or self._process_count == 0:
            return self._threads
        if self._processes is None:
            context = multiprocessing.get_context("forkserver")
            self._processes = ProcessPoolExecutor(self._process_count, mp_context=context)
        return self._processes

    async def choose(
        self, table: str, seat: int, spec: str, *, seed: int, view: SeatView, legal: list[Action]
    ) -> Action:
        """The bot's action (one of ``legal``); any failure gives the T13 default instead."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._pool(spec), _decide, (table, seat, spec, seed), view, legal
            )
        except Exception:
            return auto_play_choice(view, legal)

    def forget_table(self, table: str) -> None:
        """Drop the bots of a finished table (in this process; workers drop theirs lazily)."""
        _forget(table)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
