"""Deleting an account while it plays (issue 19, found by the black-box test): the account's
tables, queue and tournaments let it go (docs/accounts.md, "Deleting an account"). Before, a
running tournament whose entrant deleted his account stayed ``running`` for ever (his next table
was created with an empty seat and never started), his match in play waited for him until his
deadline and then failed to rate it (a foreign-key traceback), his open tables kept his seat
and his name, and a partner stayed entered with nobody."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from burraco.server.connection import Connection
from burraco.server.table import TableActor, commands
from burraco.store import UserInfo

from .inprocess import InProcess, running_app, sent_to

PASSWORD = "una password lunga"
FAST = {"disconnect_grace": 60.0, "bot_delay": 0.0, "substitute_bot": "greedy", "test_seed": 5}


async def register(app: InProcess, name: str) -> tuple[dict[str, str], UserInfo]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    user = await app.hub.store.user_by_name(name)
    assert user is not None
    return {"Authorization": f"Bearer {answer.json()['token']}"}, user


async def delete(app: InProcess, headers: dict[str, str]) -> None:
    gone = await app.http.request(
        "DELETE", "/api/account", json={"password": PASSWORD}, headers=headers
    )
    assert gone.status_code == 204, gone.text


async def table(app: InProcess, headers: dict[str, str], **body: Any) -> TableActor:
    created = await app.http.post(
        "/api/tables", json={"players": 2, "smazzate": 3} | body, headers=headers
    )
    assert created.status_code == 201, created.text
    return await app.hub.table(created.json()["id"])


async def opened(app: InProcess, actor: TableActor, user: UserInfo) -> Connection:
    conn = app.hub.connect(user)
    assert conn is not None
    await actor.call(commands.Join(conn))
    return conn


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_running_tournament_goes_on_without_a_deleted_account(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Anna plays a Sit&Go of two rounds with three bots and deletes her account during round
    one: her line forfeits at once (T14, the tournament's absent rule), her round-two table
    starts with her seat gone and forfeits too, the tournament finishes, and its lists name
    her ``Deleted-N``. Before, round two's table never started: the tournament ran for ever."""

    async def scenario() -> None:
        async with running_app(tmp_path, **FAST) as app:
            anna, user = await register(app, "Anna")
            body = {
                "name": "Serata",
                "start": "sitgo",
                "size": 4,
                "rounds": 2,
                "smazzate": 1,
                "absent": "forfeit",
                "absent_seconds": 600,  # only the deletion can end her matches in time
                "between_smazzate": 0,
            }
            made = await app.http.post("/api/tournaments", json=body, headers=anna)
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            url = f"/api/tournaments/{tid}"
            assert (await app.http.post(f"{url}/register", headers=anna)).status_code == 200
            bots = await app.http.post(
                f"{url}/bots", json={"level": "greedy", "count": 3}, headers=anna
            )
            assert bots.status_code == 200, bots.text
            mine = f"u{user.id}"

            def her_table(view: dict[str, Any], number: int) -> dict[str, Any] | None:
                for row in view["rounds"][number - 1]["tables"] if view["rounds"] else []:
                    if any(e["id"] == mine for line in row["lines"] for e in line):
                        return dict(row)
                return None

            async def seated() -> bool:
                row = her_table((await app.http.get(url)).json(), 1)
                return row is not None and row["table_id"] is not None

            await app.until(seated, timeout=20)
            await delete(app, anna)

            async def finished() -> bool:
                status: str = (await app.http.get(url)).json()["status"]
                return status == "finished"

            await app.until(finished, timeout=60, every=0.1)
            view = (await app.http.get(url)).json()
            (entrant,) = [e for e in view["entrants"] if e["id"] == mine]
            assert entrant["name"] == f"Deleted-{user.id}" and entrant["user_id"] is None
            assert "Anna" not in json.dumps(view)
            for number in (1, 2):
                row = her_table(view, number)
                assert row is not None and row["result"] is not None, row
                line = next(i for i, ln in enumerate(row["lines"]) if ln[0]["id"] == mine)
                assert row["result"]["vp"][line] < row["result"]["vp"][1 - line], row["result"]
            stored = await app.hub.store.matches(public_only=False)
            ours = [m for m in stored if any(p.startswith("Deleted") for p in m.players)]
            assert len(ours) == 2 and all(m.ended == "forfeit" for m in ours)
            assert not [m for m in stored if "Anna" in m.players]

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert errors_logged(caplog) == []


def test_the_lobby_tables_and_the_queue_of_a_deleted_account(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Anna deletes her account with, at once: a table of hers nobody else sits at (it is
    withdrawn), a seat at Bruno's open table (she stands up), a rated match against Bruno (her
    line forfeits at once and the match is rated: Bruno wins), a casual match against a bot
    (it ends with no winner: nobody is left to play), a casual match with Carla (a bot plays
    her seat, named ``Deleted-N``), and a place in quick play (she leaves the queue)."""

    async def scenario() -> None:
        async with running_app(tmp_path, **FAST) as app:
            anna, user = await register(app, "Anna")
            bruno, bruno_user = await register(app, "Bruno")
            carla, carla_user = await register(app, "Carla")
            alone = await table(app, anna)
            waiting = await table(app, bruno, players=3)
            sat = await app.http.post(
                f"/api/tables/{waiting.id}/sit", json={"seat": 1}, headers=anna
            )
            assert sat.status_code == 200, sat.text
            rated = await table(app, anna, smazzate=3, rated=True, seat=0)
            await app.http.post(f"/api/tables/{rated.id}/sit", json={"seat": 1}, headers=bruno)
            versus_bot = await table(app, anna, smazzate=3, seat=0, bots={"1": "greedy"})
            with_carla = await table(app, carla, smazzate=3, seat=0)
            await app.http.post(f"/api/tables/{with_carla.id}/sit", json={"seat": 1}, headers=anna)
            for actor in (rated, versus_bot, with_carla):
                await opened(app, actor, user)
            bruno_page = await opened(app, rated, bruno_user)
            await opened(app, with_carla, carla_user)
            queued = await app.http.post(
                "/api/quickplay", json={"players": 2, "rated": False}, headers=anna
            )
            assert queued.status_code == 200 and queued.json()["status"] == "waiting", queued.text

            await delete(app, anna)

            assert alone.status.value == "cancelled"
            assert waiting.status.value == "open" and waiting.seats[1].free
            assert waiting.seats[0].user_id == bruno_user.id
            assert rated.status.value == "finished"
            end = [m for m in sent_to(bruno_page) if m.get("kind") == "match_end"]
            (match_end,) = end
            assert match_end["ended"] == "forfeit" and match_end["winner"] == 1
            assert [c["result"] for c in match_end["rating"]["changes"]] == ["abandoned", "win"]
            assert versus_bot.status.value == "finished" and versus_bot.ended == "forfeit"
            assert with_carla.status.value == "playing"
            gone = with_carla.seats[1]
            assert (gone.gone, gone.substitute, gone.user_id) == (True, "greedy", None)
            seat = (await app.http.get(f"/api/tables/{with_carla.id}")).json()["seats"][1]
            assert seat["name"] == f"Deleted-{user.id}" and seat["substitute"] == "greedy"
            assert user.id not in app.hub.quickplay.where
            assert app.hub.quickplay.counts() == []
            lobby = json.dumps((await app.http.get("/api/tables")).json())
            assert "Anna" not in lobby
            matches = (await app.http.get("/api/matches")).json()
            assert "Anna" not in json.dumps(matches)
            (won,) = [m for m in matches if m["table"] == rated.id]
            assert won["winner"] == 1 and won["players"] == [f"Deleted-{user.id}", "Bruno"]
            ratings = (await app.http.get(f"/api/players/{bruno_user.name}")).json()
            assert ratings["ratings"], ratings

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert errors_logged(caplog) == []


def test_a_deleted_entrant_leaves_a_tournament_still_registering(tmp_path: Path) -> None:
    """Anna entered a pair with Bruno: when she deletes her account the pair's entry is
    withdrawn (even in the last two minutes, when one may no longer withdraw oneself), and
    Bruno is told. Before, the entry stayed with nobody in it."""

    async def scenario() -> None:
        async with running_app(tmp_path, **FAST) as app:
            anna, user = await register(app, "Anna")
            bruno, bruno_user = await register(app, "Bruno")
            body = {"name": "Coppie", "start": "sitgo", "size": 4, "kind": "pairs", "smazzate": 1}
            made = await app.http.post("/api/tournaments", json=body, headers=bruno)
            assert made.status_code == 201, made.text
            url = f"/api/tournaments/{made.json()['id']}"
            entered = await app.http.post(
                f"{url}/register", json={"partner": "Bruno"}, headers=anna
            )
            assert entered.status_code == 200, entered.text
            assert (await app.http.post(f"{url}/confirm", headers=bruno)).status_code == 200
            page = app.hub.connect(bruno_user)
            assert page is not None
            await delete(app, anna)
            view = (await app.http.get(url)).json()
            assert view["entrants"] == [] and view["entrant_count"] == 0
            notices = [m for m in sent_to(page) if m["type"] == "tournament_notice"]
            assert [(n["notice"], n["by"]) for n in notices] == [("partner_left", "Anna")]
            assert user.id not in {e.get("partner_id") for e in view["entrants"]}

    asyncio.run(scenario())
