"""Finding each other (issue 16): presence figures for the lobby; a follow is a friend request
until returned; friends are listed online or not, with the table they play at; an invitation
and a challenge reach the friend's open pages at once (and his lobby's list); a player who
blocked you cannot be invited; bad requests change nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from .inprocess import InProcess, running_app

PASSWORD = "una password lunga"


async def register(app: InProcess, name: str) -> dict[str, str]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def call(
    app: InProcess, method: str, path: str, who: dict[str, str], status: int, **body: Any
) -> Any:
    answer = await app.http.request(method, path, json=body or None, headers=who)
    assert answer.status_code == status, (path, answer.text)
    return answer.json() if answer.content else None


def test_friends_presence_invitations_and_challenges(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            gina, ugo = await register(app, "Gina"), await register(app, "Ugo")
            before = (await app.http.get("/api/presence")).json()
            assert before == {"online": 0, "playing": 0, "waiting": 0}
            asked = await call(app, "POST", "/api/friends", gina, 200, player="Ugo")
            assert asked["following"] == ["Ugo"] and asked["friends"] == []
            got = await call(app, "GET", "/api/friends", ugo, 200)
            assert got["requests"] == ["Gina"]
            both = await call(app, "POST", "/api/friends", ugo, 200, player="Gina")
            assert both["friends"] == [
                {"name": "Gina", "online": False, "table": None, "bot": False}
            ]
            assert both["requests"] == []
            # Ugo's page is open: he is online; Gina's table in play is shown.
            ugo_user = await app.hub.store.user_by_name("Ugo")
            assert ugo_user is not None
            page = app.hub.connect(ugo_user)
            assert page is not None
            table = (
                await call(
                    app, "POST", "/api/tables", gina, 201, smazzate=1, seat=0, bots={"1": "greedy"}
                )
            )["id"]
            seen = await call(app, "GET", "/api/friends", gina, 200)
            assert seen["friends"] == [{"name": "Ugo", "online": True, "table": None, "bot": False}]
            assert (await call(app, "GET", "/api/friends", ugo, 200))["friends"][0][
                "table"
            ] == table
            now = (await app.http.get("/api/presence")).json()
            assert now["online"] == 1 and now["playing"] == 1
            # Invitation to an open table of Gina's, and a challenge with chosen settings.
            waiting = (await call(app, "POST", "/api/tables", gina, 201, smazzate=3, seat=0))["id"]
            told = await call(app, "POST", f"/api/tables/{waiting}/invite", gina, 200, player="Ugo")
            assert told == {"table": waiting, "told": 1, "online": True, "mailed": False}
            sent = json.loads(page.outbox.get_nowait() or "{}")
            assert sent == {"type": "invitation", "kind": "invite", "table": waiting, "by": "Gina"}
            dared = await call(
                app,
                "POST",
                "/api/challenges",
                gina,
                201,
                player="Ugo",
                table={"players": 2, "target": 1005},
            )
            info = (await app.http.get(f"/api/tables/{dared['table']}")).json()
            assert info["config"]["public"] is False and info["config"]["target"] == 1005
            lobby = await call(app, "GET", "/api/friends", ugo, 200)
            assert [i["kind"] for i in lobby["invitations"]] == ["challenge", "invite"]
            # Ugo blocks Gina: she can no longer invite him.
            await call(app, "POST", "/api/relations", ugo, 200, player="Gina", kind="block")
            refused = await call(
                app, "POST", f"/api/tables/{waiting}/invite", gina, 403, player="Ugo"
            )
            assert refused["error"] == "forbidden"
            # The precise causes, for the pages to word in their language (err.CAUSE).
            assert refused["detail"] == {"code": "blocked", "params": {"name": "Ugo"}}
            # Bad requests.
            await call(app, "POST", "/api/friends", gina, 404, player="Nobody")
            mine = await call(app, "POST", "/api/friends", gina, 422, player="Gina")
            assert mine["detail"] == {"code": "yourself", "params": {}}
            elsewhere = await call(
                app, "POST", f"/api/tables/{table}/invite", ugo, 409, player="Gina"
            )
            assert elsewhere["detail"]["code"] == "invite_not_seated"
            guest = await app.guest()
            alone = await call(app, "POST", "/api/friends", guest, 403, player="Ugo")
            assert alone["detail"]["code"] == "guest_friends"
            gone = await call(app, "DELETE", "/api/friends", gina, 200, player="Ugo")
            assert gone["friends"] == [] and gone["requests"] == ["Ugo"]

    asyncio.run(scenario())


def test_invitations_are_limited_per_account(tmp_path: Path) -> None:
    """One account sent 200 invitations in 4 s, each pushed to the invitee's page (a black-box
    test): invitations and challenges together are limited per account (a burst of 5, then 10
    a minute), refused with a cause the pages word, and a refused challenge makes no table."""

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            gina = await register(app, "Gina")
            await register(app, "Ugo")
            ugo_user = await app.hub.store.user_by_name("Ugo")
            assert ugo_user is not None
            page = app.hub.connect(ugo_user)
            assert page is not None
            waiting = (await call(app, "POST", "/api/tables", gina, 201, smazzate=3, seat=0))["id"]
            for _ in range(4):
                await call(app, "POST", f"/api/tables/{waiting}/invite", gina, 200, player="Ugo")
            await call(
                app, "POST", "/api/challenges", gina, 201, player="Ugo", table={"smazzate": 1}
            )
            tables = len(app.hub.tables)
            for path, body in (
                (f"/api/tables/{waiting}/invite", {"player": "Ugo"}),
                ("/api/challenges", {"player": "Ugo", "table": {"smazzate": 1}}),
            ):
                refused = await call(app, "POST", path, gina, 429, **body)
                assert refused["error"] == "rate_limited"
                assert refused["detail"] == {"code": "invitations", "params": {"limit": 10.0}}
            assert len(app.hub.tables) == tables, "a refused challenge made a table"
            assert page.outbox.qsize() == 5
            # Another account is not held by Gina's invitations.
            bea = await register(app, "Bea")
            await call(
                app, "POST", "/api/challenges", bea, 201, player="Ugo", table={"smazzate": 1}
            )

    asyncio.run(scenario())
