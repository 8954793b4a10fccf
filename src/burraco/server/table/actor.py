"""The actor: one asyncio task per table that takes its commands from a queue, one at a time
(DESIGN.md, habit 7), and hands each to the part of the table that handles it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from burraco.errors import ServiceError
from burraco.store import TableInfo
from burraco.store.fencing import LeaseLost

from .. import messages
from ..errors import close_code
from ..protocol import ErrorCode, ProtocolError, encode
from ..ratelimit import Bucket
from ..tableconfig import TableConfig
from ..wire import ViewJson
from . import commands as cmd
from .bots import BotsMixin
from .core import TableError
from .finish import FinishMixin
from .gone import GoneMixin
from .history import CHAT_MEMORY, EVENT_MEMORY, HistoryMixin
from .play import PlayMixin
from .rating import RatingMixin
from .recovery import RecoveryMixin
from .seats import SeatsMixin, SeatState
from .status import TableStatus
from .timers import TimersMixin

if TYPE_CHECKING:
    from ..hub import Hub

log = logging.getLogger("burraco.table")

RECONNECT = close_code(ErrorCode.RECONNECT)
"""The close code that sends a client to the table's new process (4503)."""

_HALT: Any = object()
"""Queued by ``halt``: the actor's loop ends there."""


def _log_failure(task: asyncio.Task[Any]) -> None:
    """A command forwarded from an evicted actor failed: nobody awaits it, so say it here."""
    if not task.cancelled() and task.exception() is not None:
        log.error("forwarded table command failed", exc_info=task.exception())


class TableActor(
    SeatsMixin,
    GoneMixin,
    PlayMixin,
    BotsMixin,
    TimersMixin,
    RecoveryMixin,
    FinishMixin,
    RatingMixin,
    HistoryMixin,
):
    def __init__(self, hub: Hub, info: TableInfo) -> None:
        self.hub = hub
        self.id = info.id
        self.config = TableConfig.from_json(info.config)
        self._config_json = None
        self._config_bytes = None
        self.rules = self.config.ruleset()
        self.control = self.config.time_control()
        self.status = TableStatus(info.status)
        self.match_no = info.match_no
        self.created_by = info.created_by
        self.seats = [
            SeatState(s.user_id, s.user_name, s.bot, user_bot=s.user_bot) for s in info.seats
        ]
        if self.status == TableStatus.PLAYING or self.config.tournament is not None:
            self._empty_seats_gone()  # (a tournament's draw filled every seat)
        self.queue = asyncio.Queue()
        self.seq = 0
        self.memory = deque(maxlen=EVENT_MEMORY)
        self.watchers = {}
        self.chat = deque(maxlen=CHAT_MEMORY)
        rate = hub.config.chats_per_minute_per_table / 60
        burst = max(10.0, 3 * rate)
        self.chat_limit = Bucket(rate, burst, burst, hub.clock.monotonic(), hub.clock.monotonic)
        self.match = None
        self.state = None
        self.number = 0
        self.decks = []
        self.hands = []
        self.hand_actions = []
        self.scores = []
        self.clock = None
        self.ended = None
        self._timers = {}
        self._presence_told = {}
        self.sheet_readers = set()
        self.seed_commits = {}
        self.pending = None
        self.conclusion = None
        self._sheet_since = 0.0
        self.abandoned = None
        self._bot_pending = None
        self._task: asyncio.Task[None] | None = None
        self._view_json = ViewJson()
        self.evicted = False
        self.halted = False
        """Set by ``halt``: another process takes the table over; nothing more runs here."""
        self._deserted_at_last_check = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table {self.id}")
        if self.status.is_over:  # loaded to be read: not kept for ever
            self._arm_eviction()
        elif self.status == TableStatus.OPEN:
            self._arm_expiry()

    async def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def halt(self, timeout: float = 5.0) -> None:
        """Stop after the command in hand (another process takes the table over): no timer
        fires again, and commands still queued are refused with ``table_moved``."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self.halted = True
        task = self._task
        if task is not None and not task.done():
            self.queue.put_nowait((_HALT, None))
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        moved = TableError(ErrorCode.TABLE_MOVED, "the table moved to another server process")
        while not self.queue.empty():
            _, done = self.queue.get_nowait()
            if done is not None and not done.done():
                done.set_exception(moved)
        # Its bots think in the process that took the table over: their state here would stay
        # in this process's workers for ever (and keep the account's place on a worker).
        self.hub.bots.forget_table(self.id)

    async def call(self, command: cmd.TableCommand) -> Any:
        """Run a command on the actor and wait for its result (or its TableError)."""
        if self.halted:
            raise TableError(ErrorCode.TABLE_MOVED, "the table moved to another process")
        if self.evicted:
            return await (await self.hub.table(self.id)).call(command)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((command, done))
        return await done

    def post(self, command: cmd.TableCommand) -> None:
        """Queue a command without waiting: its refusal, if any, goes to its connection."""
        if self.halted:
            # Another process runs the table now: the client connects again and finds it.
            if isinstance(command, cmd.FromConnection):
                command.conn.close(RECONNECT)
            return
        if self.evicted:
            task = asyncio.get_running_loop().create_task(self.call(command))
            task.add_done_callback(_log_failure)
            return
        self.queue.put_nowait((command, None))

    async def _run(self) -> None:
        while True:
            command, done = await self.queue.get()
            if command is _HALT or self.halted:
                if done is not None and not done.done():
                    moved = TableError(ErrorCode.TABLE_MOVED, "the table moved to another process")
                    done.set_exception(moved)
                return
            conn = command.conn if isinstance(command, cmd.FromConnection) else None
            try:
                result = await self._handle(command)
            except LeaseLost:
                # Another process took the table (this one was cut off too long): nothing
                # was written; the table leaves this process and its clients reconnect.
                log.warning("table %s: its lease was taken; letting go", self.id)
                moved = TableError(ErrorCode.TABLE_MOVED, "the table moved to another process")
                if done is not None and not done.done():
                    done.set_exception(moved)
                if self.hub.cluster is not None:
                    self.hub.cluster.lost(self.id)
                continue
            except ServiceError as error:
                if done is not None and not done.done():
                    done.set_exception(error)
                elif conn is not None:
                    conn.send(encode(messages.error(error, table=self.id)))
                continue
            except Exception as error:  # the table must survive a bug in one command
                log.exception("table %s: command %s failed", self.id, type(command).__name__)
                if done is not None and not done.done():
                    done.set_exception(error)
                elif conn is not None:
                    failure = ProtocolError(ErrorCode.SERVER_ERROR, "the server could not do that")
                    conn.send(encode(messages.error(failure, table=self.id)))
                continue
            if done is not None and not done.done():
                done.set_result(result)
            if self.evicted:
                return  # the hub let go of this table; its next command builds a new actor

    async def _handle(self, command: cmd.TableCommand) -> Any:
        """Hand the command to the part of the table that does it; lobby commands answer
        with the table's info, the others with None."""
        match command:
            case cmd.Join():
                return await self._join(command)
            case cmd.Leave():
                return await self._leave(command)
            case cmd.Disconnect():
                return await self._disconnect(command)
            case cmd.Act():
                return await self._act(command)
            case cmd.Chat():
                return await self._chat(command)
            case cmd.Ready():
                return await self._ready(command)
            case cmd.SeedCommit():
                return await self._seed_commit(command)
            case cmd.SeedReveal():
                return await self._seed_reveal(command)
            case cmd.Sit():
                return await self._sit(command)
            case cmd.Stand():
                return await self._stand(command)
            case cmd.Cancel():
                return await self._cancel(command)
            case cmd.SeatBot():
                return await self._seat_bot(command)
            case cmd.Rematch():
                return await self._rematch(command)
            case cmd.Close():
                return await self._close(command)
            case cmd.Start():
                return await self._start(command)
            case cmd.Resume():
                return await self._resume()
            case cmd.Deal():
                return await self._deal_next()
            case cmd.AccountGone():
                return await self._account_gone(command)
            case cmd.Timer():
                return await self._timer(command)
            case cmd.BotMove():
                return await self._bot_move(command)
        raise TypeError(f"not a table command: {command!r}")
