"""The play tests' clients against a real server: uvicorn in a child process, real sockets.

Every other play test runs the app in process (``play_server``); this one plays the same
two-client match as ``test_play.test_two_players_two_clients`` over loopback TCP, so the
WebSocket and HTTP layers of uvicorn are exercised with the same client code and checks (run
all of them this way with ``BURRACO_TEST_SERVER=live``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from .harness import Server
from .oracle import check_match
from .test_play import assert_leak_check_catches_leaks, play_match


def test_two_players_two_clients_over_real_sockets(
    live_play_server: Server, tmp_path: Path
) -> None:
    played = asyncio.run(
        play_match(live_play_server, players=2, bots={}, late_sitter=True, smazzate=2)
    )
    end = played.end
    assert end["ended"] == "complete"
    oracle = check_match(live_play_server, played, tmp_path)
    assert len(oracle.record.hands) == 2
    assert end["mp"][0] == -end["mp"][1] and sum(end["vp"]) == 20
    assert_leak_check_catches_leaks(oracle, played)
