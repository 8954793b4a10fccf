"""Moderation (issue 16): players mute, block and report (the report keeps the chat message as
stored and the lines before it); moderation powers are refused to players; a moderator's chat
mute stops the chat, a suspension stops the login and ends the sessions, a closed table ends
with no winner; every action is in the audit log; an administrator's announcement reaches every
connected page; a blocked player cannot invite."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from burraco.server.protocol import ProtocolError
from burraco.server.table import commands
from burraco.store import Standing

from .inprocess import InProcess, running_app

PASSWORD = "una password lunga"


async def register(app: InProcess, name: str) -> dict[str, str]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def make(app: InProcess, name: str, role: str) -> None:
    user = await app.hub.store.user_by_name(name)
    assert user is not None
    console = Standing(0, "test", "admin", None, None, False)
    await app.hub.moderation.sanction(
        console,
        "role",
        f"user:{name}",
        now=datetime.now(UTC),
        user_id=user.id,
        values={"role": role},
    )


async def post(app: InProcess, path: str, who: dict[str, str], status: int, **body: Any) -> Any:
    answer = await app.http.post(path, json=body, headers=who)
    assert answer.status_code == status, (path, answer.text)
    return answer.json() if answer.content else None


def test_report_mute_suspend_and_the_audit_log(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            anna, bruno, mara = [await register(app, n) for n in ("Anna", "Bruno", "Mara")]
            await make(app, "Mara", "moderator")
            # Bruno insults Anna at a table's chat.
            table = (await post(app, "/api/tables", bruno, 201, smazzate=1, seat=0))["id"]
            actor = await app.hub.table(table)
            user = await app.hub.store.user_by_name("Bruno")
            assert user is not None
            conn = app.hub.connect(user)
            assert conn is not None
            await actor.call(commands.Join(conn))
            await actor.call(commands.Chat(conn, "buonasera"))
            await actor.call(commands.Chat(conn, "sei un idiota"))
            seq = actor.seq
            # Powers are refused to players, and nothing changes.
            await post(app, "/api/admin/users/Bruno/mute", anna, 403, minutes=10)
            assert (await app.http.get("/api/admin/reports", headers=anna)).status_code == 403
            # Anna reports the message: the report keeps it and the line before.
            gone = await post(
                app,
                "/api/reports",
                anna,
                404,
                player="Bruno",
                reason="x",
                table=table,
                seq=999,
            )
            assert gone["detail"]["code"] == "no_such_message"
            # Numbers past 64 bits are refused before the database (they were a 500).
            huge = await post(
                app, "/api/reports", anna, 422, player="Bruno", reason="x", table=table, seq=2**63
            )
            assert huge["error"] == "bad_request"
            await post(app, f"/api/admin/reports/{2**63}/close", mara, 422, resolution="x")
            made = await post(
                app,
                "/api/reports",
                anna,
                201,
                player="Bruno",
                reason="insulti",
                table=table,
                seq=seq,
            )
            reports = (await app.http.get("/api/admin/reports", headers=mara)).json()
            (found,) = reports
            assert found["id"] == made["id"] and found["text"] == "sei un idiota"
            assert [c["text"] for c in found["context"]] == ["buonasera"]
            assert found["reporter"] == "Anna" and found["player"] == "Bruno"
            # The moderator mutes Bruno's chat: refused, with its own code.
            after = await post(
                app, "/api/admin/users/Bruno/mute", mara, 200, minutes=30, reason="insulti"
            )
            assert after["chat_muted_until"] is not None
            with pytest.raises(ProtocolError) as refused:
                await actor.call(commands.Chat(conn, "ancora"))
            assert refused.value.code == "muted"
            # The precise cause, with the moment, for the page to word (err.muted_until).
            assert refused.value.detail == "muted_until"
            assert refused.value.params == {"until": after["chat_muted_until"]}
            await post(
                app,
                f"/api/admin/reports/{made['id']}/close",
                mara,
                204,
                resolution="chat silenziata 30 minuti",
            )
            assert (await app.http.get("/api/admin/reports", headers=mara)).json() == []
            # Suspended: his sessions end, his socket closes, his login is refused.
            await post(app, "/api/admin/users/Bruno/suspend", mara, 200, days=3)
            assert conn.closed
            assert (await app.http.get("/api/me", headers=bruno)).status_code == 401
            login = await app.http.post("/api/login", json={"name": "Bruno", "password": PASSWORD})
            assert login.status_code == 403 and login.json()["error"] == "suspended"
            # A moderator cannot give roles; a moderator cannot sanction an administrator.
            roles = await post(app, "/api/admin/users/Anna/role", mara, 403, role="moderator")
            assert roles["detail"]["code"] == "needs_admin"
            await make(app, "Anna", "admin")
            protected = await post(app, "/api/admin/users/Anna/ban", mara, 403)
            assert protected["detail"]["code"] == "admin_protected"
            await post(app, "/api/admin/users/Bruno/pardon", mara, 200, reason="scuse")
            login = await app.http.post("/api/login", json={"name": "Bruno", "password": PASSWORD})
            assert login.status_code == 200
            audit = (await app.http.get("/api/admin/audit", headers=mara)).json()
            actions = [(a["action"], a["moderator"]) for a in audit[:5]]
            assert actions == [
                ("pardon", "Mara"),
                ("role", "test"),
                ("suspend", "Mara"),
                ("close_report", "Mara"),
                ("mute", "Mara"),
            ]

    asyncio.run(scenario())


def test_blocks_announcements_and_closing_a_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            carla, dino, ada = [await register(app, n) for n in ("Carla", "Dino", "Ada")]
            await make(app, "Ada", "admin")
            got = await post(app, "/api/relations", carla, 200, player="Dino", kind="block")
            assert got == {"mute": [], "block": ["Dino"]}
            await post(app, "/api/relations", carla, 422, player="Carla", kind="mute")
            await post(app, "/api/relations", carla, 404, player="Nobody", kind="mute")
            # Dino cannot name Carla as his quick-play partner.
            refused = await post(app, "/api/quickplay", dino, 403, players=4, partner="Carla")
            assert refused["error"] == "forbidden"
            assert refused["detail"] == {"code": "blocked", "params": {"name": "Carla"}}
            answer = await app.http.request(
                "DELETE", "/api/relations", json={"player": "Dino", "kind": "block"}, headers=carla
            )
            assert answer.json() == {"mute": [], "block": []}
            # An announcement reaches every connection, and later pages ask for it.
            user = await app.hub.store.user_by_name("Carla")
            assert user is not None
            conn = app.hub.connect(user)
            assert conn is not None
            player = await post(app, "/api/admin/announce", carla, 403, text="no")
            assert player["detail"]["code"] == "needs_admin"
            told = await post(app, "/api/admin/announce", ada, 200, text="Manutenzione alle 23")
            assert told["told"] == 1
            sent = json.loads(conn.outbox.get_nowait() or "{}")
            assert sent["type"] == "announcement" and sent["text"] == "Manutenzione alle 23"
            last = (await app.http.get("/api/announcement")).json()
            assert last["text"] == "Manutenzione alle 23"
            # A table in play closed by a moderator: the match ends with no winner.
            table = (
                await post(app, "/api/tables", carla, 201, smazzate=1, seat=0, bots={"1": "greedy"})
            )["id"]
            closed = await post(app, f"/api/admin/tables/{table}/close", ada, 200, reason="prova")
            assert closed["status"] == "finished"
            actor = await app.hub.table(table)
            assert actor.ended == "closed"
            await post(app, f"/api/admin/tables/{table}/close", ada, 409)
            audit = (await app.http.get("/api/admin/audit", headers=ada)).json()
            assert [a["action"] for a in audit[:2]] == ["close_table", "announce"]

    asyncio.run(scenario())
