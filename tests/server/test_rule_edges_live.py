"""Issue 19's property test on the server: a table whose ruleset has every kind of parameter drawn
at an edge of its documented range (docs/rules.md "Ranges": the integers, the pozzetto sizes,
the switches) is either refused at creation with a 422 ``bad_rules`` that says why (only the
deal can refuse in-range values: too many cards for the deck) or plays through the server to its
end: a stored record that reads back with the ruleset asked for and replays exactly.

The engine has the same property without the server (tests/engine/test_rule_ranges.py); this one
adds what the server does on the way: options as JSON, the table's limits, bots, the finish and
the record's text.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.engine import Rules
from burraco.engine.record import read_record, replay
from burraco.engine.rules import POZZETTO_SIZE_RANGE, RANGES, parameter_names
from tests.depth import examples

from .inprocess import AppServer, app_server

MATCH_LENGTH = {"players", "target_score", "smazzate"}  # the table's own fields, bounded apart
INTEGERS = sorted(set(RANGES) - MATCH_LENGTH)
SWITCHES = sorted(n for n in parameter_names() if isinstance(getattr(Rules(), n), bool))
POZZETTI = ["pozzetto_sizes", "three_player_pozzetto_sizes", "three_player_late_pozzetto_sizes"]
DEAL_REFUSALS = ("leaves no playable stock", "pozzetti")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    limits = {"max_bot_tables_per_user": 100, "max_live_tables_per_user": 100}
    with app_server(tmp_path_factory.mktemp("edges"), bot_delay=0.0, **limits) as running:
        yield running


@pytest.fixture(scope="module")
def token(server: AppServer) -> str:
    value, _ = server.guest()
    return value


@st.composite
def edge_options(draw: st.DrawFn) -> dict[str, Any]:
    """Table options with some parameters of each kind at an edge of their range."""
    options: dict[str, Any] = {}
    for name in sorted(draw(st.sets(st.sampled_from(INTEGERS), min_size=1, max_size=8))):
        options[name] = draw(st.sampled_from(RANGES[name]))
    for name in sorted(draw(st.sets(st.sampled_from(POZZETTI), max_size=2))):
        low, high = POZZETTO_SIZE_RANGE
        options[name] = [draw(st.sampled_from((low, high))), draw(st.sampled_from((low, high)))]
    for name in sorted(draw(st.sets(st.sampled_from(SWITCHES), max_size=4))):
        options[name] = draw(st.booleans())
    return options


def _wait_record(server: AppServer, token: str, table: str) -> str:
    with server.client(token) as http:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            answer = http.get(f"/api/tables/{table}/record")
            if answer.status_code == 200:
                return answer.text
            assert answer.status_code == 404, answer.text  # not stored yet
            time.sleep(0.05)
    raise AssertionError(f"table {table} never stored its record")


@settings(
    max_examples=examples(30),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    preset=st.sampled_from(["italian", "classic", "reale", "internazionale"]),
    players=st.sampled_from([2, 3, 4]),
    options=edge_options(),
)
def test_edge_rulesets_play_through_the_server_to_their_record(
    server: AppServer, token: str, preset: str, players: int, options: dict[str, Any]
) -> None:
    body = {
        "players": players,
        "rules": preset,
        "smazzate": 1,
        "seat": None,
        "bots": {str(seat): "random" for seat in range(players)},
        "between_smazzate": 0,
        "options": options,
    }
    with server.client(token) as http:
        made = http.post("/api/tables", json=body)
    if made.status_code == 422:
        answer = made.json()
        assert answer["error"] == "bad_rules", answer
        assert any(reason in answer["message"] for reason in DEAL_REFUSALS), answer
        return
    assert made.status_code == 201, made.text
    record = read_record(_wait_record(server, token, made.json()["id"]))
    rules = record.ruleset()
    assert (rules.name, rules.players) == (preset, players)
    for name, value in options.items():
        assert getattr(rules, name) == (tuple(value) if isinstance(value, list) else value), name
    result = replay(record)
    assert result.error is None, result.error
    assert server.traceback_free(), server.log()
