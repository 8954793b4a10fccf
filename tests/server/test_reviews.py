"""The bot's reviews on the server (server/reviews.py, routes/reviews.py, store/review_store.py;
docs/review-server.md): asked by a player of a finished match, queued within the limits, run off
the event loop, stored and served, never computed twice, re-queued after a restart; a failing
review is marked failed with its error. Reviews run with a tiny budget (0.01 s a decision).

The review's search itself (burraco.bots.review, measured by tests/bots/test_review.py) runs
with coverage's tracer off in its thread (``untraced_review``): traced, its playouts tripled this
file's time; the server's side of a review (queue, store, routes, messages) is traced as usual.
"""

from __future__ import annotations

import asyncio
import functools
import random
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from burraco.bots import make_bot
from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.record import write_record
from burraco.server import reviews
from burraco.server.reviews import review_job

from .inprocess import InProcess, running_app

QUICK: dict[str, Any] = {"review_workers": 0, "review_seconds": 0.01}


def untraced_review(*args: Any) -> dict[str, Any]:
    """``review_job`` with this thread's tracer (coverage's, when measuring) off meanwhile."""
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        return review_job(*args)
    finally:
        sys.settrace(tracer)


@pytest.fixture(autouse=True)
def _reviews_untraced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app of this file runs its reviews through ``untraced_review``."""
    monkeypatch.setattr(reviews, "review_job", untraced_review)


@functools.cache
def record_text(seed: int = 3) -> str:
    """A short finished 2-player match of one smazzata between greedy bots."""
    rules = find_rules("italian", players=2, smazzate=1)
    game = Game(rules, ("Anna", "Bruno"), rng=random.Random(seed))
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while not game.is_over:
        state = game.state
        seat = state.current
        game.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    return write_record(game.record())


async def user_of(app: InProcess, headers: dict[str, str]) -> int:
    me = await app.http.get("/api/me", headers=headers)
    assert me.status_code == 200, me.text
    user_id: int = me.json()["id"]
    return user_id


async def finished_match(
    app: InProcess, table: str, seats: list[int | None], *, record: str | None = None
) -> None:
    """A finished match at ``table`` (match 1) with these users (None: a bot) at its seats."""
    store = app.hub.store
    await store.create_table(
        table,
        created_by=seats[0],
        config={"smazzate": 1},
        public=True,
        invite_code=None,
        players=len(seats),
    )
    for seat, user_id in enumerate(seats):
        await store.set_seat(table, seat, user_id=user_id, bot=None if user_id else "greedy")
    await store.log_match(
        table,
        1,
        players=["Anna", "Bruno"],
        totals=[0, 0],
        winner=None,
        ended="complete",
        record=record_text() if record is None else record,
    )
    await store.set_status(table, "finished")


async def wait_status(
    app: InProcess, table: str, seat: int, wanted: str, *, match: int = 1
) -> dict[str, Any]:
    found: dict[str, Any] = {}

    async def ready() -> bool:
        answer = await app.http.get(f"/api/tables/{table}/review?match={match}&seat={seat}")
        assert answer.status_code == 200, answer.text
        found.update(answer.json())
        return bool(found["status"] == wanted)

    await app.until(ready, timeout=60)
    return found


class Gate:
    """A review job that waits until the test opens the gate (then reviews as usual)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = threading.Event()
        self.calls = 0

    def __call__(self, *args: Any) -> dict[str, Any]:
        self.calls += 1
        self.started.set()
        assert self.open.wait(30), "the gate was never opened"
        return untraced_review(*args)


def test_a_player_asks_for_his_review_and_gets_it_stored_and_served(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, **QUICK) as app:
            anna = await app.guest()
            anna_id = await user_of(app, anna)
            await finished_match(app, "t1", [anna_id, None])
            told: list[tuple[int, Any]] = []
            tell = app.hub.tell

            def telling(user: int, message: Any) -> int:
                told.append((user, message))
                return tell(user, message)

            app.hub.tell = telling  # type: ignore[method-assign,assignment]
            before = await app.http.get("/api/tables/t1/reviews", headers=anna)
            assert before.json() == {"you": 0, "players": 2, "reviews": []}
            asked = await app.http.post("/api/tables/t1/review", headers=anna)
            assert asked.status_code == 202, asked.text
            assert asked.json()["status"] in ("queued", "running")
            assert asked.json()["seat"] == 0  # his own seat by default
            done = await wait_status(app, "t1", 0, "done")
            review = done["review"]
            assert review["format"] == "burraco-review/1" and review["seat"] == 0
            assert review["player"] == "Anna" and done["error"] is None
            decisions = [d for s in review["smazzate"] for d in s["decisions"]]
            verdicts = {d["verdict"] for d in decisions}
            assert decisions and verdicts <= {"ok", "inaccuracy", "mistake", "blunder"}
            news = {"type": "review", "table": "t1", "match": 1, "seat": 0, "status": "done"}
            assert told == [(anna_id, news)]
            # Asked again: the stored review, not a second computation.
            jobs = app.hub.reviews.job
            calls: list[Any] = []

            def counted(*args: Any) -> dict[str, Any]:
                calls.append(args)
                return jobs(*args)

            app.hub.reviews.job = counted
            again = await app.http.post("/api/tables/t1/review", json={"seat": 0}, headers=anna)
            assert again.status_code == 200 and again.json()["review"] == review
            assert calls == []
            listed = (await app.http.get("/api/tables/t1/reviews", headers=anna)).json()
            assert [r["seat"] for r in listed["reviews"]] == [0]
            # Anyone who may see the replay may read it; a stranger is not a player there.
            stranger = await app.guest()
            seen = await app.http.get("/api/tables/t1/reviews", headers=stranger)
            assert seen.json()["you"] is None and seen.json()["reviews"][0]["review"] == review
            # The opponent's seat may be reviewed by a player too.
            other = await app.http.post("/api/tables/t1/review", json={"seat": 1}, headers=anna)
            assert other.status_code == 202
            assert (await wait_status(app, "t1", 1, "done"))["review"]["player"] == "Bruno"

    asyncio.run(scenario())


def test_refusals_name_their_cause(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, **QUICK) as app:
            anna = await app.guest()
            await finished_match(app, "t1", [await user_of(app, anna), None])
            stranger = await app.guest()

            async def refused(path: str, status: int, code: str, **kwargs: Any) -> dict[str, Any]:
                method = "POST" if "json" in kwargs or kwargs.pop("post", False) else "GET"
                answer = await app.http.request(method, path, **kwargs)
                assert answer.status_code == status, answer.text
                body: dict[str, Any] = answer.json()
                assert body["error"] == code, body
                return body

            await refused("/api/tables/t1/review", 401, "not_authenticated", post=True)
            body = await refused(
                "/api/tables/t1/review", 403, "not_a_player", json={}, headers=stranger
            )
            assert body["detail"]["code"] == "review_not_a_player"
            path = "/api/tables/t1/review"
            body = await refused(path, 409, "no_such_seat", json={"seat": 2}, headers=anna)
            cause = {"code": "review_no_such_seat", "params": {"seat": 2, "players": 2}}
            assert body["detail"] == cause
            await refused(path, 422, "bad_request", json={"seat": -1}, headers=anna)
            await refused("/api/tables/t1/review?match=2", 404, "no_record", json={}, headers=anna)
            await refused("/api/tables/nope/review", 404, "no_record", json={}, headers=anna)
            await refused("/api/tables/t1/review?seat=0", 404, "no_review")
            await refused("/api/tables/nope/reviews", 404, "no_record")
            await refused("/api/tables/t1/review", 422, "bad_request")  # no seat

    asyncio.run(scenario())


def test_one_review_at_a_time_per_account_a_daily_limit_and_a_bounded_queue(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        settings = QUICK | {"review_queue": 1, "reviews_per_day": 2}
        async with running_app(tmp_path, **settings) as app:
            gate = Gate()
            app.hub.reviews.job = gate
            people = [await app.guest() for _ in range(3)]
            ids = [await user_of(app, p) for p in people]
            await finished_match(app, "t1", [ids[0], ids[1]])
            await finished_match(app, "t2", [ids[2], ids[0]])
            first = await app.http.post("/api/tables/t1/review", headers=people[0])
            assert first.status_code == 202
            await asyncio.to_thread(gate.started.wait, 10)  # running: the queue is empty again
            second = await app.http.post(
                "/api/tables/t1/review", json={"seat": 1}, headers=people[0]
            )
            assert second.status_code == 429 and second.json()["error"] == "too_many_reviews"
            assert second.json()["detail"] == {"code": "review_pending", "params": {"limit": 1}}
            queued = await app.http.post("/api/tables/t1/review", headers=people[1])
            assert queued.status_code == 202 and queued.json()["status"] == "queued"
            assert queued.json()["position"] == 1
            full = await app.http.post("/api/tables/t2/review", headers=people[2])
            assert full.status_code == 503 and full.json()["error"] == "review_queue_full"
            assert full.json()["detail"]["code"] == "review_queue_full"
            gate.open.set()
            await wait_status(app, "t1", 0, "done")
            await wait_status(app, "t1", 1, "done")
            third = await app.http.post(
                "/api/tables/t2/review", json={"seat": 0}, headers=people[0]
            )
            assert third.status_code == 202  # the first is done: his next one
            await wait_status(app, "t2", 0, "done")
            day = await app.http.post("/api/tables/t2/review", headers=people[0])
            assert day.status_code == 429
            assert day.json()["detail"] == {"code": "review_per_day", "params": {"limit": 2}}

    asyncio.run(scenario())


def test_a_failing_review_is_marked_failed_with_its_error_and_may_be_asked_again(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, **QUICK) as app:
            anna = await app.guest()
            await finished_match(app, "t1", [await user_of(app, anna), None], record="[[[ nope")
            asked = await app.http.post("/api/tables/t1/review", headers=anna)
            assert asked.status_code == 202
            failed = await wait_status(app, "t1", 0, "failed")
            assert failed["review"] is None and "malformed" in failed["error"]
            again = await app.http.post("/api/tables/t1/review", headers=anna)
            assert again.status_code == 202 and again.json()["error"] is None
            await wait_status(app, "t1", 0, "failed")

    asyncio.run(scenario())


def test_a_review_left_running_by_a_stopped_server_is_queued_again(tmp_path: Path) -> None:
    gate = Gate()

    async def first_run() -> None:
        async with running_app(tmp_path, **QUICK) as app:
            app.hub.reviews.job = gate
            anna = await app.guest()
            await finished_match(app, "t1", [await user_of(app, anna), None])
            assert (await app.http.post("/api/tables/t1/review", headers=anna)).status_code == 202
            await asyncio.to_thread(gate.started.wait, 10)
            assert (await wait_status(app, "t1", 0, "running"))["progress"] is not None

    async def second_run() -> None:
        async with running_app(tmp_path, **QUICK) as app:
            done = await wait_status(app, "t1", 0, "done")
            assert done["review"]["seat"] == 0

    asyncio.run(first_run())
    gate.open.set()  # the old thread ends (its result is thrown away)
    asyncio.run(second_run())


def test_reviews_run_in_a_worker_process(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, review_workers=1, review_seconds=0.01) as app:
            anna = await app.guest()
            await finished_match(app, "t1", [await user_of(app, anna), None])
            assert (await app.http.post("/api/tables/t1/review", headers=anna)).status_code == 202
            progress: list[Any] = []

            async def done() -> bool:
                answer = (await app.http.get("/api/tables/t1/review?seat=0")).json()
                if answer["progress"]:
                    progress.append(answer["progress"])
                return bool(answer["status"] == "done")

            await app.until(done, timeout=60, every=0.05)
            local = await asyncio.to_thread(untraced_review, 0, record_text(), 0, 0.01)
            result = (await app.http.get("/api/tables/t1/review?seat=0")).json()["review"]
            assert result == local  # deterministic: the same review in the worker as here
            assert all(p["total"] == 0 or p["done"] <= p["total"] for p in progress)
            pool = app.hub.reviews._pool
            assert pool is not None
        assert app.hub.reviews._pool is None  # closed with the app

    asyncio.run(scenario())


def test_the_server_budget_is_the_command_s() -> None:
    """``burraco serve`` reviews with the budget ``burraco review`` uses by default."""
    from burraco.bots.review import DEFAULT_SECONDS
    from burraco.server.config import ServerConfig

    assert ServerConfig().review_seconds == DEFAULT_SECONDS
