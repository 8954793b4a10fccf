"""Presence news is debounced (issue 19, Low: "join/leave toggling sends 200 away/back events in
10 s to the opponent"): a seated player's departure is told to the table only once it has lasted
``presence_quiet_seconds``, a return at once when the departure was told. The away deadline still
runs from the real departure, so the debounce buys nobody time.

The app's clock is a fake one (server/clock.py): the tests move it through the quiet times
instead of waiting for them, and the toggling takes the same server time on any machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco.server.clock import FakeClock

from .harness import Peer
from .inprocess import AppServer, app_server, caught_up, wait_until

QUIET = 0.5
GRACE = 30.0
TOGGLE = 0.05
"""Server seconds one leave-and-come-back takes in the toggling test (100 of them: 5 s)."""


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
    with app_server(tmp_path, clock=FakeClock(), **settings) as running:
        yield running


def _clock(server: AppServer) -> FakeClock:
    assert isinstance(server.clock, FakeClock)
    return server.clock


def _left(server: AppServer, table: str) -> None:
    """Wait until seat 0's departure has reached the table (its quiet time runs from there)."""
    actor = server.hub.tables[table]
    wait_until(lambda: actor.seats[0].away_since is not None, "the departure")


def _told(server: AppServer, table: str, seconds: float) -> None:
    """Move the clock ``seconds`` on and wait until the table has done what came due."""
    _clock(server).advance(seconds)
    server.call(caught_up(server.hub.tables[table]))


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
        clock = _clock(server)
        started = clock.monotonic()
        for _ in range(100):  # leave and come back, 100 times, away TOGGLE server seconds each
            toggler.send({"type": "leave", "table": table})
            _left(server, table)
            clock.advance(TOGGLE)
            toggler.join(table)
        toggler.send({"type": "leave", "table": table})
        toggling = clock.monotonic() - started
        _left(server, table)
        _told(server, table, 2 * QUIET + 0.5)
        notices = _notices(opponent, 0.3)
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
            _told(server, table, QUIET + 0.3)
            assert _notices(opponent, 0.3) == []
        _left(server, table)
        left = server.hub.clock.now()
        _told(server, table, QUIET - 0.01)
        assert _notices(opponent, 0.2) == []  # not before the quiet time
        _told(server, table, 0.01)
        away, before = opponent.until(lambda m: m.get("kind") == "away")
        assert [m for m in before if m.get("kind") in ("away", "back")] == []
        assert _notices(opponent, 0.3) == []  # one notice
        assert away["kind"] == "away" and away["seat"] == 0
        # The deadline runs from the departure, not from the notice (told a quiet time later).
        assert abs(away["deadline"] - (left + GRACE)) < 0.25, away["deadline"] - left
        with server.peer(a) as player:
            player.join(table)
            (back,) = _notices(opponent, 0.3)  # a return after a told departure: at once
            assert back["kind"] == "back" and back["seat"] == 0
