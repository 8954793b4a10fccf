"""Accounts that last (issue 16), end to end with a real SMTP server on loopback (aiosmtpd):
an address is confirmed through its mailed, single-use, expiring link; a forgotten password is
reset by mail; the answers never tell whether an account has an address; mails are limited per
address; a password change and "log out everywhere" end the other sessions; the export holds
one's data and the deletion removes it, the matches staying as records under another name."""

from __future__ import annotations

import asyncio
import email
import re
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from burraco.store import TokenError

from .inprocess import InProcess, running_app

PASSWORD = "una password lunga"


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(message, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def link(self, index: int = -1) -> tuple[str, str]:
        """(the link's kind, its token) of a message."""
        body = self.messages[index][1].get_content()
        found = re.search(r"/\?(verify|reset)=([A-Za-z0-9_-]+)", body)
        assert found is not None, body
        return found.group(1), found.group(2)


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


async def register(app: InProcess, name: str) -> dict[str, str]:
    answer = await app.http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def login(app: InProcess, name: str, password: str) -> int:
    answer = await app.http.post("/api/login", json={"name": name, "password": password})
    app.http.cookies.clear()
    return answer.status_code


def test_an_address_is_confirmed_and_a_forgotten_password_reset(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            anna = await register(app, "Anna")
            sent = await app.http.post(
                "/api/account/email", json={"email": "Anna@Example.org"}, headers=anna
            )
            assert sent.status_code == 202 and sent.json() == {"sent": True}
            assert inbox.messages[-1][0] == ["anna@example.org"]
            assert "Conferma" in inbox.messages[-1][1]["Subject"]
            kind, token = inbox.link()
            assert kind == "verify"
            # Not yet confirmed: the account has no address.
            mine = (await app.http.get("/api/account", headers=anna)).json()
            assert mine["email"] is None and mine["mail"] is True
            done = await app.http.post("/api/account/verify", json={"token": token})
            assert done.status_code == 200 and done.json() == {"email": "anna@example.org"}
            again = await app.http.post("/api/account/verify", json={"token": token})
            assert again.status_code == 400 and again.json()["detail"]["code"] == "token_used"
            assert (await app.http.get("/api/account", headers=anna)).json()["email"] == (
                "anna@example.org"
            )
            # Forgotten password: the same answer for a known and an unknown address.
            before = len(inbox.messages)
            known = await app.http.post(
                "/api/password/forgot", json={"email": "anna@example.org", "lang": "en"}
            )
            unknown = await app.http.post(
                "/api/password/forgot", json={"email": "nobody@example.org"}
            )
            assert known.status_code == unknown.status_code == 202
            assert known.json() == unknown.json() == {"sent": True}
            assert len(inbox.messages) == before + 1  # only the known address got a mail
            assert "new password" in inbox.messages[-1][1]["Subject"]
            kind, token = inbox.link()
            assert kind == "reset"
            short = await app.http.post(
                "/api/password/reset", json={"token": token, "password": "x"}
            )
            assert short.status_code == 400 and short.json()["error"] == "bad_password"
            reset = await app.http.post(
                "/api/password/reset", json={"token": token, "password": "un'altra lunga"}
            )
            assert reset.status_code == 204
            # Every session ended; the old password no longer opens the account, the new does.
            assert (await app.http.get("/api/me", headers=anna)).status_code == 401
            assert await login(app, "Anna", PASSWORD) == 401
            assert await login(app, "Anna", "un'altra lunga") == 200
            reused = await app.http.post(
                "/api/password/reset", json={"token": token, "password": "ancora un'altra"}
            )
            assert reused.status_code == 400 and reused.json()["detail"]["code"] == "token_used"

    asyncio.run(scenario())


def test_tokens_expire_mails_are_limited_and_bad_input_changes_nothing(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            bruno = await register(app, "Bruno")
            bad = await app.http.post("/api/account/email", json={"email": "no"}, headers=bruno)
            assert bad.status_code == 400 and bad.json()["error"] == "bad_email"
            for _ in range(3):
                ok = await app.http.post(
                    "/api/account/email", json={"email": "b@example.org"}, headers=bruno
                )
                assert ok.status_code == 202
            limited = await app.http.post(
                "/api/account/email", json={"email": "b@example.org"}, headers=bruno
            )
            assert limited.status_code == 429 and len(inbox.messages) == 3
            # Only the last link works (the earlier ones were replaced) ...
            _, first = inbox.link(0)
            _, last = inbox.link(-1)
            old = await app.http.post("/api/account/verify", json={"token": first})
            assert old.json()["detail"]["code"] == "token_used"
            # ... and not after its lifetime.
            user = await app.hub.store.user_by_name("Bruno")
            assert user is not None
            later = datetime.now(UTC) + timedelta(hours=25)
            with pytest.raises(TokenError) as caught:
                await app.hub.accounts.use_token(last, "verify", now=later)
            assert caught.value.reason == "expired"
            unknown = await app.http.post("/api/account/verify", json={"token": "x" * 40})
            assert unknown.json()["detail"]["code"] == "token_unknown"
            assert (await app.http.get("/api/account", headers=bruno)).json()["email"] is None
            guest = await app.guest()
            refused = await app.http.post(
                "/api/account/email", json={"email": "g@example.org"}, headers=guest
            )
            assert refused.status_code == 403
            standings = await app.http.post(
                "/api/account/standings", json={"wanted": True}, headers=bruno
            )
            assert standings.status_code == 409  # no confirmed address yet

    asyncio.run(scenario())


def test_without_smtp_the_mail_features_say_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            carla = await register(app, "Carla")
            answer = await app.http.post(
                "/api/account/email", json={"email": "c@example.org"}, headers=carla
            )
            assert answer.status_code == 503 and answer.json()["error"] == "mail_unavailable"
            assert (await app.http.get("/api/account", headers=carla)).json()["mail"] is False

    asyncio.run(scenario())


def test_sessions_password_change_export_and_deletion(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            dora = await register(app, "Dora")
            await login(app, "Dora", PASSWORD)  # a second session (another browser)
            other = await app.http.post("/api/login", json={"name": "Dora", "password": PASSWORD})
            app.http.cookies.clear()
            second = {"Authorization": f"Bearer {other.json()['token']}"}
            sessions = (await app.http.get("/api/account", headers=dora)).json()["sessions"]
            assert len(sessions) == 3 and sum(s["current"] for s in sessions) == 1
            wrong = await app.http.post(
                "/api/account/password",
                json={"current": "nope", "new": "nuova lunga"},
                headers=dora,
            )
            assert wrong.status_code == 401
            changed = await app.http.post(
                "/api/account/password",
                json={"current": PASSWORD, "new": "nuova lunga"},
                headers=dora,
            )
            assert changed.status_code == 204
            assert (await app.http.get("/api/me", headers=second)).status_code == 401
            assert (await app.http.get("/api/me", headers=dora)).status_code == 200
            # A finished match of hers, to see it survive the deletion under another name.
            user = await app.hub.store.user_by_name("Dora")
            assert user is not None
            await app.hub.store.create_table(
                "t1", created_by=user.id, config={}, public=True, invite_code=None, players=2
            )
            await app.hub.store.log_match(
                "t1",
                1,
                players=["Dora", "Bot Expert"],
                totals=[2005, 300],
                winner=0,
                ended="complete",
                record='[meta]\nplayers = ["Dora", "Bot Expert"]\n',
            )
            exported = await app.http.get("/api/account/export", headers=dora)
            assert exported.status_code == 200
            data = exported.json()
            assert data["name"] == "Dora" and [m["table"] for m in data["matches"]] == ["t1"]
            refused = await app.http.request(
                "DELETE", "/api/account", json={"password": "nope"}, headers=dora
            )
            assert refused.status_code == 401
            gone = await app.http.request(
                "DELETE", "/api/account", json={"password": "nuova lunga"}, headers=dora
            )
            assert gone.status_code == 204
            assert await app.hub.store.user_by_name("Dora") is None
            assert (await app.http.get("/api/me", headers=dora)).status_code == 401
            (match,) = await app.hub.store.matches()
            assert match.players == [f"Deleted-{user.id}", "Bot Expert"]
            record = await app.hub.store.match_record("t1", 1)
            assert record is not None and "Dora" not in record
            ended = await app.http.post("/api/account/logout-everywhere")
            assert ended.status_code == 401

    asyncio.run(scenario())


def test_tournament_standings_are_mailed_to_those_who_asked(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    """Issue 16: "Online tournament standings e-mailed to entrants who have an address and
    asked for it" (a bot plays for the entrant who never comes, absent: bot)."""
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            ezio = await register(app, "Ezio")
            user = await app.hub.store.user_by_name("Ezio")
            assert user is not None
            await app.hub.accounts.verify_email(user.id, "ezio@example.org")
            asked = await app.http.post(
                "/api/account/standings", json={"wanted": True}, headers=ezio
            )
            assert asked.status_code == 204
            body = {
                "name": "Serata",
                "start": "sitgo",
                "size": 4,
                "rounds": 1,
                "smazzate": 1,
                "absent": "bot",
                "absent_seconds": 1,
                "between_smazzate": 0,
            }
            made = await app.http.post("/api/tournaments", json=body, headers=ezio)
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            assert (
                await app.http.post(f"/api/tournaments/{tid}/register", headers=ezio)
            ).status_code == 200
            bots = await app.http.post(
                f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3}, headers=ezio
            )
            assert bots.status_code == 200, bots.text

            async def mailed() -> bool:
                return any("Classifica finale" in m["Subject"] for _, m in inbox.messages)

            await app.until(mailed, timeout=90, every=0.2)
            ((to, message),) = [(t, m) for t, m in inbox.messages if "Classifica" in m["Subject"]]
            assert to == ["ezio@example.org"] and "Serata" in message["Subject"]
            text = message.get_content()
            assert "1. " in text and "Ezio" in text and "VP" in text

    asyncio.run(scenario())
