"""Bot accounts (issue 18): a registered person creates bots (name rules, a limit per owner),
each with a token shown once, regenerated or revoked; the bot plays with it (never with a
password), is marked as a bot in the lobby, at a seat, on its profile, in friends and on the
leaderboard, cannot chat, follow or create bots, tournaments or clubs, and is rate-limited per
account (messages over all its sockets, tables at once)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from .inprocess import AppServer, InProcess, running_app

PASSWORD = "una password lunga"


async def register(app: InProcess, name: str) -> dict[str, str]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def call(
    app: InProcess, method: str, path: str, who: dict[str, str] | None, status: int, **body: Any
) -> Any:
    answer = await app.http.request(method, path, json=body or None, headers=who or {})
    assert answer.status_code == status, (path, answer.text)
    return answer.json() if answer.content else None


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_bot_accounts_tokens_limits_and_marks(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, bot_max_tables=2) as app:
            gina = await register(app, "Gina")
            guest = await app.guest()
            refused = await call(app, "POST", "/api/account/bots", guest, 403, name="OspiteBot")
            assert refused["detail"]["code"] == "guest_bots"
            await call(app, "GET", "/api/account/bots", None, 401)
            # The names follow every name's rules; the name space is the users'.
            for bad, status, code in (
                ("x", 400, "bad_name"),
                ("Ospite-12", 400, "bad_name"),
                ("Gina", 409, "name_taken"),
            ):
                answer = await call(app, "POST", "/api/account/bots", gina, status, name=bad)
                assert answer["error"] == code
            made = await call(app, "POST", "/api/account/bots", gina, 201, name="GinaBot")
            assert made["bot"]["name"] == "GinaBot" and made["bot"]["token"] is True
            token = made["token"]
            me = await call(app, "GET", "/api/me", bearer(token), 200)
            assert me == {"id": me["id"], "name": "GinaBot", "guest": False, "bot": True}
            # No password: a bot never logs in with one.
            login = await app.http.post(
                "/api/login", json={"name": "GinaBot", "password": PASSWORD}
            )
            assert login.status_code == 401
            await call(app, "POST", "/api/account/bots", gina, 201, name="GinaBot2")
            await call(app, "POST", "/api/account/bots", gina, 201, name="GinaBot3")
            over = await call(app, "POST", "/api/account/bots", gina, 429, name="GinaBot4")
            assert over["error"] == "too_many_bots"
            assert over["detail"] == {"code": "bot_accounts", "params": {"limit": 3}}
            listed = await call(app, "GET", "/api/account/bots", gina, 200)
            assert [b["name"] for b in listed["bots"]] == ["GinaBot", "GinaBot2", "GinaBot3"]
            assert listed["limit"] == 3 and 'token":' not in json.dumps(listed).replace(
                '"token": true', ""
            )
            # What a bot may not do.
            bot = bearer(token)
            for path, body in (
                ("/api/account/bots", {"name": "BotsBot"}),
                ("/api/friends", {"player": "Gina"}),
                ("/api/tournaments", {"name": "Bots", "start": "sitgo", "size": 4}),
                ("/api/tournaments/none/register", {}),
                ("/api/account/email", {"email": "bot@example.org"}),
            ):
                answer = await call(app, "POST", path, bot, 403, **body)
                assert answer["detail"]["code"] == "bot_account", path
            refused = await call(app, "GET", "/api/account", bot, 403)
            assert refused["detail"]["code"] == "bot_account"
            # Regenerated: the old token stops; revoked: none works; another owner's: 404.
            fresh = await call(app, "POST", "/api/account/bots/ginabot/token", gina, 200)
            await call(app, "GET", "/api/me", bearer(token), 401)
            await call(app, "GET", "/api/me", bearer(fresh["token"]), 200)
            ugo = await register(app, "Ugo")
            await call(app, "POST", "/api/account/bots/GinaBot/token", ugo, 404)
            await call(app, "DELETE", "/api/account/bots/GinaBot2/token", gina, 204)
            listed = await call(app, "GET", "/api/account/bots", gina, 200)
            assert [b["token"] for b in listed["bots"]] == [True, False, True]
            await call(app, "DELETE", "/api/account/bots/GinaBot3", gina, 204)
            await call(app, "GET", "/api/players/GinaBot3", None, 404)
            token = fresh["token"]
            bot = bearer(token)

            # The mark: at a seat (lobby and table), on the profile, among friends.
            table = (await call(app, "POST", "/api/tables", gina, 201, smazzate=1, seat=0))["id"]
            seated = await call(app, "POST", f"/api/tables/{table}/sit", bot, 200, seat=1)
            assert [s["bot_account"] for s in seated["seats"]] == [False, True]
            lobby = await call(app, "GET", "/api/tables", None, 200)
            assert [s["bot_account"] for s in lobby[0]["seats"]] == [False, True]
            profile = await call(app, "GET", "/api/players/GinaBot", None, 200)
            assert profile["bot"] is True and profile["owner"] == "Gina"
            person = await call(app, "GET", "/api/players/Gina", None, 200)
            assert person["bot"] is False and person["owner"] is None
            friends = await call(app, "POST", "/api/friends", gina, 200, player="GinaBot")
            assert friends["friends"] == [
                {"name": "GinaBot", "online": False, "table": table, "bot": True}
            ]
            # Tables at once: two (this server's setting), then too_many_tables.
            other = (await call(app, "POST", "/api/tables", ugo, 201, smazzate=1, seat=0))["id"]
            await call(app, "POST", f"/api/tables/{other}/sit", bot, 200, seat=1)
            third = (await call(app, "POST", "/api/tables", ugo, 201, smazzate=1, seat=0))["id"]
            full = await call(app, "POST", f"/api/tables/{third}/sit", bot, 429, seat=1)
            assert full["detail"] == {"code": "bot_tables", "params": {"limit": 2}}
            queued = await call(
                app, "POST", "/api/quickplay", bot, 429, players=2, rules="italian", clock="none"
            )
            assert queued["error"] == "too_many_tables"

    asyncio.run(scenario())


def test_a_bot_cannot_chat_and_its_messages_are_limited_per_account(tmp_path: Path) -> None:
    server = AppServer(tmp_path, bot_messages_per_second=2.0, bot_max_sockets=2)
    server.start()
    try:
        with server.client() as http:
            owner = http.post("/api/register", json={"name": "Rita", "password": PASSWORD})
            http.cookies.clear()
            rita = owner.json()["token"]
            made = http.post("/api/account/bots", json={"name": "RitaBot"}, headers=bearer(rita))
            token = made.json()["token"]
            table = http.post(
                "/api/tables", json={"smazzate": 1, "seat": 0}, headers=bearer(rita)
            ).json()["id"]
            http.post(f"/api/tables/{table}/sit", json={"seat": 1}, headers=bearer(token))
        first, second = server.peer(token), server.peer(token)
        assert first.welcome["user"]["bot"] is True
        third = server.connect(headers=bearer(token))  # a third socket: 4429
        try:
            closed = None
            try:
                third.recv(5)
                third.recv(5)
            except Exception as error:  # the harness's Closed
                closed = error
            assert closed is not None and getattr(closed, "code", None) == 4429
        finally:
            third.close()
        first.send({"type": "join", "table": table})
        first.until(lambda m: m["type"] == "snapshot")
        first.send({"type": "chat", "table": table, "text": "ciao"})
        refused, _ = first.until(lambda m: m["type"] == "error")
        assert refused["code"] == "forbidden" and refused["detail"]["code"] == "bot_chat"
        # 2 a second, bursts of 8, over both sockets together.
        for i in range(12):
            (first if i % 2 else second).send({"type": "ping", "t": i})
        got = first.quiet(0.5) + second.quiet(0.5)
        pongs = [m for m in got if m["type"] == "pong"]
        limited = [m for m in got if m["type"] == "error"]
        assert 6 <= len(pongs) < 12, pongs
        assert limited and {m["code"] for m in limited} == {"rate_limited"}, got
        first.close()
        second.close()
    finally:
        server.stop()


def test_a_moderator_bans_a_bot_like_a_user(tmp_path: Path) -> None:
    """The ban ends the bot's token; its owner cannot give it a new one until it is pardoned."""
    from .test_moderation import make

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            owner, mara = await register(app, "Olga"), await register(app, "Mara")
            await make(app, "Mara", "moderator")
            made = await call(app, "POST", "/api/account/bots", owner, 201, name="OlgaBot")
            await call(app, "GET", "/api/me", bearer(made["token"]), 200)
            await call(app, "POST", "/api/admin/users/OlgaBot/ban", mara, 200, reason="spam")
            await call(app, "GET", "/api/me", bearer(made["token"]), 401)
            refused = await call(app, "POST", "/api/account/bots/OlgaBot/token", owner, 403)
            assert refused["error"] == "suspended"
            assert refused["detail"]["code"] == "bot_shut_out"
            await call(app, "POST", "/api/admin/users/OlgaBot/pardon", mara, 200, reason="ok")
            fresh = await call(app, "POST", "/api/account/bots/OlgaBot/token", owner, 200)
            await call(app, "GET", "/api/me", bearer(fresh["token"]), 200)

    asyncio.run(scenario())


def test_a_bot_account_is_rated_as_a_person_is(tmp_path: Path) -> None:
    """At a rated table a bot account's rating moves (it is no fixed anchor): here it leaves
    the match, its line forfeits, and it loses rating as a person who abandons does; the
    leaderboard lists it, marked as a bot."""
    server = AppServer(tmp_path, disconnect_grace=1.0, presence_quiet_seconds=0.2, bot_delay=0.0)
    server.start()
    try:
        with server.client() as http:
            owner = http.post("/api/register", json={"name": "Dora", "password": PASSWORD})
            http.cookies.clear()
            dora = owner.json()["token"]
            token = http.post(
                "/api/account/bots", json={"name": "DoraBot"}, headers=bearer(dora)
            ).json()["token"]
            table = http.post(
                "/api/tables", json={"smazzate": 3, "rated": True, "seat": 0}, headers=bearer(dora)
            ).json()["id"]
        person, bot = server.peer(dora), server.peer(token)
        for peer in (person, bot):
            peer.send({"type": "join", "table": table})
            peer.until(lambda m: m["type"] == "snapshot")
        with server.client() as http:
            sat = http.post(f"/api/tables/{table}/sit", json={"seat": 1}, headers=bearer(token))
            assert sat.status_code == 200, sat.text
        bot.close()  # gone: past the away deadline its line forfeits
        end, _ = person.until(lambda m: m.get("kind") == "match_end", timeout=30)
        person.close()
        assert end["ended"] == "forfeit" and end["winner"] == 0
        changes = {c["seat"]: c for c in end["rating"]["changes"]}
        assert changes[1]["result"] == "abandoned"
        assert changes[1]["before"] == 1500 and changes[1]["after"] < 1500
        with server.client() as http:
            board = http.get("/api/ratings/2p?provisional=true").json()
        marks = {p["name"]: p["bot"] for p in board["players"]}
        assert marks == {"Dora": False, "DoraBot": True}
    finally:
        server.stop()
