"""Whole three-player matches (RULES.md 3.5) on the real server over real WebSockets.

Each match is followed by a spectator, replayed from its record and leak-checked
(``oracle.check_match``): no seat ever receives another seat's hidden cards.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from .harness import Server
from .oracle import check_match
from .test_play import play_match


def test_three_people_three_clients_to_a_short_target(play_server: Server, tmp_path: Path) -> None:
    """Three people, each on his own until a pozzetto is taken (R 3.5), to a short target."""
    played = asyncio.run(play_match(play_server, players=3, bots={}, late_sitter=True, target=100))
    end = played.end
    assert end["ended"] == "complete" and max(end["totals"]) >= 100
    assert len(end["totals"]) == 3
    oracle = check_match(play_server, played, tmp_path)
    seats = {m["seat"] for m in oracle.events.values() if m["kind"] == "action"}
    assert seats == {0, 1, 2}


def test_a_person_with_two_server_bots_to_a_short_target(
    play_server: Server, tmp_path: Path
) -> None:
    """A mixed three-player table: one client and two server bots of different levels."""
    played = asyncio.run(
        play_match(
            play_server,
            players=3,
            bots={1: "heuristic", 2: "greedy"},
            late_sitter=False,
            target=100,
        )
    )
    end = played.end
    assert end["ended"] == "complete" and max(end["totals"]) >= 100
    oracle = check_match(play_server, played, tmp_path)
    seats = {m["seat"] for m in oracle.events.values() if m["kind"] == "action"}
    assert seats == {0, 1, 2}
    # The record names the bots as a person reads them, numbered by seat so that two bots at a
    # 3-seat table are told apart (issue 15: "Bot Esperto" twice at one table).
    with play_server.client(timeout=30) as http:
        record = http.get(f"/api/tables/{played.table}/record").text
    assert 'players = ["' in record and '"Bot Expert 2", "Bot Easy 3"]' in record, record[:400]
