"""Presence news is debounced (issue 19, Low: "join/leave toggling sends 200 away/back events in
10 s to the opponent"): a seated player's departure is told to the table only once it has lasted
``presence_quiet_seconds``, a return at once when the departure was told. The away deadline still
runs from the real departure, so the debounce buys nobody time.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Peer
from .inprocess import AppServer, app_server

QUIET = 0.5
GRACE = 30.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    settings: dict[str, Any] = {
        "bot_delay": 0.0,
        "disconnect_grace": GRACE,
        "presence_quiet_seconds": QUIET,
        "joins_per_minute": 60_000.0,
        "joins_per_minute_per_account": 60_000.0,
        "messages_per_second": 10_000.0,
        "login_attempts_per_minute": 60_000.0,
    }
    with app_server(tmp_path, **settings) as running:
        yield running


def _table_in_play(server: AppServer) -> tuple[str, str, str]:
    """A 2-player table in play between two people; their tokens and its id."""
    a, _ = server.guest()
    b, _ = server.guest()
    with server.client(a) as http:
        made = http.post("/api/tables", json={"players": 2, "smazzate": 1, "seat": 0})
    assert made.status_code == 201, made.text
    table: str = made.json()["id"]
    with server.client(b) as http:
        sat = http.post(f"/api/tables/{table}/sit", json={"seat": 1})
    assert sat.status_code == 200 and sat.json()["status"] == "playing", sat.text
    return a, b, table


def _notices(peer: Peer, seconds: float) -> list[dict[str, Any]]:
    """The away/back events ``peer`` receives in ``seconds``."""
    return [
        m
        for m in peer.quiet(seconds)
        if m.get("type") == "event" and m.get("kind") in ("away", "back")
    ]


def test_join_leave_toggling_reaches_the_opponent_as_a_few_notices(server: AppServer) -> None:
    a, b, table = _table_in_play(server)
    with server.peer(a) as toggler, server.peer(b) as opponent:
        toggler.join(table)
        opponent.join(table)
        started = time.monotonic()
        for _ in range(100):  # leave and come back, 100 times, as fast as the socket goes
            toggler.send({"type": "leave", "table": table})
            toggler.join(table)
        toggler.send({"type": "leave", "table": table})
        toggling = time.monotonic() - started
        notices = _notices(opponent, 2 * QUIET + 0.5)
    # Each departure the table is told of lasted a quiet time: at most two notices per quiet
    # time of toggling, and the last one tells the final state (away). Before the debounce the
    # opponent got one notice per toggle: 201.
    assert len(notices) <= 2 * (toggling / QUIET + 1) + 1, (len(notices), toggling)
    assert notices and notices[-1]["kind"] == "away" and notices[-1]["seat"] == 0, notices
    kinds = [m["kind"] for m in notices]
    assert all(x != y for x, y in itertools.pairwise(kinds)), kinds  # they alternate


def test_a_quick_reload_is_no_news_and_a_real_departure_keeps_its_deadline(
    server: AppServer,
) -> None:
    a, b, table = _table_in_play(server)
    with server.peer(b) as opponent:
        opponent.join(table)
        with server.peer(a) as player:  # a page reload: the socket closes, another opens
            player.join(table)
        with server.peer(a) as player:
            player.join(table)
            assert _notices(opponent, QUIET + 0.3) == []
        left = time.time()
        (away,) = _notices(opponent, QUIET + 0.5)
        assert away["kind"] == "away" and away["seat"] == 0
        # The deadline runs from the departure, not from the notice (told a quiet time later).
        assert abs(away["deadline"] - (left + GRACE)) < 0.25, away["deadline"] - left
        with server.peer(a) as player:
            player.join(table)
            (back,) = _notices(opponent, 0.3)  # a return after a told departure: at once
            assert back["kind"] == "back" and back["seat"] == 0
