"""Connections that come and go: resending missed events, snapshots, absent players.

Everything a reconnecting client receives goes through the leak check too (``oracle.py``), which
also asserts that each connection's events have no gap and no duplicate.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from burraco.server.table import EVENT_MEMORY

from .harness import Server
from .oracle import check_match
from .support import Message, Played, TableClient, open_table, wait_for

SCENARIO_SECONDS = 120.0


def own_discard(seat: int) -> Callable[[Message], bool]:
    """A predicate: the event of ``seat``'s discard (its turn is over)."""
    return lambda m: (
        m.get("kind") == "action" and m["seat"] == seat and m["action"].split()[1] == "discard"
    )


async def run(
    played: Played, script: Callable[[], Awaitable[None]], *, players: list[TableClient]
) -> None:
    """The spectator follows and ``players`` play to the end while ``script`` runs."""
    tasks = [asyncio.create_task(played.spectator.follow(timeout=SCENARIO_SECONDS))]
    tasks += [asyncio.create_task(p.play(timeout=SCENARIO_SECONDS)) for p in players]
    try:
        await asyncio.wait_for(script(), SCENARIO_SECONDS)
        await asyncio.wait_for(asyncio.gather(*tasks), SCENARIO_SECONDS)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await played.close()


def away_told(played: Played, after: int, seat: int = 0) -> bool:
    """The spectator was told that ``seat`` is away, after event ``after``."""
    return any(
        m["kind"] == "away" and m["seat"] == seat and m["seq"] > after
        for m in played.spectator.events()
    )


def spectator_kinds(played: Played, first: int, last: int) -> list[str]:
    events = {m["seq"]: m["kind"] for m in played.spectator.events()}
    return [events[seq] for seq in range(first, last + 1)]


def test_reconnecting_gets_what_it_missed(play_server: Server, tmp_path: Path) -> None:
    """A reconnects four times: with ``last_seq`` after missing a turn of B (exactly the missed
    events, then ``synced``); like a page reload, without ``last_seq`` (a snapshot with the same
    content as before); with a ``last_seq`` too old for the server's memory (a snapshot); and
    with a ``last_seq`` from the future (``stale``, then a snapshot)."""
    resent: list[Message] = []
    reload: dict[str, Any] = {}

    async def scenario() -> Played:
        played = await open_table(play_server, players=2, bots={}, smazzate=1)
        a, b = played.seats[0], played.seats[1]
        spectator = played.spectator

        async def script() -> None:
            # 1. A plays a few turns, then drops right after a discard; B plays its turn.
            await a.until(lambda m: a.seq >= 20 and own_discard(0)(m), play=True)
            last = a.seq
            await a.close()
            await wait_for(lambda: away_told(played, last))  # a departure, not a blip
            await wait_for(lambda: spectator.seq > last + 2 and spectator.view is not None)
            await wait_for(lambda: spectator.view is not None and spectator.view["current"] == 0)
            await a.connect(last_seq=last)
            synced = await a.until(lambda m: m["type"] in ("synced", "snapshot"))
            assert synced["type"] == "synced", synced
            resent.extend(m for _, m in a.sessions[-1].received if m["type"] == "event")
            await wait_for(lambda: spectator.seq >= synced["seq"])
            assert [m["seq"] for m in resent] == list(range(last + 1, synced["seq"] + 1))
            assert [m["kind"] for m in resent] == spectator_kinds(played, last + 1, synced["seq"])
            # The server's notice that A left, and B's action, race (A's socket closing against
            # B's answer to A's discard): either may come first, both must be resent.
            notices = [m["kind"] for m in resent if m["kind"] in ("away", "back")]
            assert notices == ["away", "back"] and resent[0]["seq"] == last + 1
            assert all(m["seat"] == 0 for m in resent if m["kind"] in ("away", "back"))
            assert resent[-1]["kind"] == "back" and resent[-1]["seat"] == 0
            assert any(m["kind"] == "action" and m["seat"] == 1 for m in resent)
            assert a.legal is not None, "synced brings the legal actions of the seat to act"

            # 2. A plays its turn and B holds: like a page reload, A comes back without last_seq.
            b.hold = True
            await a.until(own_discard(0), play=True)
            if a.view is not None and a.view["phase"] == "over":
                return
            before: dict[str, Any] = {"view": a.view, "legal": a.legal, "you": a.you}
            before_seq = a.seq
            await a.close()
            await a.connect()
            snapshot = await a.until(lambda m: m["type"] == "snapshot")
            reload.update(before=before, snapshot=snapshot)
            assert snapshot["view"] == before["view"] and snapshot["legal"] == before["legal"]
            assert snapshot["you"] == 0 and snapshot["legal"] is None
            await wait_for(lambda: spectator.seq >= snapshot["seq"])
            between = spectator_kinds(played, before_seq + 1, snapshot["seq"])
            # A quick reload is no news to the others (the departure is told after the quiet
            # time); a slow one is told as away then back (and a substitute may be named after
            # a second away: it cannot play B's turn).
            assert set(between) <= {"away", "substitute", "back"}, between
            assert not between or (between[0], between[-1]) == ("away", "back"), between

            # 3. Too old: while A is away, more events than the server keeps (chat lines).
            last = a.seq
            await a.close()
            lines = EVENT_MEMORY + 5
            for n in range(lines):
                await spectator.chat(f"line {n}")
            await wait_for(lambda: spectator.seq >= last + lines)
            await a.connect(last_seq=last)
            snapshot = await a.until(lambda m: m["type"] in ("synced", "snapshot"))
            assert snapshot["type"] == "snapshot" and snapshot["seq"] >= last + lines + 1
            assert snapshot["view"] == before["view"]
            assert [m["text"] for m in snapshot["chat"]][-1] == f"line {lines - 1}"

            # 4. From the future: an error says so, and a snapshot follows.
            await a.close()
            await a.connect(last_seq=a.seq + 1000)
            error = await a.until(lambda m: m["type"] == "error", errors=True)
            assert error["code"] == "stale"
            snapshot = await a.until(lambda m: m["type"] == "snapshot")
            assert snapshot["view"] == before["view"]

            # Then both play to the end.
            b.hold = False
            await a.play(timeout=SCENARIO_SECONDS)

        await run(played, script, players=[b])
        return played

    played = asyncio.run(scenario())
    check_match(play_server, played, tmp_path)
    assert len(played.seats[0].sessions) == 5
    assert reload, "the smazzata ended before the page reload"


def test_absent_player_is_replaced_then_comes_back(play_server: Server, tmp_path: Path) -> None:
    """With a disconnect grace of 1 s: A drops; the others see ``away`` with a deadline, then
    ``substitute``, and a bot plays A's seat (``auto: true``); A reconnects, gets the events he
    missed (``back`` last), and plays his seat again."""

    async def scenario() -> Played:
        played = await open_table(play_server, players=2, bots={}, smazzate=1)
        a, b = played.seats[0], played.seats[1]
        spectator = played.spectator

        def substitute_moves() -> list[Message]:
            events = spectator.events()
            start = next((i for i, m in enumerate(events) if m["kind"] == "substitute"), None)
            if start is None:
                return []
            return [m for m in events[start:] if m["kind"] == "action" and m["seat"] == 0]

        async def script() -> None:
            await a.until(lambda m: a.seq >= 12, play=True)
            last = a.seq
            await a.close()
            await wait_for(lambda: len(substitute_moves()) >= 3)
            await a.connect(last_seq=last)
            answer = await a.until(lambda m: m["type"] in ("synced", "snapshot"))
            if answer["type"] == "synced":
                resent = [m for _, m in a.sessions[-1].received if m["type"] == "event"]
                # The notice that A left races B's answer to A's last move (A's socket closing
                # against B's action): either may come first, both must be resent, in order.
                assert [m["seq"] for m in resent] == list(range(last + 1, last + 1 + len(resent)))
                notices = [m["kind"] for m in resent if m["kind"] in ("away", "back")]
                assert notices == ["away", "back"] and resent[-1]["kind"] == "back"
            await a.play(timeout=SCENARIO_SECONDS)

        await run(played, script, players=[b])
        return played

    played = asyncio.run(scenario())
    check_match(play_server, played, tmp_path)
    arrivals = played.spectator.arrivals
    events = played.spectator.events()
    kinds = [m["kind"] for m in events]
    away, substitute, back = (kinds.index(k) for k in ("away", "substitute", "back"))
    assert away < substitute < back
    assert events[away]["seat"] == events[substitute]["seat"] == events[back]["seat"] == 0
    # The deadline is the grace after the player left (told after the quiet time of 0.2 s),
    # and the bot came no sooner.
    deadline = events[away]["deadline"]
    assert 0 < deadline - arrivals[events[away]["seq"]] <= 1.01 - 0.2
    assert arrivals[events[substitute]["seq"]] >= deadline - 0.05
    assert events[substitute]["seats"][0]["substitute"] is not None
    assert events[back]["seats"][0]["substitute"] is None
    moves = [
        (i, m["auto"]) for i, m in enumerate(events) if m["kind"] == "action" and m["seat"] == 0
    ]
    assert not any(away < i < substitute for i, _ in moves), "nobody plays during the grace"
    assert all(auto for i, auto in moves if substitute < i < back)
    assert sum(1 for i, _ in moves if substitute < i < back) >= 3
    assert not any(auto for i, auto in moves if i < away or i > back)
    assert any(i > back for i, _ in moves), "A played his seat again"
    # The other player saw it all too.
    b_kinds = [m["kind"] for m in played.seats[1].events()]
    assert {"away", "substitute", "back"} <= set(b_kinds)
