"""The bot's reviews in the database (``ReviewStore(store)``): one row per finished match and
seat, from the request to the result (``server/reviews.py`` runs them; docs/review-server.md).

A review is asked once per match and seat: asking again answers the row there is (queued,
running or done: never computed twice), except a failed one, which is queued again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from . import review_models as rm
from .store import Store, _aware, _now


class ReviewStatus(StrEnum):
    """Where a review stands (the stored strings)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"

    @property
    def is_pending(self) -> bool:
        """Not finished yet: queued or running."""
        return self in (ReviewStatus.QUEUED, ReviewStatus.RUNNING)


PENDING = (ReviewStatus.QUEUED.value, ReviewStatus.RUNNING.value)
ERROR_CHARS = 500
"""The longest error text stored (the column's size)."""
LOST_AFTER = timedelta(hours=6)
"""A review queued or running for longer is lost: its process stopped for good (a cluster's
process that never came back; a server alone queues its own again at its restart). It no
longer counts against its requester, and asking for it again queues it again."""


@dataclass(frozen=True, slots=True)
class ReviewRow:
    id: int
    table_id: str
    match_no: int
    seat: int
    status: ReviewStatus
    requested_by: int | None
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seconds: float
    node: str | None
    result: dict[str, Any] | None
    error: str | None

    @property
    def answered(self) -> bool:
        """Asking for it again answers this row: it is done, or on its way (not lost)."""
        if self.status == ReviewStatus.FAILED:
            return False
        return self.status == ReviewStatus.DONE or self.requested_at >= _lost_before()


def _lost_before() -> datetime:
    return datetime.now(UTC) - LOST_AFTER


def _row(r: rm.Review) -> ReviewRow:
    return ReviewRow(
        r.id,
        r.table_id,
        r.match_no,
        r.seat,
        ReviewStatus(r.status),
        r.requested_by,
        _aware(r.requested_at),
        None if r.started_at is None else _aware(r.started_at),
        None if r.finished_at is None else _aware(r.finished_at),
        r.seconds,
        r.node,
        r.result,
        r.error,
    )


class ReviewStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, table_id: str, match_no: int, seat: int) -> ReviewRow | None:
        async with self.store.sessions() as session:
            found = await session.scalar(
                select(rm.Review).where(
                    rm.Review.table_id == table_id,
                    rm.Review.match_no == match_no,
                    rm.Review.seat == seat,
                )
            )
        return None if found is None else _row(found)

    async def by_id(self, review_id: int) -> ReviewRow | None:
        async with self.store.sessions() as session:
            found = await session.get(rm.Review, review_id)
        return None if found is None else _row(found)

    async def request(
        self,
        table_id: str,
        match_no: int,
        seat: int,
        *,
        user_id: int,
        seconds: float,
        node: str | None,
    ) -> tuple[ReviewRow, bool]:
        """The review of a match's seat, queued if there was none, it had failed or it was
        lost (``LOST_AFTER``); True when this call queued it (False: it was there, queued,
        running or done)."""
        for _ in range(2):  # a concurrent request inserting the same row: read it instead
            try:
                async with self.store.write() as session:
                    found = await session.scalar(
                        select(rm.Review).where(
                            rm.Review.table_id == table_id,
                            rm.Review.match_no == match_no,
                            rm.Review.seat == seat,
                        )
                    )
                    if found is not None and _row(found).answered:
                        return _row(found), False
                    if found is None:
                        found = rm.Review(table_id=table_id, match_no=match_no, seat=seat)
                        session.add(found)
                    found.status = ReviewStatus.QUEUED.value
                    found.requested_by = user_id
                    found.requested_at = _now()
                    found.started_at = found.finished_at = None
                    found.seconds = seconds
                    found.node = node
                    found.result = None
                    found.error = None
                    await session.flush()
                    return _row(found), True
            except IntegrityError:
                continue
        row = await self.get(table_id, match_no, seat)
        assert row is not None
        return row, False

    async def claim(self, review_id: int) -> bool:
        """Mark a queued review running (False: it is no longer queued)."""
        async with self.store.write() as session:
            done = await session.execute(
                update(rm.Review)
                .where(rm.Review.id == review_id, rm.Review.status == ReviewStatus.QUEUED.value)
                .values(status=ReviewStatus.RUNNING.value, started_at=_now())
            )
        return bool(getattr(done, "rowcount", 0))

    async def finish(self, review_id: int, result: dict[str, Any]) -> None:
        await self._end(review_id, ReviewStatus.DONE, result=result)

    async def fail(self, review_id: int, error: str) -> None:
        await self._end(review_id, ReviewStatus.FAILED, error=error[:ERROR_CHARS])

    async def _end(
        self,
        review_id: int,
        status: ReviewStatus,
        *,
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(rm.Review)
                .where(rm.Review.id == review_id)
                .values(status=status.value, finished_at=_now(), result=result, error=error)
            )

    async def pending_of(self, user_id: int) -> int:
        """How many reviews ``user_id`` asked that are queued or running (and not lost)."""
        r = rm.Review
        async with self.store.sessions() as session:
            count = await session.scalar(
                select(func.count()).where(
                    r.requested_by == user_id,
                    r.status.in_(PENDING),
                    r.requested_at >= _lost_before(),
                )
            )
        return int(count or 0)

    async def requested_since(self, user_id: int, since: datetime) -> int:
        """How many reviews ``user_id`` asked since ``since`` (one asked again counts once)."""
        r = rm.Review
        async with self.store.sessions() as session:
            count = await session.scalar(
                select(func.count()).where(r.requested_by == user_id, r.requested_at >= since)
            )
        return int(count or 0)

    async def unfinished(self, node: str | None) -> list[ReviewRow]:
        """The reviews of process ``node`` that were queued or running when it stopped, queued
        again, oldest request first (a restart goes on with them)."""
        r = rm.Review
        mine = r.node.is_(None) if node is None else r.node == node
        async with self.store.write() as session:
            await session.execute(
                update(r)
                .where(mine, r.status == ReviewStatus.RUNNING.value)
                .values(status=ReviewStatus.QUEUED.value, started_at=None)
            )
            found = (
                await session.scalars(
                    select(r)
                    .where(mine, r.status == ReviewStatus.QUEUED.value)
                    .order_by(r.requested_at, r.id)
                )
            ).all()
        return [_row(x) for x in found]
