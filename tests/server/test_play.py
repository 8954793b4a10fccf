"""Complete matches on the real server, played by bot clients over real WebSockets.

Each match is followed by a spectator from before the first deal; when it ends, its record is
downloaded and replayed with ``burraco replay`` to the totals announced in ``match_end``, and the
leak check (``oracle.py``) goes through every message every connection received.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

from burraco.engine.events import Drew, PozzettoTaken
from burraco.engine.views import SPECTATOR

from .harness import Server
from .oracle import Oracle, check_clocks, check_match
from .support import Api, Message, Played, TableClient, open_table, wait_for

MATCH_SECONDS = 120.0


async def play_match(
    server: Server,
    *,
    players: int,
    bots: dict[int, str],
    late_sitter: bool,
    **table: Any,
) -> Played:
    """Open a table (``open_table``) and let everyone play to the end of the match."""
    played = await open_table(server, players=players, bots=bots, late_sitter=late_sitter, **table)
    clients = played.clients
    try:
        ends = await asyncio.wait_for(
            asyncio.gather(played.spectator.follow(), *(c.play() for c in clients)),
            MATCH_SECONDS,
        )
    finally:
        await played.close()
    assert all(end == ends[0] for end in ends)
    for seat, client in played.seats.items():
        assert client.you == seat
    played.match_end = ends[0]
    return played


def test_two_players_two_clients(play_server: Server, tmp_path: Path) -> None:
    """Two people over WebSockets play a round of two smazzate; the second sits down while
    already following the table."""
    played = asyncio.run(play_match(play_server, players=2, bots={}, late_sitter=True, smazzate=2))
    end = played.end
    assert end["ended"] == "complete"
    oracle = check_match(play_server, played, tmp_path)
    assert len(oracle.record.hands) == 2
    assert end["mp"][0] == -end["mp"][1] and sum(end["vp"]) == 20
    if end["totals"][0] != end["totals"][1]:
        assert end["winner"] == (0 if end["totals"][0] > end["totals"][1] else 1)
    assert_leak_check_catches_leaks(oracle, played)


def test_two_players_client_against_server_bot(play_server: Server, tmp_path: Path) -> None:
    """One person against a server bot, to a target score."""
    played = asyncio.run(
        play_match(play_server, players=2, bots={1: "greedy"}, late_sitter=False, target=100)
    )
    end = played.end
    oracle = check_match(play_server, played, tmp_path)
    assert end["ended"] == "complete" and max(end["totals"]) >= 100
    assert end["winner"] == end["totals"].index(max(end["totals"]))
    seats = {m["seat"] for m in oracle.events.values() if m["kind"] == "action"}
    assert seats == {0, 1}
    assert not any(m["auto"] for m in oracle.events.values() if m["kind"] == "action")


def test_four_players_four_clients(play_server: Server, tmp_path: Path) -> None:
    """Four people in two lines, with a chess clock (line banks shared by partners)."""
    played = asyncio.run(
        play_match(
            play_server,
            players=4,
            bots={},
            late_sitter=True,
            smazzate=1,
            round_seconds=1200,
            hand_seconds=120,
        )
    )
    assert played.end["ended"] == "complete"
    oracle = check_match(play_server, played, tmp_path)
    assert check_clocks(oracle, round_seconds=1200, hand_seconds=120) > 100
    seats = {m["seat"] for m in oracle.events.values() if m["kind"] == "action"}
    assert seats == {0, 1, 2, 3}


def test_four_players_client_and_three_server_bots(play_server: Server, tmp_path: Path) -> None:
    """One person with three server bots; a second spectator comes in mid-match (snapshot)."""

    async def scenario() -> tuple[Played, TableClient]:
        played = await open_table(
            play_server, players=4, bots={1: "random", 2: "heuristic", 3: "greedy"}, smazzate=1
        )
        async with Api(play_server) as api:
            late = TableClient(play_server, await api.guest(), played.table)

        async def late_comer() -> Message:
            await wait_for(lambda: played.spectator.seq >= 40)
            await late.connect()
            return await late.follow()

        try:
            ends = await asyncio.wait_for(
                asyncio.gather(played.spectator.follow(), played.seats[0].play(), late_comer()),
                MATCH_SECONDS,
            )
        finally:
            await played.close()
            await late.close()
        assert all(end == ends[0] for end in ends)
        played.match_end = ends[0]
        return played, late

    played, late = asyncio.run(scenario())
    assert played.end["ended"] == "complete"
    oracle = check_match(play_server, played, tmp_path)
    assert oracle.check_client(late) > 0
    snapshot = late.sessions[0].received[1][1]
    assert snapshot["type"] == "snapshot" and snapshot["seq"] >= 40 and snapshot["you"] is None
    assert snapshot["view"]["hand"] == [] and snapshot["legal"] is None
    seats = {m["seat"] for m in oracle.events.values() if m["kind"] == "action"}
    assert seats == {0, 1, 2, 3}


# ---------------------------------------------------------------- the leak check itself is sharp


def assert_leak_check_catches_leaks(oracle: Oracle, played: Played) -> None:
    """Plant leaks of each kind in copies of what was really received; the check must fail."""
    player = next(c for c in played.clients if c.you == 0)
    actions = [
        (index, i, message)
        for index, session in enumerate(player.sessions)
        for i, (_, message) in enumerate(session.received)
        if message.get("kind") == "action"
    ]
    other = 1
    planted = 0

    def refused(index: int, i: int, change: dict[str, Any], *, spectator: bool = False) -> None:
        nonlocal planted
        client = played.spectator if spectator else player
        sessions = copy.deepcopy(client.sessions)
        seat, message = sessions[index].received[i]
        sessions[index].received[i] = (seat, message | change)
        with pytest.raises(AssertionError):
            oracle.check_sessions(sessions)
        planted += 1

    def unseen_of_other(seq: int) -> set[str]:
        state = oracle.states[seq]
        assert state is not None
        return {str(c) for c in state.view(other).hand_cards()} - oracle.visible(state, 0)

    # The other seat's view instead of one's own; the other hand in a field of its own (at the
    # action where most of it is out of sight: the scan knows cards by kind, not by copy).
    index, i, message = max(actions, key=lambda a: len(unseen_of_other(a[2]["seq"])))
    assert len(unseen_of_other(message["seq"])) >= 3
    state = oracle.states[message["seq"]]
    assert state is not None
    refused(index, i, {"view": state.view(other).to_json()})
    hand = [str(c) for c in state.view(other).hand_cards()]
    refused(index, i, {"hands": {str(other): hand}})
    refused(index, i, {"legal": [f"{other} draw"]})  # the other seat's turn, to this seat
    # A card drawn by the other seat, named to this one.
    for index, i, message in actions:
        events = oracle.engine_events[message["seq"]]
        drew = [e for e in events if isinstance(e, Drew) and e.seat == other]
        if drew:
            shown = [
                e | {"card": str(drew[0].card)} if e["e"] == "drew" else e
                for e in message["events"]
            ]
            refused(index, i, {"events": shown})
            break
    # A pozzetto's cards shown to the wrong seat (or con scarto to its taker before his turn).
    for index, i, message in actions:
        events = oracle.engine_events[message["seq"]]
        if any(isinstance(e, PozzettoTaken) for e in events):
            taken = next(e for e in events if isinstance(e, PozzettoTaken))
            assert taken.cards is not None
            shown = [
                e | {"cards": [str(c) for c in taken.cards]} if e["e"] == "pozzetto" else e
                for e in message["events"]
            ]
            if shown != message["events"]:
                refused(index, i, {"events": shown})
            break
    # A spectator shown a hand, or the stock's top card.
    spectated = [
        (index, i, m)
        for index, session in enumerate(played.spectator.sessions)
        for i, (_, m) in enumerate(session.received)
        if m.get("kind") == "action"
    ]
    index, i, message = spectated[0]
    state = oracle.states[message["seq"]]
    assert state is not None
    view = state.view(SPECTATOR).to_json()
    refused(index, i, {"view": view | {"hand": hand}}, spectator=True)
    unseen = [c for c in map(str, state.stock) if c not in oracle.visible(state, None)]
    refused(index, i, {"top": unseen[0]}, spectator=True)
    # An event that skips a number, or arrives twice.
    refused(index, i, {"seq": message["seq"] + 1}, spectator=True)
    assert planted >= 7
