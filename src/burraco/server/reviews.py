"""The bot's reviews of finished matches, off the event loop (docs/review-server.md).

A player of a finished match asks for the review of a seat (his own by default); the request is
checked (the record, the seat, the account's limits, the queue's room), stored as a row
``queued`` (``store/review_store.py``) and put in this process's queue. ``workers`` runner tasks
take the queue in order, mark a review ``running`` and hand it to a process pool
(``ProcessPoolExecutor``, ``review_workers`` processes; 0: a thread, for tests), where
``burraco.bots.review`` computes it; the result (its JSON) or the error is stored, ``done`` or
``failed``, and the requester's open pages are told (the ``review`` message). The same match and
seat is never reviewed twice: asking again answers the stored row (a failed one is queued
again). A worker reports each reviewed decision through a queue, read by a thread here: that is
the progress a page shows.

When the server stops, the pool is shut down and its processes ended: a review that was running
stays ``running`` in the store, and the next start of the same process (alone, or the same
``--node`` of a cluster) queues it again with those that were waiting (``ReviewStore.unfinished``),
so nothing asked is lost; the work is deterministic, so it gives the same result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

from burraco.errors import ErrorCode, ServiceError
from burraco.store import ReviewRow, ReviewStore, UserInfo

from . import messages

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("burraco.reviews")

SEED: Final = 0
"""The reviews' seed: a review is a function of its record, seat and budget."""
DAY: Final = timedelta(days=1)

Progress = Callable[[int, int, int], None]
"""(review id, decisions done, decisions in all)."""

_WORKER: dict[str, Any] = {}
"""In a worker process: ``sink``, the queue its reviews report their progress to."""


def _init_worker(sink: Any) -> None:
    _WORKER["sink"] = sink


def review_job(
    review_id: int, text: str, seat: int, seconds: float, report: Progress | None = None
) -> dict[str, Any]:
    """Review ``seat`` in the record ``text`` (run in a worker): the review's JSON. Raises
    ``ReviewError`` (a record that cannot be reviewed) or anything the review raises."""
    from burraco.bots.review import review_text

    sink = _WORKER.get("sink")

    def progress(done: int, total: int) -> None:
        if report is not None:
            report(review_id, done, total)
        elif sink is not None:
            sink.put((review_id, done, total))

    return review_text(text, seat=seat, seconds=seconds, seed=SEED, progress=progress)


class ReviewRefused(ServiceError):
    """A review refused (the codes of docs/protocol.md, "Reviews")."""


class ReviewService:
    """The reviews of this process: its queue, its runners and its pool."""

    def __init__(self, hub: Hub) -> None:
        config = hub.config
        self.hub = hub
        self.store = ReviewStore(hub.store)
        self.workers = max(0, config.review_workers)
        self.queue_size = config.review_queue
        self.seconds = config.review_seconds
        self.per_day = config.reviews_per_day
        self.pending_per_user = config.reviews_pending_per_user
        self.node = config.node_name if config.redis_url is not None else None
        """Whose rows these are: the node's name in a cluster; None alone."""
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._waiting: deque[int] = deque()
        """The ids queued here, oldest first (a page is told its place)."""
        self.progress: dict[int, tuple[int, int]] = {}
        """Running reviews: (decisions done, in all)."""
        self._runners: list[asyncio.Task[None]] = []
        self._pool: Executor | None = None
        self._sink: Any = None
        self._reader: threading.Thread | None = None
        self.job: Callable[..., dict[str, Any]] = review_job
        """What a worker runs (tests replace it to make a review fail)."""

    # ------------------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        """Queue again the reviews this process had not finished, and start the runners; how
        many were queued again."""
        again = await self.store.unfinished(self.node)
        for row in again:
            self._enqueue(row.id)
        for number in range(max(1, self.workers)):
            self._runners.append(asyncio.create_task(self._run(), name=f"review-runner-{number}"))
        if again:
            log.info("%d reviews queued again after a restart", len(again))
        return len(again)

    async def close(self) -> None:
        """Stop the runners and the pool (a running review stays ``running``: queued again at
        the next start)."""
        for task in self._runners:
            task.cancel()
        for task in self._runners:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._runners.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            self._end_pool(pool)
        if self._sink is not None:
            self._sink.put(None)  # the reader's last item
            if self._reader is not None:
                self._reader.join(5)
            self._sink.close()
            self._sink.join_thread()
            self._sink = self._reader = None

    @staticmethod
    def _end_pool(pool: Executor) -> None:
        # A review may run for minutes: its process is ended, not waited for (Python 3.14's
        # ``terminate_workers``; before it, the pool's own table of processes).
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers == 0:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="review")
            else:
                context = multiprocessing.get_context("forkserver")
                if self._sink is None:
                    self._sink = context.Queue()
                    self._reader = threading.Thread(
                        target=self._read_progress, name="review-progress", daemon=True
                    )
                    self._reader.start()
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_init_worker,
                    initargs=(self._sink,),
                )
        return self._pool

    def _read_progress(self) -> None:
        sink = self._sink
        while True:
            try:
                item = sink.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            review_id, done, total = item
            if review_id in self.progress:
                self.progress[review_id] = (done, total)  # a dict item: atomic

    # ------------------------------------------------------------------------ requests

    async def request(
        self, user: UserInfo, table_id: str, match_no: int, seat: int | None
    ) -> tuple[ReviewRow, bool]:
        """The review of ``seat`` (None: the user's own) of a finished match, queued if it
        was not there; True when this request queued it."""
        record = await self.hub.store.match_record(table_id, match_no)
        table = await self.hub.store.table(table_id)
        if record is None or table is None:
            raise ReviewRefused(ErrorCode.NO_RECORD, "no finished match there")
        mine = [s.seat for s in table.seats if s.user_id == user.id]
        if not mine:
            raise ReviewRefused(
                ErrorCode.NOT_A_PLAYER,
                "only the players of a match may ask for its review",
                detail="review_not_a_player",
            )
        if seat is None:
            seat = mine[0]
        if not 0 <= seat < len(table.seats):
            raise ReviewRefused(
                ErrorCode.NO_SUCH_SEAT,
                f"there is no seat {seat} at a {len(table.seats)}-player table",
                detail="review_no_such_seat",
                params={"seat": seat, "players": len(table.seats)},
            )
        found = await self.store.get(table_id, match_no, seat)
        if found is not None and found.answered:
            return found, False
        await self._check_limits(user)
        row, queued = await self.store.request(
            table_id, match_no, seat, user_id=user.id, seconds=self.seconds, node=self.node
        )
        if queued:
            self._enqueue(row.id)
        return row, queued

    async def _check_limits(self, user: UserInfo) -> None:
        pending = await self.store.pending_of(user.id)
        if pending >= self.pending_per_user:
            raise ReviewRefused(
                ErrorCode.TOO_MANY_REVIEWS,
                f"you already have {pending} review(s) waiting (at most"
                f" {self.pending_per_user}): wait for it to finish",
                detail="review_pending",
                params={"limit": self.pending_per_user},
            )
        today = await self.store.requested_since(user.id, self.hub.clock.utcnow() - DAY)
        if today >= self.per_day:
            raise ReviewRefused(
                ErrorCode.TOO_MANY_REVIEWS,
                f"you asked for {today} reviews in the last 24 hours (at most {self.per_day})",
                detail="review_per_day",
                params={"limit": self.per_day},
            )
        if len(self._waiting) >= self.queue_size:
            raise ReviewRefused(
                ErrorCode.REVIEW_QUEUE_FULL,
                f"{len(self._waiting)} reviews are waiting already: try again later",
                detail="review_queue_full",
            )

    def _enqueue(self, review_id: int) -> None:
        self._waiting.append(review_id)
        self._queue.put_nowait(review_id)

    def position(self, review_id: int) -> int | None:
        """A queued review's place in this process's queue (1: next), None if not here."""
        try:
            return self._waiting.index(review_id) + 1
        except ValueError:
            return None

    async def get(self, table_id: str, match_no: int, seat: int) -> ReviewRow | None:
        return await self.store.get(table_id, match_no, seat)

    # ------------------------------------------------------------------------ running

    async def _run(self) -> None:
        while True:
            review_id = await self._queue.get()
            with contextlib.suppress(ValueError):
                self._waiting.remove(review_id)
            try:
                await self._review(review_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # the store failing: the row stays as it was, logged
                log.exception("review %d could not be run", review_id)
            finally:
                self.progress.pop(review_id, None)

    async def _review(self, review_id: int) -> None:
        if not await self.store.claim(review_id):
            return  # no longer queued (asked elsewhere, or done)
        row = await self.store.by_id(review_id)
        assert row is not None
        text = await self.hub.store.match_record(row.table_id, row.match_no)
        if text is None:
            await self._failed(row, "the match's record is gone")
            return
        self.progress[review_id] = (0, 0)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        report = self._report if self.workers == 0 else None
        try:
            result = await loop.run_in_executor(
                pool, self.job, review_id, text, row.seat, row.seconds, report
            )
        except BrokenExecutor:
            if self._pool is pool:
                self._pool = None
                self._end_pool(pool)
            log.warning("review %d: its worker process died", review_id)
            await self._failed(row, "the review's worker process stopped")
            return
        except Exception as error:
            if type(error).__name__ != "ReviewError":
                log.exception("review %d failed", review_id)
            await self._failed(row, str(error) or type(error).__name__)
            return
        await self.store.finish(review_id, result)
        self._tell(row, "done")

    def _report(self, review_id: int, done: int, total: int) -> None:
        if review_id in self.progress:
            self.progress[review_id] = (done, total)

    async def _failed(self, row: ReviewRow, error: str) -> None:
        await self.store.fail(row.id, error)
        self._tell(row, "failed")

    def _tell(self, row: ReviewRow, status: Any) -> None:
        if row.requested_by is not None:
            self.hub.tell(
                row.requested_by, messages.review_news(row.table_id, row.match_no, row.seat, status)
            )
