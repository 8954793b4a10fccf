"""The next deal waits for the score sheet (issue 15: "the next deal starts behind the open score
sheet"): after a smazzata, the table deals again once every connected person seated at it has
closed the sheet (``ready``), never sooner than ``between_smazzate`` and at the
latest after ``sheet_seconds``; a player who leaves does not hold the table up. The sheet's
message names the cards each seat was left holding.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .harness import Server
from .support import Played, TableClient, is_kind, open_table

Message = dict[str, Any]


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


def test_the_deal_waits_for_every_person_to_close_the_sheet(play_server: Server) -> None:
    async def scenario() -> dict[str, Any]:
        played = await open_table(
            play_server, players=2, bots={}, smazzate=2, between_smazzate=0, sheet_seconds=60
        )
        try:
            a, b = played.seats[0], played.seats[1]
            end = await _first_smazzata_ends(played)
            received_at = time.time()
            held = a.view["hand"] if a.view else None
            await a.send({"type": "ready", "table": played.table})
            # B is still reading: no deal, however long A waits.
            early = await _dealt_within(a, 1.5)
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


def test_a_sheet_nobody_closes_waits_sheet_seconds(play_server: Server) -> None:
    async def scenario() -> tuple[float, Message | None]:
        played = await open_table(
            play_server, players=2, bots={}, smazzate=2, between_smazzate=0, sheet_seconds=1.5
        )
        try:
            await _first_smazzata_ends(played)
            started = time.monotonic()
            dealt = await _dealt_within(played.seats[0], 10)
            return time.monotonic() - started, dealt
        finally:
            await played.close()

    waited, dealt = asyncio.run(scenario())
    assert dealt is not None
    assert 1.0 < waited < 4.0, waited


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


def test_the_usual_pause_still_holds_when_everybody_is_quick(play_server: Server) -> None:
    """Both players close the sheet at once (the test clients send ``ready`` on every sheet):
    the deal still waits ``between_smazzate`` (T7), not a moment less and not 60 s."""

    async def scenario() -> float:
        played = await open_table(
            play_server, players=2, bots={}, smazzate=2, between_smazzate=1.0, sheet_seconds=60
        )
        try:
            a, b = played.seats[0], played.seats[1]
            ends = await asyncio.gather(
                a.until(is_kind("smazzata_end"), play=True, timeout=60),
                b.until(is_kind("smazzata_end"), play=True, timeout=60),
            )
            dealt, _ = await asyncio.gather(
                a.until(is_kind("dealt"), timeout=60), b.until(is_kind("dealt"), timeout=60)
            )
            assert dealt["number"] == 2
            end_seq = ends[0]["seq"]
            return a.arrivals[dealt["seq"]] - a.arrivals[end_seq]
        finally:
            await played.close()

    pause = asyncio.run(scenario())
    assert 0.9 <= pause < 3.0, pause


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
