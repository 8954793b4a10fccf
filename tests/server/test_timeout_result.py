"""Issue 15, defect 6: a match lost by timeout before any smazzata was finished showed "0-0"
in the lobby and no winner's margin. RULES.md T13-T14: the turn timer runs out three times in a
row for the player who stopped playing, so his line has run out of time; the completed smazzate
total 0-0, and the technical score (+355 MP / 14 VP to the other line) is the result. It must
be the same in ``match_end`` and in ``GET /api/matches`` (what the lobby lists), and the
automatic plays never throw away a wild while a natural card can go (T13)."""

from __future__ import annotations

import asyncio

from burraco.engine.cards import Card
from burraco.engine.vp import TECHNICAL_MP, TECHNICAL_VP

from .harness import Server
from .support import Api, Message, is_match_end, open_table

HAND_SECONDS = 5  # the shortest turn timer a table takes


def test_T14_timeout_before_any_finished_smazzata_records_the_technical_score(
    play_server: Server,
) -> None:
    async def scenario() -> tuple[str, Message, list[Message], list[dict[str, object]]]:
        played = await open_table(
            play_server,
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
            end, *_ = await asyncio.wait_for(
                asyncio.gather(played.spectator.until(watch, timeout=90), a.play(), b.follow()),
                90,
            )
        finally:
            await played.close()
        async with Api(play_server) as api:
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
