"""Runs bot decisions off the event loop.

Cheap bots (random, greedy, heuristic) decide in a thread; search bots are CPU-heavy for up to
their time budget, so they run in worker processes where they cannot stall the event loop by
holding the GIL. Each (table, seat) keeps its own seeded bot, so play is deterministic per seat.

Each worker is a single-process executor. The search bots of one account (the person who
created the table; a tournament for its tables) are pinned to one worker, the one holding the
fewest accounts when the account's first search bot thinks, so that one account's bots can
never hold more than one worker however many tables it starts (issue 19, M2). A worker runs one
decision at a time from its *lane*, a fair queue: the accounts waiting take turns, and within an
account its tables take turns, so a decision never waits behind more than one decision of each
other account on its worker. When a table finishes, ``forget_table`` drops its bots in this
process and asks its worker to drop its own: a long-running server holds the bots of the tables
in play, no more.

A bot that raises is logged with its traceback (logger ``burraco.bots``) and answered with the
engine's default move (T13 automatic play), as is an illegal answer: a table never waits on a
broken bot, and the failure is on record.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass, field

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


@dataclass
class _Job:
    table: str
    key: BotKey
    view: SeatView
    legal: Sequence[Action]
    done: asyncio.Future[Action]


@dataclass
class _Lane:
    """The fair queue of one worker: one decision runs at a time; the accounts with decisions
    waiting take turns (``turns``), each account's tables take turns too."""

    waiting: dict[str, OrderedDict[str, deque[_Job]]] = field(default_factory=dict)
    """Account -> table -> its decisions in order."""
    turns: deque[str] = field(default_factory=deque)
    """The accounts with decisions waiting, the next to run first."""
    running: bool = False

    def add(self, account: str, job: _Job) -> None:
        tables = self.waiting.get(account)
        if tables is None:
            tables = self.waiting[account] = OrderedDict()
            self.turns.append(account)
        tables.setdefault(job.table, deque()).append(job)

    def next(self) -> _Job | None:
        """The next decision to run: the first waiting account's first table's oldest one; the
        account and the table then go to the back of their queues."""
        if not self.turns:
            return None
        account = self.turns.popleft()
        tables = self.waiting[account]
        table, jobs = next(iter(tables.items()))
        job = jobs.popleft()
        if jobs:
            tables.move_to_end(table)
        else:
            del tables[table]
        if tables:
            self.turns.append(account)
        else:
            del self.waiting[account]
        return job

    def __len__(self) -> int:
        return sum(len(jobs) for tables in self.waiting.values() for jobs in tables.values())


class BotRunner:
    """Where bots think: a thread pool for cheap bots, ``processes`` single-process workers for
    search bots (0: threads for every bot)."""

    def __init__(self, *, processes: int = 2, threads: int = 4) -> None:
        self._threads: Executor = ThreadPoolExecutor(threads, thread_name_prefix="bot")
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        """Started on first use."""
        self._lanes = [_Lane() for _ in range(processes)]
        self._accounts: dict[str, int] = {}
        """Account -> the index of the worker that runs its search bots."""
        self._tables: dict[str, str] = {}
        """Table id -> its account (for the tables with search bots in a worker)."""

    def _heavy(self, spec: str) -> bool:
        level, _ = parse_spec(spec)
        return level in HEAVY_LEVELS and bool(self._workers)

    def _worker_of(self, table: str, account: str) -> int:
        self._tables.setdefault(table, account)
        account = self._tables[table]  # a table keeps the account it started with
        index = self._accounts.get(account)
        if index is None:
            index = self._accounts[account] = self._least_loaded()
        return index

    def _least_loaded(self) -> int:
        load = [0] * len(self._workers)
        for index in self._accounts.values():
            load[index] += 1
        return min(range(len(load)), key=load.__getitem__)

    def _worker(self, index: int) -> ProcessPoolExecutor:
        worker = self._workers[index]
        if worker is None:
            context = multiprocessing.get_context("forkserver")
            worker = self._workers[index] = ProcessPoolExecutor(1, mp_context=context)
        return worker

    async def choose(
        self,
        table: str,
        seat: int,
        spec: str,
        *,
        seed: int,
        view: SeatView,
        legal: list[Action],
        account: str | None = None,
    ) -> Action:
        """The bot's action (one of ``legal``). ``account`` is whose budget the decision uses
        (None: the table's own). If the bot (or its worker) fails, the failure is logged with
        its traceback and the T13 default move is played instead, so that the table goes on."""
        key = (table, seat, spec, seed)
        try:
            if not self._heavy(spec):
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._threads, _decide, key, view, legal)
            index = self._worker_of(table, account or f"table:{table}")
            done: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
            self._lanes[index].add(self._tables[table], _Job(table, key, view, legal, done))
            self._run_lane(index)
            return await done
        except Exception:
            log.exception(
                "bot %r at table %s, seat %d failed; the default move (T13) is played",
                spec,
                table,
                seat,
            )
            return auto_play_choice(view, legal)

    def _run_lane(self, index: int) -> None:
        """Start the next decision of a worker's lane if the worker is idle."""
        lane = self._lanes[index]
        if lane.running:
            return
        job = lane.next()
        if job is None:
            return
        loop = asyncio.get_running_loop()
        worker = self._worker(index)
        try:
            running = loop.run_in_executor(worker, _decide, job.key, job.view, job.legal)
        except BrokenExecutor as error:  # the worker died since its last decision
            self._replace_worker(worker)
            job.done.set_exception(error)
            self._run_lane(index)
            return
        lane.running = True

        def finished(future: asyncio.Future[Action]) -> None:
            lane.running = False
            if not job.done.done():
                if future.cancelled():
                    job.done.cancel()
                elif (error := future.exception()) is not None:
                    if isinstance(error, BrokenExecutor):
                        self._replace_worker(worker)
                    job.done.set_exception(error)
                else:
                    job.done.set_result(future.result())
            self._run_lane(index)

        running.add_done_callback(finished)

    def waiting(self) -> list[int]:
        """Decisions waiting in each worker's lane (not counting the one running)."""
        return [len(lane) for lane in self._lanes]

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
        account = self._tables.pop(table, None)
        index = self._accounts.get(account) if account is not None else None
        if account is not None and account not in self._tables.values():
            del self._accounts[account]  # its last table: the account may go elsewhere next
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
