"""The chess clocks over the wire (RULES.md 4.3, T5-T14), with short timings.

A two-player round of two smazzate, 120 s (60 s a player) and a 5 s turn timer. Both play the
first smazzata; in the second, B stops playing: the server plays his turns when the timer runs
out (T13: draw, then the T13 discard, ``auto: true``); at the third time the round ends by
timeout (T14) with the technical score. Along the way every clock in the events is checked:
only the bank of the player on turn runs, +2 s at each turn start, and nothing runs between the
smazzate (T7).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from burraco.engine.autoplay import auto_play_action
from burraco.engine.vp import TECHNICAL_MP, TECHNICAL_VP, vp_table

from .harness import Server
from .oracle import check_clocks, check_match
from .support import Played, is_kind, open_table

ROUND_SECONDS = 120
HAND_SECONDS = 5
BETWEEN = 1.0


def test_turn_timer_auto_play_and_timeout(play_server: Server, tmp_path: Path) -> None:
    async def scenario() -> Played:
        played = await open_table(
            play_server,
            players=2,
            bots={},
            smazzate=2,
            round_seconds=ROUND_SECONDS,
            hand_seconds=HAND_SECONDS,
            between_smazzate=BETWEEN,
        )
        a, b = played.seats[0], played.seats[1]

        async def b_stops_after_the_first_smazzata() -> None:
            await b.until(is_kind("smazzata_end"), play=True)
            await b.follow()

        try:
            await asyncio.wait_for(
                asyncio.gather(
                    played.spectator.follow(), a.play(), b_stops_after_the_first_smazzata()
                ),
                120,
            )
        finally:
            await played.close()
        played.match_end = played.spectator.match_end
        return played

    played = asyncio.run(scenario())
    oracle = check_match(play_server, played, tmp_path)
    events = [oracle.events[seq] for seq in sorted(oracle.events)]
    kinds = [m["kind"] for m in events]

    # T5-T12: every clock of the match, and T7 between the smazzate in so many words.
    assert check_clocks(oracle, round_seconds=ROUND_SECONDS, hand_seconds=HAND_SECONDS) > 50
    end_of_first = kinds.index("smazzata_end")
    last_clock = events[end_of_first - 1]["clock"]
    second_deal = events[kinds.index("dealt", end_of_first)]
    assert last_clock["running"] is None and last_clock["turn_left"] is None
    assert second_deal["clock"]["server_time"] - last_clock["server_time"] >= BETWEEN - 0.05
    first = second_deal["first"]
    idle = 1 - first
    assert second_deal["clock"]["banks"][idle] == last_clock["banks"][idle]
    gained = second_deal["clock"]["banks"][first] - last_clock["banks"][first]
    # The +2 s of the turn start (none once 120 s were credited), less the deal's own moment.
    assert any(-0.1 < gained - credit <= 0.0015 for credit in (0, 2)), gained

    # T13: B's turns in the second smazzata are played by the server after 5 s: draw, then the
    # discard T13 prescribes; the third time the timer runs out, the round ends (T14).
    second = events[kinds.index("dealt", end_of_first) :]
    moves = [m for m in second if m["kind"] == "action" and m["seat"] == 1]
    assert [m["action"].split()[1] for m in moves] == ["draw", "discard", "draw", "discard"]
    assert all(m["auto"] for m in moves)
    assert not any(m["auto"] for m in events if m["kind"] == "action" and m["seat"] == 0)
    for move in moves:
        before = oracle.states[move["seq"] - 1]
        assert before is not None
        assert str(auto_play_action(before)) == move["action"]
        if move["action"].split()[1] == "draw":
            started = oracle.events[move["seq"] - 1]["clock"]
            assert started["running"] == 1 and started["turn_left"] > HAND_SECONDS - 1
            waited = move["clock"]["server_time"] - started["server_time"]
            assert HAND_SECONDS - 0.1 <= waited <= HAND_SECONDS + 2, waited

    # T14: the technical score over the completed smazzata; B, who ran out, loses.
    timeout, end = events[-2], events[-1]
    assert timeout["kind"] == "timeout" and timeout["seat"] == 1 and timeout["line"] == 1
    assert end["kind"] == "match_end" and end["ended"] == "timeout" and end["technical"]
    totals = events[end_of_first]["totals"]
    assert end["totals"] == totals and end["winner"] == 0
    lead = totals[0] - totals[1]
    assert end["mp"] == [max(TECHNICAL_MP, lead), -max(TECHNICAL_MP, lead)]
    vp = max(TECHNICAL_VP, vp_table("VP-3").winner_vp(max(lead, 0)))
    assert end["vp"] == [vp, 20 - vp]
    assert oracle.record.hands[-1].timeout == 1, "the record says who ran out of time"

    # The finished-match list gives the same technical score and the smazzate scored: the
    # first one (the second, cut by the timeout, does not count).
    with play_server.client() as client:
        listed = [m for m in client.get("/api/matches").json() if m["table"] == played.table]
    assert [(m["ended"], m["winner"], m["mp"], m["vp"], m["smazzate"]) for m in listed] == [
        ("timeout", 0, end["mp"], end["vp"], 1)
    ]
