"""Runs bot decisions off the event loop.

Cheap bots (random, greedy, heuristic) decide in a thread; search bots are CPU-heavy for up to
their time budget, so they run in worker processes where they cannot stall the event loop by
holding the GIL. Each (table, seat) keeps its own seeded bot, so play is deterministic per seat.

Each worker is a single-process executor, and each table is pinned to one worker (the one with
the fewest tables when the table's first search bot thinks), so its bots live in that process
only. When a table finishes, ``forget_table`` drops its bots in this process and asks its worker
to drop its own: a long-running server holds the bots of the tables in play, no more. Pinning
also gives the one place where bot work could later be scheduled per table or per account.

A bot that raises is logged with its traceback (logger ``burraco.bots``) and answered with the
engine's default move (T13 automatic play), as is an illegal answer: a table never waits on a
broken bot, and the failure is on record.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)

from burraco.bots import Bot, make_bot
from burraco.bots.registry import parse_spec
from burraco.engine import Action
from burraco.engine.autoplay import auto_play_choice
from burraco.engine.views import SeatView

HEAVY_LEVELS = frozenset({"search"})

BotKey = tuple[str, int, str, int]
"""(table id, seat, bot spec, seed)."""

log = logging.getLogger("burraco.bots")

_WORKER_BOTS: dict[BotKey, Bot] = {}
"""In a worker process (and in this one, for the bots that think in threads): the bots it has
been asked to run and not yet to forget."""


def _decide(key: BotKey, view: SeatView, legal: Sequence[Action]) -> Action:
    bot = _WORKER_BOTS.get(key)
    if bot is None:
        bot = _WORKER_BOTS[key] = make_bot(key[2], key[3])
    choice = bot.choose(view, legal)
    if choice not in legal:
        # A bot never gets to play an illegal action; the T13 default replaces it.
        return auto_play_choice(view, legal)
    return choice


def _forget(table: str) -> None:
    for key in [k for k in _WORKER_BOTS if k[0] == table]:
        _WORKER_BOTS.pop(key).close()


def bot_count() -> int:
    """How many bots this process holds (run in a worker, it counts the worker's)."""
    return len(_WORKER_BOTS)


class BotRunner:
    """Where bots think: a thread pool for cheap bots, ``processes`` single-process workers for
    search bots (0: threads for every bot)."""

    def __init__(self, *, processes: int = 2, threads: int = 4) -> None:
        self._threads: Executor = ThreadPoolExecutor(threads, thread_name_prefix="bot")
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        """Started on first use."""
        self._pinned: dict[str, int] = {}
        """Table id -> the index of the worker that holds its bots."""

    def _pool(self, table: str, spec: str) -> Executor:
        level, _ = parse_spec(spec)
        if level not in HEAVY_LEVELS or not self._workers:
            return self._threads
        index = self._pinned.get(table)
        if index is None:
            index = self._pinned[table] = self._least_loaded()
        return self._worker(index)

    def _least_loaded(self) -> int:
        load = [0] * len(self._workers)
        for index in self._pinned.values():
            load[index] += 1
        return min(range(len(load)), key=load.__getitem__)

    def _worker(self, index: int) -> ProcessPoolExecutor:
        worker = self._workers[index]
        if worker is None:
            context = multiprocessing.get_context("forkserver")
            worker = self._workers[index] = ProcessPoolExecutor(1, mp_context=context)
        return worker

    async def choose(
        self, table: str, seat: int, spec: str, *, seed: int, view: SeatView, legal: list[Action]
    ) -> Action:
        """The bot's action (one of ``legal``). If the bot (or its worker) fails, the failure is
        logged with its traceback and the T13 default move is played instead, so that the table
        goes on."""
        loop = asyncio.get_running_loop()
        pool: Executor | None = None
        try:
            pool = self._pool(table, spec)
            return await loop.run_in_executor(pool, _decide, (table, seat, spec, seed), view, legal)
        except Exception as error:
            log.exception(
                "bot %r at table %s, seat %d failed; the default move (T13) is played",
                spec,
                table,
                seat,
            )
            if isinstance(error, BrokenExecutor) and pool is not None:
                self._replace_worker(pool)
            return auto_play_choice(view, legal)

    def _replace_worker(self, broken: Executor) -> None:
        """A worker whose process died is replaced by a fresh one at its next use (its tables
        stay pinned to it; their bots start again from their seeds)."""
        for index, worker in enumerate(self._workers):
            if worker is broken:
                self._workers[index] = None
                worker.shutdown(wait=False, cancel_futures=True)

    def forget_table(self, table: str) -> None:
        """Drop the bots of a finished table: here at once, and in its worker (queued behind
        the decisions the worker already has, so after them)."""
        _forget(table)
        index = self._pinned.pop(table, None)
        worker = self._workers[index] if index is not None else None
        if worker is not None:
            done = worker.submit(_forget, table)
            done.add_done_callback(lambda future: _log_forget_failure(future, table))

    async def worker_bot_counts(self) -> list[int | None]:
        """How many bots each worker process holds (None for a worker not started)."""
        loop = asyncio.get_running_loop()
        counts: list[int | None] = []
        for worker in self._workers:
            counts.append(None if worker is None else await loop.run_in_executor(worker, bot_count))
        return counts

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)


def _log_forget_failure(future: Future[None], table: str) -> None:
    if future.cancelled():
        return  # the runner is closing
    error = future.exception()
    if error is not None:
        log.error("the worker of table %s failed to drop its bots", table, exc_info=error)
