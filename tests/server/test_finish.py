"""A match always ends: its record is stored, ``match_end`` goes out and the table is finished
(issue 19, H1). Driven in process (``inprocess.py``): two bots play the whole match."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from burraco.engine.errors import RecordError
from burraco.engine.record import read_record, replay, write_record

from .inprocess import InProcess, running_app

BOTS = {"0": "heuristic", "1": "greedy"}


async def _bot_match(app: InProcess, **body: Any) -> str:
    user = await app.guest()
    answer = await app.http.post(
        "/api/tables",
        json={"players": 2, "smazzate": 1, "seat": None, "bots": BOTS, "between_smazzate": 0}
        | body,
        headers=user,
    )
    assert answer.status_code == 201, answer.text
    table: str = answer.json()["id"]

    async def finished() -> bool:
        # The store's status: it is written after the record, when the match has ended (the
        # actor's own status turns to finished as soon as the end begins).
        stored = await app.hub.store.table(table)
        return stored is not None and stored.status == "finished"

    await app.until(finished)
    return table


def test_a_chess_clock_without_turn_timer_ends_with_its_record(tmp_path: Path) -> None:
    """T5-T10 without T11-T12 (``round_seconds`` alone, documented as valid): the record's
    ``[meta] clock`` has no ``hand_seconds`` key and the match is stored and replayable."""

    async def scenario() -> tuple[str, str]:
        async with running_app(tmp_path) as app:
            # A timed table drops the stall rule (R58) unless the options keep it: kept here,
            # so that two bots that keep picking up the pile still end their smazzata.
            table = await _bot_match(app, round_seconds=600, options={"stall_limit": 40})
            record = await app.http.get(f"/api/tables/{table}/record")
            assert record.status_code == 200, record.text
            replay = await app.http.get(f"/api/tables/{table}/replay")
            assert replay.status_code == 200, replay.text
            matches = (await app.http.get("/api/matches")).json()
            assert [m["table"] for m in matches] == [table]
            return table, record.text

    table, text = asyncio.run(scenario())
    record = read_record(text)
    assert record.meta["clock"] == {"round_seconds": 600.0}
    assert record.meta["table"] == table
    assert len(record.hands) == 1 and record.hands[0].result is not None
    assert replay(record).error is None


def test_finished_matches_list_the_smazzate_played(tmp_path: Path) -> None:
    """``GET /api/matches`` says how many smazzate each finished match scored."""

    async def scenario() -> list[dict[str, Any]]:
        async with running_app(tmp_path) as app:
            table = await _bot_match(app, smazzate=2)
            listed: list[dict[str, Any]] = (await app.http.get("/api/matches")).json()
            return [m for m in listed if m["table"] == table]

    (match,) = asyncio.run(scenario())
    assert match["ended"] == "complete" and match["smazzate"] == 2, match


def test_a_record_that_cannot_be_written_still_ends_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """If the full record cannot be written, the error is logged with its traceback and the
    record is stored without its ``[meta]``; if even that fails, the match ends (status
    finished, ``match_end`` published) with no stored record, and ``/record`` answers 404."""
    real = write_record
    failures: list[bool] = []

    def with_meta_fails(record: Any) -> str:
        if record.meta:
            failures.append(True)
            raise RecordError("cannot write this meta")
        return real(record)

    async def meta_fails() -> str:
        async with running_app(tmp_path / "a") as app:
            table = await _bot_match(app)
            record = await app.http.get(f"/api/tables/{table}/record")
            assert record.status_code == 200, record.text
            return record.text

    monkeypatch.setattr("burraco.server.table.finish.write_record", with_meta_fails)
    with caplog.at_level(logging.ERROR, logger="burraco.table"):
        text = asyncio.run(meta_fails())
    assert failures, "the full record was tried first"
    record = read_record(text)
    assert dict(record.meta) == {}
    assert replay(record).error is None
    assert any("could not be written" in r.getMessage() and r.exc_info for r in caplog.records)

    def always_fails(record: Any) -> str:
        raise RecordError("cannot write this record")

    async def all_fails() -> None:
        async with running_app(tmp_path / "b") as app:
            table = await _bot_match(app)
            record = await app.http.get(f"/api/tables/{table}/record")
            assert record.status_code == 404
            assert record.json()["error"] == "no_record"
            actor = await app.hub.table(table)
            assert actor.status == "finished"
            assert await app.hub.store.match_record(table, 1) is None

    caplog.clear()
    monkeypatch.setattr("burraco.server.table.finish.write_record", always_fails)
    with caplog.at_level(logging.ERROR, logger="burraco.table"):
        asyncio.run(all_fails())
    assert any("could not be written at all" in r.getMessage() for r in caplog.records)


def test_a_store_that_fails_at_the_end_is_tried_again_and_the_match_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Storing the finished match fails twice (a database that is down): each failure is
    logged with its traceback, nothing is announced meanwhile, and the third try stores the
    record and sends ``match_end``; the table is never left ``playing`` (issue 19, H1)."""
    from burraco.server import messages
    from burraco.server.table import finish

    monkeypatch.setattr(finish, "CONCLUDE_FIRST_DELAY", 0.05)
    real_end = messages.match_end
    ends: list[dict[str, Any]] = []

    def spy_end(result: Any, rating: Any) -> Any:
        ends.append({"result": result, "rating": rating})
        return real_end(result, rating)

    monkeypatch.setattr(messages, "match_end", spy_end)
    tries: list[bool] = []

    async def announced() -> bool:
        return bool(ends)

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            store = app.hub.store
            real_log = store.log_match

            async def flaky_log(*args: Any, **kwargs: Any) -> None:
                tries.append(True)
                if len(tries) <= 2:
                    assert not ends, "nothing is announced before the match is stored"
                    raise OSError("the database is down")
                await real_log(*args, **kwargs)

            monkeypatch.setattr(store, "log_match", flaky_log)
            table = await _bot_match(app)
            record = await app.http.get(f"/api/tables/{table}/record")
            assert record.status_code == 200, record.text
            assert replay(read_record(record.text)).error is None
            await app.until(announced)

    with caplog.at_level(logging.ERROR, logger="burraco.table"):
        asyncio.run(scenario())
    assert len(tries) == 3
    assert len(ends) == 1 and ends[0]["result"]["ended"] == "complete"
    failures = [r for r in caplog.records if "could not be stored" in r.getMessage()]
    assert len(failures) == 2 and all(r.exc_info for r in failures)


def test_a_rating_that_fails_still_ends_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug while rating (or writing the profiles' rows) is logged with its traceback; the
    match is stored and ``match_end`` goes out saying it could not be rated."""
    from burraco.server import messages
    from burraco.server.table.rating import RatingMixin

    real_end = messages.match_end
    ends: list[Any] = []

    def spy_end(result: Any, rating: Any) -> Any:
        ends.append(rating)
        return real_end(result, rating)

    async def broken(self: Any, *args: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(messages, "match_end", spy_end)
    monkeypatch.setattr(RatingMixin, "_rate", broken)
    monkeypatch.setattr(RatingMixin, "_record_profiles", broken)

    async def announced() -> bool:
        return bool(ends)

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            table = await _bot_match(app)
            await app.until(announced)
            assert (await app.http.get(f"/api/tables/{table}/record")).status_code == 200

    with caplog.at_level(logging.ERROR, logger="burraco.table"):
        asyncio.run(scenario())
    assert ends == [{"unrated": "server_error"}]
    logged = [r.getMessage() for r in caplog.records if r.exc_info]
    assert any("could not be rated" in m for m in logged)
    assert any("profiles' rows" in m for m in logged)
