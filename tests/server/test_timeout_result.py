"""Issue 15, defect 6: a match lost by timeout before any smazzata was finished showed "0-0"
in the lobby and no winner's margin. RULES.md T13-T14: the turn timer runs out three times in a
row for the player who stopped playing, so his line has run out of time; the completed smazzate
total 0-0, and the technical score (+355 MP / 14 VP to the other line) is the result. It must
be the same in ``match_end`` and in ``GET /api/matches`` (what the lobby lists), and the
automatic plays never throw away a wild while a natural card can go (T13).

The server's clock is a fake one (``timed_server``): the test moves it through each of B's
turn timers instead of waiting 3 x 5 s."""

from __future__ import annotations

import asyncio

from burraco.engine.cards import Card
from burraco.engine.vp import TECHNICAL_MP, TECHNICAL_VP
from burraco.server.clock import FakeClock

from .inprocess import AppServer
from .support import Api, Message, is_match_end, open_table

HAND_SECONDS = 5  # the shortest turn timer a table takes


async def run_out_the_turn_timers(server: AppServer, table: str, seat: int) -> int:
    """Each time ``seat`` is on turn with its turn timer set, move the fake clock through the
    timer (the table then plays his turn: T13), until the match is over; how many times.

    Only a timer that waits for the clock counts: while the table plays the turn for him, each
    automatic action arms the clock again with the turn's deadline already past (a timer that
    runs at once); counting such a one as a new turn timer made the test flaky on a busy
    machine, where the poll could fall between two automatic actions."""
    clock = server.clock
    assert isinstance(clock, FakeClock)
    actor = server.hub.tables[table]

    async def timer_on_turn() -> object:
        """In the app's loop (the table's state and timers as one): ``seat``'s turn timer."""
        state = actor.state
        if actor.status != "playing" or state is None or state.is_over or state.current != seat:
            return None
        return actor._timers.get("clock")

    passed: list[object] = []
    async with asyncio.timeout(90):
        while actor.status == "playing":
            timer = await server.acall(timer_on_turn())
            if clock.waiting(timer) and all(timer is not other for other in passed):
                passed.append(timer)
                clock.advance(HAND_SECONDS)
            await asyncio.sleep(0.005)
    return len(passed)


def test_T14_timeout_before_any_finished_smazzata_records_the_technical_score(
    timed_server: AppServer,
) -> None:
    async def scenario() -> tuple[str, Message, list[Message], list[dict[str, object]]]:
        played = await open_table(
            timed_server,
            players=2,
            bots={},
            smazzate=2,
            round_seconds=600,
            hand_seconds=HAND_SECONDS,
        )
        a, b = played.seats[0], played.seats[1]
        seen: list[Message] = []

        def watch(message: Message) -> bool:
            seen.append(message)
            return is_match_end(message)

        try:
            end, *_, timers = await asyncio.wait_for(
                asyncio.gather(
                    played.spectator.until(watch, timeout=90),
                    a.play(),
                    b.follow(),
                    run_out_the_turn_timers(timed_server, played.table, 1),
                ),
                90,
            )
        finally:
            await played.close()
        assert timers == 3, "B's turn timer ran out three times (T13, then T14)"
        async with Api(timed_server) as api:
            response = await api.http.get("/api/matches")
            assert response.status_code == 200, response.text
            listed = [m for m in response.json() if m["table"] == played.table]
        return played.table, end, seen, listed

    _, end, messages, listed = asyncio.run(scenario())
    assert end["ended"] == "timeout" and end["technical"] and end["winner"] == 0
    assert end["totals"] == [0, 0], "no smazzata was finished"
    assert end["mp"] == [TECHNICAL_MP, -TECHNICAL_MP]
    assert end["vp"] == [TECHNICAL_VP, 20 - TECHNICAL_VP]

    # The lobby's list shows the same result as the final screen.
    assert len(listed) == 1, listed
    row = listed[0]
    assert row["ended"] == "timeout" and row["winner"] == 0
    assert row["mp"] == end["mp"] and row["vp"] == end["vp"]

    # T13: B's automatic discards keep the wilds while a natural card could go.
    discards = [
        m["action"].split()[2]
        for m in messages
        if m.get("kind") == "action" and m["seat"] == 1 and m["action"].split()[1] == "discard"
    ]
    b_moves = [m for m in messages if m.get("kind") == "action" and m["seat"] == 1]
    assert b_moves and all(m["auto"] for m in b_moves)
    assert not any(Card.parse(c).is_wild_kind for c in discards), discards
