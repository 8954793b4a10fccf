"""The bot runner: finished tables' bots leave the worker processes, and a failing bot is logged
and answered with the T13 default move."""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool

import pytest

from burraco.bots import BOT_LEVELS
from burraco.engine import Action, Smazzata, find_rules
from burraco.engine.autoplay import auto_play_choice
from burraco.engine.deal import shuffled_deck
from burraco.engine.views import SeatView
from burraco.server.botrunner import BotRunner

SEARCH = "search:iterations=4,depth=1"
"""A search bot with a tiny budget: cheap, and deterministic."""


def new_state(seed: int) -> Smazzata:
    rules = find_rules("italian", players=2)
    return Smazzata.new(rules, deck=shuffled_deck(rules, random.Random(seed)), first=0)


async def play_until_both_seats_acted(runner: BotRunner, table: str, state: Smazzata) -> None:
    """Let the runner's bots play the table until each of the two seats has decided once."""
    acted: set[int] = set()
    for _ in range(40):
        seat = state.current
        acted.add(seat)
        action = await runner.choose(
            table, seat, SEARCH, seed=seat, view=state.view(seat), legal=state.legal_actions()
        )
        state.apply(action)
        if acted == {0, 1}:
            return
    raise AssertionError("the second seat never got to play")


def test_finished_tables_bots_leave_the_workers() -> None:
    async def main() -> None:
        runner = BotRunner(processes=2, threads=1)
        try:
            tables = [f"table-{i}" for i in range(4)]
            for i, table in enumerate(tables):
                await play_until_both_seats_acted(runner, table, new_state(i))
            # Four tables over two workers, each table pinned to one: two tables' two seats each.
            assert await runner.worker_bot_counts() == [4, 4]

            runner.forget_table(tables[0])
            counts = await runner.worker_bot_counts()
            assert sorted(c or 0 for c in counts) == [2, 4]

            for table in tables[1:]:
                runner.forget_table(table)
            assert await runner.worker_bot_counts() == [0, 0]
        finally:
            runner.close()

    asyncio.run(main())


def test_a_worker_that_died_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        runner = BotRunner(processes=1, threads=1)
        try:
            state = new_state(7)
            view, legal = state.view(state.current), state.legal_actions()
            await runner.choose("t", state.current, SEARCH, seed=1, view=view, legal=legal)
            worker = runner._worker(0)
            with pytest.raises(BrokenProcessPool):  # the worker process exits
                await asyncio.get_running_loop().run_in_executor(worker, os._exit, 1)
            # The first choice after the death gets the default move, the next a fresh worker.
            default = auto_play_choice(view, legal)
            first = await runner.choose("t", state.current, SEARCH, seed=1, view=view, legal=legal)
            assert first == default
            await runner.choose("t", state.current, SEARCH, seed=1, view=view, legal=legal)
            assert await runner.worker_bot_counts() == [1]
        finally:
            runner.close()

    with caplog.at_level(logging.ERROR, logger="burraco.bots"):
        asyncio.run(main())
    assert any("BrokenProcessPool" in repr(r.exc_info) for r in caplog.records)


class ExplodingBot:
    def __init__(self, seed: int | None = None) -> None:
        self.name = "explode"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the bot blew up")

    def close(self) -> None:
        pass


def failing_choice(spec: str, processes: int) -> tuple[Action, Action]:
    """The runner's answer for a bot that fails, and the T13 default for the same position."""
    state = new_state(3)
    seat = state.current
    view, legal = state.view(seat), state.legal_actions()

    async def main() -> Action:
        runner = BotRunner(processes=processes, threads=1)
        try:
            return await runner.choose("table-x", seat, spec, seed=5, view=view, legal=legal)
        finally:
            runner.close()

    return asyncio.run(main()), auto_play_choice(view, legal)


def test_a_bot_that_raises_is_logged_and_gets_the_default_move(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOT_LEVELS, "explode", ExplodingBot)
    with caplog.at_level(logging.ERROR, logger="burraco.bots"):
        action, default = failing_choice("explode", processes=0)
    assert action == default
    [record] = [r for r in caplog.records if r.name == "burraco.bots"]
    message = record.getMessage()
    assert "'explode'" in message and "table-x" in message and "seat 0" in message
    assert record.exc_info is not None
    assert isinstance(record.exc_info[1], RuntimeError)
    assert "the bot blew up" in caplog.text  # the traceback is in the log


def test_a_failure_in_a_worker_process_is_logged_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="burraco.bots"):
        action, default = failing_choice("search:no_such_option=1", processes=1)
    assert action == default
    [record] = [r for r in caplog.records if r.name == "burraco.bots"]
    assert "table-x" in record.getMessage()
    assert record.exc_info is not None and isinstance(record.exc_info[1], ValueError)
    assert "no_such_option" in caplog.text
    assert "make_bot" in caplog.text  # the worker's own traceback, carried back


def test_a_lane_lets_accounts_and_their_tables_take_turns() -> None:
    """Issue 19, M2: a decision waits behind at most one decision of each other account."""
    from burraco.server.botrunner import _Job, _Lane

    async def main() -> list[tuple[str, str]]:
        loop = asyncio.get_running_loop()
        lane = _Lane()
        state = new_state(0)
        order: dict[int, tuple[str, str]] = {}

        def job(account: str, table: str) -> None:
            done: asyncio.Future[Action] = loop.create_future()
            order[id(done)] = (account, table)
            lane.add(account, _Job(table, (table, 0, SEARCH, 0), state.view(0), [], done))

        for i in range(3):
            job("many", f"m{i}")
            job("many", f"m{i}")
        job("one", "v")
        job("one", "v")
        assert len(lane) == 8
        ran = []
        while (next_job := lane.next()) is not None:
            ran.append(order[id(next_job.done)])
        return ran

    ran = asyncio.run(main())
    assert ran == [
        ("many", "m0"),
        ("one", "v"),
        ("many", "m1"),
        ("one", "v"),
        ("many", "m2"),
        ("many", "m0"),
        ("many", "m1"),
        ("many", "m2"),
    ]


def test_one_accounts_search_bots_hold_one_worker() -> None:
    """However many tables one account starts, its search bots think in one worker; another
    account's go to the other (issue 19, M2)."""

    async def main() -> None:
        runner = BotRunner(processes=2, threads=1)
        try:
            for i in range(3):
                await play_until_both_seats_acted_as(runner, f"many-{i}", new_state(i), "user:1")
            await play_until_both_seats_acted_as(runner, "victim", new_state(9), "user:2")
            assert sorted(c or 0 for c in await runner.worker_bot_counts()) == [2, 6]
            runner.forget_table("victim")
            for i in range(3):
                runner.forget_table(f"many-{i}")
            assert await runner.worker_bot_counts() == [0, 0]
            assert runner.waiting() == [0, 0]
        finally:
            runner.close()

    asyncio.run(main())


async def play_until_both_seats_acted_as(
    runner: BotRunner, table: str, state: Smazzata, account: str
) -> None:
    acted: set[int] = set()
    for _ in range(40):
        seat = state.current
        acted.add(seat)
        action = await runner.choose(
            table,
            seat,
            SEARCH,
            seed=seat,
            view=state.view(seat),
            legal=state.legal_actions(),
            account=account,
        )
        state.apply(action)
        if acted == {0, 1}:
            return
    raise AssertionError("the second seat never got to play")
