"""The next deal waits for the score sheet (issue 15: "the next deal starts behind the open score
sheet"): after a smazzata, the table deals again once every connected person seated at it has
closed the sheet (``ready``), never sooner than ``between_smazzate`` and at the
latest after ``sheet_seconds``; a player who leaves does not hold the table up. The sheet's
message names the cards each seat was left holding.

The tests of the waits run on ``timed_server``, whose clock is a fake one (server/clock.py):
they move it to just before and to the deadline instead of waiting through it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from burraco.server.clock import FakeClock
from burraco.server.table import TableActor

from .harness import Server
from .inprocess import AppServer, caught_up
from .support import Played, TableClient, is_kind, open_table

Message = dict[str, Any]


def _clock(server: AppServer) -> FakeClock:
    assert isinstance(server.clock, FakeClock)
    return server.clock


async def _dealt_by_then(server: AppServer, actor: TableActor, seconds: float) -> bool:
    """Move the clock ``seconds`` on; whether the table has dealt the second smazzata once it
    has done what came due."""
    _clock(server).advance(seconds)
    await server.acall(caught_up(actor))
    return actor.number == 2


async def _first_smazzata_ends(played: Played) -> Message:
    """Both seated clients play (without closing sheets) until the first smazzata's end."""
    a, b = played.seats[0], played.seats[1]
    for client in (a, b):
        client.reads_sheets = False
    ends = await asyncio.gather(
        a.until(is_kind("smazzata_end"), play=True), b.until(is_kind("smazzata_end"), play=True)
    )
    return ends[0]


async def _dealt_within(client: TableClient, seconds: float) -> Message | None:
    try:
        return await client.until(is_kind("dealt"), timeout=seconds)
    except TimeoutError:
        return None


def test_the_deal_waits_for_every_person_to_close_the_sheet(timed_server: AppServer) -> None:
    async def scenario() -> dict[str, Any]:
        played = await open_table(
            timed_server, players=2, bots={}, smazzate=2, between_smazzate=0, sheet_seconds=60
        )
        try:
            a, b = played.seats[0], played.seats[1]
            end = await _first_smazzata_ends(played)
            received_at = timed_server.hub.clock.now()  # the clock stands still: the end's time
            held = a.view["hand"] if a.view else None
            actor = timed_server.hub.tables[played.table]
            await a.send({"type": "ready", "table": played.table})
            await timed_server.acall(_read_by(actor, a.you))
            # B is still reading: no deal, however long A waits (up to the sheet's 60 s).
            assert not await _dealt_by_then(timed_server, actor, 59.9)
            early = await _dealt_within(a, 0.2)
            started = time.monotonic()
            await b.send({"type": "ready", "table": played.table})
            dealt = await _dealt_within(a, 5)
            waited = time.monotonic() - started
            # A late ``ready`` (the deal has come) changes nothing and is not refused.
            await a.send({"type": "ready", "table": played.table})
            try:
                late = await a.until(lambda m: m["type"] == "error", errors=True, timeout=0.5)
            except TimeoutError:
                late = None
            return {
                "end": end,
                "at": received_at,
                "held": held,
                "early": early,
                "dealt": dealt,
                "waited": waited,
                "late": late,
            }
        finally:
            await played.close()

    got = asyncio.run(scenario())
    assert got["early"] is None, "the next smazzata was dealt while a player read the sheet"
    assert got["dealt"] is not None and got["dealt"]["number"] == 2
    assert got["waited"] < 2.0, f"the deal came {got['waited']:.1f} s after the last ready"
    assert got["late"] is None, got["late"]
    end = got["end"]
    # The sheet says when the deal comes at the latest: sheet_seconds after the end.
    assert 55 < end["next_deal_at"] - got["at"] <= 60.5
    # The cards left in hand, per seat: A's are the cards of A's last view.
    assert len(end["hands"]) == 2
    assert sorted(end["hands"][0]) == sorted(got["held"])


def test_a_sheet_nobody_closes_waits_sheet_seconds(timed_server: AppServer) -> None:
    async def scenario() -> tuple[bool, Message | None]:
        played = await open_table(
            timed_server, players=2, bots={}, smazzate=2, between_smazzate=0, sheet_seconds=1.5
        )
        try:
            await _first_smazzata_ends(played)
            actor = timed_server.hub.tables[played.table]
            early = await _dealt_by_then(timed_server, actor, 1.4)
            assert await _dealt_by_then(timed_server, actor, 0.1)
            dealt = await _dealt_within(played.seats[0], 10)
            return early, dealt
        finally:
            await played.close()

    early, dealt = asyncio.run(scenario())
    assert not early, "dealt before sheet_seconds"
    assert dealt is not None and dealt["number"] == 2


async def _read_by(actor: TableActor, seat: int | None) -> None:
    """In the app's loop: wait until ``seat``'s ``ready`` has reached the table."""
    async with asyncio.timeout(30):
        while seat in actor.sheet_readers:
            await asyncio.sleep(0.005)


def test_a_player_who_leaves_does_not_hold_up_the_deal(play_server: Server) -> None:
    async def scenario() -> tuple[Message | None, float]:
        played = await open_table(
            play_server, players=2, bots={}, smazzate=2, between_smazzate=0, sheet_seconds=60
        )
        try:
            a, b = played.seats[0], played.seats[1]
            await _first_smazzata_ends(played)
            await b.close()  # B closes the tab on the score sheet
            started = time.monotonic()
            await a.send({"type": "ready", "table": played.table})
            dealt = await _dealt_within(a, 5)
            return dealt, time.monotonic() - started
        finally:
            await played.close()

    dealt, waited = asyncio.run(scenario())
    assert dealt is not None and waited < 2.0, waited


def test_the_usual_pause_still_holds_when_everybody_is_quick(timed_server: AppServer) -> None:
    """Both players close the sheet at once (the test clients send ``ready`` on every sheet):
    the deal still waits ``between_smazzate`` (T7), not a moment less and not 60 s."""

    async def scenario() -> bool:
        played = await open_table(
            timed_server, players=2, bots={}, smazzate=2, between_smazzate=1.0, sheet_seconds=60
        )
        try:
            a, b = played.seats[0], played.seats[1]
            await asyncio.gather(
                a.until(is_kind("smazzata_end"), play=True, timeout=60),
                b.until(is_kind("smazzata_end"), play=True, timeout=60),
            )
            actor = timed_server.hub.tables[played.table]
            for seat in (0, 1):  # both closed the sheet (their ``ready`` reached the table)
                await timed_server.acall(_read_by(actor, seat))
            early = await _dealt_by_then(timed_server, actor, 0.9)
            assert await _dealt_by_then(timed_server, actor, 0.1)
            dealt, _ = await asyncio.gather(
                a.until(is_kind("dealt"), timeout=60), b.until(is_kind("dealt"), timeout=60)
            )
            assert dealt["number"] == 2
            return early
        finally:
            await played.close()

    early = asyncio.run(scenario())
    assert not early, "dealt before between_smazzate"


def test_ready_refusals(play_server: Server) -> None:
    """``ready`` from a spectator is refused (``not_seated``); from a connection that has not
    joined the table, ``not_joined``."""

    async def scenario() -> tuple[Message, Message]:
        played = await open_table(play_server, players=2, bots={}, smazzate=1)
        try:
            spectator = played.spectator
            await spectator.send({"type": "ready", "table": played.table})
            seated = await spectator.until(lambda m: m["type"] == "error", errors=True)
            await spectator.send({"type": "leave", "table": played.table})
            await spectator.send({"type": "ready", "table": played.table})
            joined_first = await spectator.until(lambda m: m["type"] == "error", errors=True)
            return seated, joined_first
        finally:
            await played.close()

    seated, joined_first = asyncio.run(scenario())
    assert seated["code"] == "not_seated"
    assert joined_first["code"] == "not_joined"
