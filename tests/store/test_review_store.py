"""The bot's reviews in the store on both backends (store/review_store.py): one row per match
and seat, asked once (a failed one asked again), claimed once, finished or failed, counted per
account, and the unfinished ones of a process queued again at its restart."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from burraco.store import AccountStore, ReviewStatus, ReviewStore, Store
from burraco.store.review_models import Review
from burraco.store.review_store import LOST_AFTER


def test_a_review_from_its_request_to_its_result(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            reviews = ReviewStore(store)
            anna = await store.create_user("Anna", "x")
            bruno = await store.create_user("Bruno", "x")
            row, queued = await reviews.request("t1", 1, 0, user_id=anna.id, seconds=0.5, node=None)
            assert queued and row.status == ReviewStatus.QUEUED and row.requested_by == anna.id
            same, queued = await reviews.request("t1", 1, 0, user_id=bruno.id, seconds=1, node=None)
            assert not queued and same.id == row.id and same.requested_by == anna.id
            assert await reviews.pending_of(anna.id) == 1
            assert await reviews.pending_of(bruno.id) == 0
            an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
            assert await reviews.requested_since(anna.id, an_hour_ago) == 1
            assert await reviews.claim(row.id) and not await reviews.claim(row.id)
            running = await reviews.by_id(row.id)
            assert running is not None and running.status == ReviewStatus.RUNNING
            assert running.started_at is not None
            await reviews.finish(row.id, {"format": "burraco-review/1", "smazzate": []})
            done = await reviews.get("t1", 1, 0)
            assert done is not None and done.status == ReviewStatus.DONE
            assert done.result == {"format": "burraco-review/1", "smazzate": []}
            assert done.finished_at is not None and await reviews.pending_of(anna.id) == 0
            # A failed one is asked again, by whoever asks.
            other, _ = await reviews.request("t1", 1, 1, user_id=anna.id, seconds=0.5, node=None)
            await reviews.fail(other.id, "x" * 900)
            failed = await reviews.get("t1", 1, 1)
            assert failed is not None and failed.status == ReviewStatus.FAILED
            assert failed.error == "x" * 500
            again, queued = await reviews.request(
                "t1", 1, 1, user_id=bruno.id, seconds=0.5, node=None
            )
            assert queued and again.id == other.id and again.requested_by == bruno.id
            assert again.error is None and again.status == ReviewStatus.QUEUED
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_unfinished_reviews_of_a_process_are_queued_again(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            reviews = ReviewStore(store)
            user = await store.create_user("Anna", "x")
            ids = []
            for seat, node in enumerate((None, None, "n1", None)):
                row, _ = await reviews.request("t1", 1, seat, user_id=user.id, seconds=1, node=node)
                ids.append(row.id)
            await reviews.claim(ids[0])  # running when the process stopped
            await reviews.claim(ids[3])
            await reviews.finish(ids[3], {})
            again = await reviews.unfinished(None)
            assert [r.id for r in again] == [ids[0], ids[1]]
            assert all(r.status == ReviewStatus.QUEUED and r.started_at is None for r in again)
            assert [r.id for r in await reviews.unfinished("n1")] == [ids[2]]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_deleted_account_leaves_no_name_in_its_reviews(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            reviews = ReviewStore(store)
            dora = await store.create_user("Dora", "x")
            mine, _ = await reviews.request("t1", 1, 0, user_id=dora.id, seconds=1, node=None)
            other, _ = await reviews.request("t1", 1, 1, user_id=dora.id, seconds=1, node=None)
            await reviews.finish(mine.id, {"player": "Dora", "mp_lost": 3})
            await reviews.finish(other.id, {"player": "Bot Facile", "mp_lost": 0})
            await AccountStore(store).delete_account(dora.id, replacement="Deleted-9")
            gone = await reviews.get("t1", 1, 0)
            kept = await reviews.get("t1", 1, 1)
            assert gone is not None and gone.result == {"player": "Deleted-9", "mp_lost": 3}
            assert gone.requested_by is None
            assert kept is not None and kept.result == {"player": "Bot Facile", "mp_lost": 0}
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_review_pending_for_hours_is_lost_and_may_be_asked_again(db_url: str) -> None:
    """A cluster's process that stopped for good leaves its reviews pending: after
    ``LOST_AFTER`` they no longer count against their requester and are queued again when
    asked."""

    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            reviews = ReviewStore(store)
            anna = await store.create_user("Anna", "x")
            row, _ = await reviews.request("t1", 1, 0, user_id=anna.id, seconds=1, node="gone")
            assert await reviews.claim(row.id)
            assert await reviews.pending_of(anna.id) == 1
            long_ago = datetime.now(UTC) - LOST_AFTER - timedelta(minutes=1)
            async with store.write() as session:
                await session.execute(
                    update(Review).where(Review.id == row.id).values(requested_at=long_ago)
                )
            assert await reviews.pending_of(anna.id) == 0
            again, queued = await reviews.request("t1", 1, 0, user_id=anna.id, seconds=1, node="n2")
            assert queued and again.id == row.id and again.node == "n2"
            assert again.status == ReviewStatus.QUEUED and again.answered
        finally:
            await store.close()

    asyncio.run(scenario())
