"""A table's options are checked by ``Rules`` and the server's match limits before a table
exists (issue 19, M3 and M4): a ``null``, a 64-bit overflow or a match length past the body's
limits given through ``options`` is a 422 ``bad_rules`` that creates nothing, and options at the
edges of their documented ranges play to a stored, replayable record."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from burraco.engine.record import read_record, replay

from .inprocess import running_app

REFUSED: list[dict[str, Any]] = [
    {"options": {"jokers": None}},
    {"options": {"hand_size": None}},
    {"options": {"joker_value": None}},
    {"options": {"stall_limit": None}},
    {"options": {"pozzetto_sizes": None}},
    {"options": {"lock_identical_copy": None}},
    {"options": {"joker_value": 2**63}},
    {"options": {"bonus_clean": 2**62}},
    {"options": {"joker_value": -1}},
    {"options": {"burraco_min_length": 15}},
    {"options": {"smazzate": 1_000_000}, "smazzate": None},
    {"options": {"smazzate": 21}, "smazzate": None},
    {"options": {"target_score": 2**62}, "smazzate": None},
    {"options": {"target_score": 99}, "smazzate": None},
    {"options": {"target_score": 10006}, "smazzate": None},
    {"options": {"players": 4}},  # the table's players decide (it played 2, kept "4")
    # The length given twice, two ways: the body's played and the settings showed both.
    {"options": {"smazzate": 20}},
    {"options": {"target_score": 2005}, "smazzate": None, "target": 1005},
]


def test_bad_options_are_refused_and_create_nothing(tmp_path: Path) -> None:
    async def scenario() -> list[tuple[int, str, str]]:
        async with running_app(tmp_path) as app:
            user = await app.guest()
            answers = []
            for body in REFUSED:
                response = await app.http.post(
                    "/api/tables",
                    json={"players": 2, "smazzate": 1, "seat": 0} | body,
                    headers=user,
                )
                data = response.json()
                assert "error" in data, (body, response.status_code, data)
                answers.append((response.status_code, data["error"], data["message"]))
            listed = (await app.http.get("/api/tables")).json()
            assert listed == [], "no table was created"
            return answers

    for body, (status, code, message) in zip(REFUSED, asyncio.run(scenario()), strict=True):
        assert (status, code) == (422, "bad_rules"), (body, message)
        (name,) = body["options"]
        assert name in message or "table" in message, (body, message)


@pytest.mark.parametrize(
    "options",
    [
        {"joker_value": 1000, "two_value": 1000, "bonus_clean": 10_000, "closing_bonus": 10_000},
        {"burraco_min_length": 3, "stall_limit": 1, "stock_end_threshold": 0},
        {"jokers": 0, "hand_size": 1, "pozzetto_sizes": [4, 4], "no_pozzetto_penalty": 10_000},
    ],
)
def test_options_at_the_edges_play_to_their_record(tmp_path: Path, options: dict[str, Any]) -> None:
    async def scenario() -> str:
        async with running_app(tmp_path) as app:
            user = await app.guest()
            response = await app.http.post(
                "/api/tables",
                json={
                    "players": 2,
                    "smazzate": 1,
                    "seat": None,
                    "bots": {"0": "greedy", "1": "random"},
                    "between_smazzate": 0,
                    "options": options,
                },
                headers=user,
            )
            assert response.status_code == 201, response.text
            table = response.json()["id"]

            async def stored() -> bool:
                return await app.hub.store.match_record(table, 1) is not None

            await app.until(stored)
            record = await app.http.get(f"/api/tables/{table}/record")
            assert record.status_code == 200
            return record.text

    record = read_record(asyncio.run(scenario()))
    for name, value in options.items():
        assert getattr(record.ruleset(), name) == (
            tuple(value) if isinstance(value, list) else value
        )
    assert replay(record).error is None
