"""Quick play on the server (issue 16): two waiting players are seated together at a started,
rated table and told on their WebSockets; bots fill for a player who allowed it once his wait is
over; pairs sit as partners; guests play casual only; bad requests change nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .inprocess import InProcess, running_app

Json = dict[str, Any]


async def register(app: InProcess, name: str) -> dict[str, str]:
    answer = await app.http.post("/api/register", json={"name": name, "password": "una password"})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def quick(app: InProcess, who: dict[str, str], status: int = 200, **body: Any) -> Json:
    answer = await app.http.post("/api/quickplay", json=body, headers=who)
    assert answer.status_code == status, answer.text
    result: Json = answer.json()
    return result


async def table(app: InProcess, table_id: str) -> Json:
    answer = await app.http.get(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


def test_two_waiting_players_are_seated_together_and_told(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            anna, bruno = await register(app, "Anna"), await register(app, "Bruno")
            # Anna's open WebSocket, as the /ws route holds it: a hub connection.
            user = await app.hub.store.user_by_name("Anna")
            assert user is not None
            socket = app.hub.connect(user)
            assert socket is not None
            first = await quick(app, anna, players=2, clock="10")
            assert first["status"] == "waiting" and first["queue"]["rated"] is True
            listed = (await app.http.get("/api/quickplay", headers=bruno)).json()
            assert listed["status"] == "idle" and listed["queues"][0]["waiting"] == 1
            second = await quick(app, bruno, players=2, clock="10")
            assert second["status"] == "seated"
            table_id = second["table"]
            # Anna is told on her WebSocket, and by GET /api/quickplay.
            texts = [socket.outbox.get_nowait() for _ in range(socket.outbox.qsize())]
            sent = [json.loads(text) for text in texts if text is not None]
            assert {"type": "quickplay", "status": "seated", "table": table_id} in sent
            mine = (await app.http.get("/api/quickplay", headers=anna)).json()
            assert mine["status"] == "seated" and mine["table"] == table_id
            app.hub.disconnect(socket)
            info = await table(app, table_id)
            assert info["status"] == "playing"
            assert sorted(s["name"] for s in info["seats"]) == ["Anna", "Bruno"]
            config = info["config"]
            assert config["rated"] is True and config["smazzate"] == 3
            assert config["round_seconds"] == 600 and config["absent"] == "forfeit"

    asyncio.run(scenario())


def test_bots_fill_after_the_wait_a_player_allowed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            carla = await register(app, "Carla")
            waiting = await quick(app, carla, players=4, bots_after=1)
            assert waiting["status"] == "waiting"

            async def seated() -> bool:
                got = (await app.http.get("/api/quickplay", headers=carla)).json()
                return bool(got["status"] == "seated")

            await app.until(seated, timeout=10)
            got = (await app.http.get("/api/quickplay", headers=carla)).json()
            info = await table(app, got["table"])
            assert info["seats"][0]["name"] == "Carla"
            assert [s["bot"] for s in info["seats"]][1:] == ["heuristic"] * 3
            assert info["status"] == "playing"

    asyncio.run(scenario())


class FailsOnce:
    """``hub.open_seated_table`` that fails on its first call (a store that is briefly away),
    then opens tables as before."""

    def __init__(self, app: InProcess) -> None:
        self.real = app.hub.open_seated_table
        self.calls = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> str:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the store is away")
        return await self.real(*args, **kwargs)


def test_a_table_that_cannot_be_opened_loses_nobody_from_the_queue(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure to open the table a group found used to drop its players from the queue
    without a word (their page went back to the form as if they had cancelled). Now they wait
    again in their places and the next tick tries again; a request that completed the group
    fails with the error and leaves its sender out of the queue, the others still wait."""

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            carla = await register(app, "Carla")
            opener = FailsOnce(app)
            app.hub.open_seated_table = opener  # type: ignore[method-assign]
            assert (await quick(app, carla, players=3, bots_after=1))["status"] == "waiting"

            async def seated() -> bool:
                got = (await app.http.get("/api/quickplay", headers=carla)).json()
                assert got["status"] in ("waiting", "seated"), got
                return bool(got["status"] == "seated")

            await app.until(seated, timeout=15)
            assert opener.calls == 2
            assert "no table could be opened for" in caplog.text

            # The request that completes a group: its sender is told, the other still waits.
            anna, bruno = await register(app, "Anna"), await register(app, "Bruno")
            app.hub.open_seated_table = FailsOnce(app)  # type: ignore[method-assign]
            assert (await quick(app, anna, players=2))["status"] == "waiting"
            anna_user = await app.hub.store.user_by_name("Anna")
            bruno_user = await app.hub.store.user_by_name("Bruno")
            assert anna_user is not None and bruno_user is not None
            with pytest.raises(RuntimeError, match="the store is away"):
                await app.hub.quickplay.join(
                    bruno_user,
                    players=2,
                    rules="italian",
                    clock="none",
                    rated=True,
                    bots_after=None,
                    partner=None,
                )
            assert app.hub.quickplay.status_of(bruno_user.id) == {"status": "idle"}
            assert app.hub.quickplay.status_of(anna_user.id)["status"] == "waiting"
            found = await quick(app, bruno, players=2)
            assert found["status"] == "seated"
            names = [s["name"] for s in (await table(app, found["table"]))["seats"]]
            assert sorted(names) == ["Anna", "Bruno"]

    asyncio.run(scenario())


def test_a_pair_queues_together_and_sits_opposite(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            users = {n: await register(app, n) for n in ("Dora", "Ezio", "Fabio", "Gina")}
            asked = await quick(app, users["Dora"], players=4, partner="Ezio")
            assert asked["status"] == "partner"
            paired = await quick(app, users["Ezio"], players=4, partner="Dora")
            assert paired["status"] == "waiting" and paired["waiting"] == 1
            await quick(app, users["Fabio"], players=4)
            found = await quick(app, users["Gina"], players=4)
            assert found["status"] == "seated"
            seats = [s["name"] for s in (await table(app, found["table"]))["seats"]]
            assert {seats[0], seats[2]} == {"Dora", "Ezio"} or {seats[1], seats[3]} == {
                "Dora",
                "Ezio",
            }

    asyncio.run(scenario())


def test_guests_play_casual_and_bad_requests_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            guest = await app.guest()
            refused = await quick(app, guest, 403, players=2)
            assert refused["error"] == "guest_not_rated"
            casual = await quick(app, guest, players=2, rated=False)
            assert casual["status"] == "waiting" and casual["queue"]["rated"] is False
            again = await quick(app, guest, 409, players=2, rated=False)
            assert again["error"] == "conflict" and again["detail"]["code"] == "already_waiting"
            hanna = await register(app, "Hanna")
            clock = await quick(app, hanna, 422, clock="3")
            assert clock["error"] == "bad_input"
            assert clock["detail"] == {"code": "unknown_clock", "params": {"clock": "3"}}
            assert (await quick(app, hanna, 422, rules="nope"))["error"] == "bad_rules"
            pair = await quick(app, hanna, 422, players=2, partner="Hanna")
            assert pair["error"] == "bad_input" and pair["detail"]["code"] == "pairs_four_only"
            nobody = await quick(app, hanna, 422, players=4, partner="Nobody")
            assert nobody["error"] == "no_such_partner"
            assert nobody["detail"] == {"code": "unknown_partner", "params": {"name": "Nobody"}}
            herself = await quick(app, hanna, 422, players=4, partner="Hanna")
            assert herself["detail"]["code"] == "own_partner"
            assert (await app.http.get("/api/quickplay", headers=hanna)).json()["status"] == "idle"
            left = await app.http.delete("/api/quickplay", headers=guest)
            assert left.json()["status"] == "idle"
            # A rated player and the casual guest are in different queues: nobody is seated.
            await quick(app, guest, players=2, rated=False)
            assert (await quick(app, hanna, players=2))["status"] == "waiting"
            assert (await app.http.post("/api/quickplay", json={})).status_code == 401

    asyncio.run(scenario())
