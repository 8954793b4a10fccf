"""Invitations by mail (issue 16: "notifications in the page (and by e-mail when the user
allows)"), end to end with a real SMTP server on loopback (aiosmtpd): a player who asked for it
(only with a confirmed address) and has no page of the site open gets one mail per invitation
or challenge, with the inviter's name, the settings and the table's link; nobody else does (an
open page, a lobby that polls, the preference off, a guest's invitation, a block); the limits
hold (one mail per inviter and invitee in ten minutes, five an hour per invitee, ten an hour
per inviter) and do not eat into the verification mails' limits; a refused mail is logged and
the invitation stands."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import update

from burraco.server.invitemail import PER_INVITEE, PER_INVITER, PURPOSE, describe
from burraco.server.tableconfig import TableConfig
from burraco.store.account_models import MailSent

from .inprocess import InProcess, running_app
from .test_account_mail import PASSWORD, Inbox, register

Heads = dict[str, str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on loopback (aiosmtpd) and its port."""
    port = free_port()
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


async def call(app: InProcess, method: str, path: str, who: Heads, status: int, **body: Any) -> Any:
    answer = await app.http.request(method, path, json=body or None, headers=who)
    assert answer.status_code == status, (path, answer.text)
    return answer.json() if answer.content else None


async def login(app: InProcess, name: str) -> Heads:
    """Another session of a registered player (the bearer header)."""
    answer = await app.http.post("/api/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


async def confirmed(app: InProcess, name: str, *, wanted: bool = True) -> Heads:
    """A registered player with a confirmed address who asked (or not) for invitation mails."""
    heads = await register(app, name)
    user = await app.hub.store.user_by_name(name)
    assert user is not None
    await app.hub.accounts.verify_email(user.id, f"{name.lower()}@example.org")
    await call(app, "POST", "/api/account/invitations", heads, 204, wanted=wanted)
    return heads


async def invite(app: InProcess, who: Heads, player: str) -> dict[str, Any]:
    """``who`` opens a table (sitting at it) and invites ``player``: the answer."""
    table = (await call(app, "POST", "/api/tables", who, 201, smazzate=3, seat=0))["id"]
    answer: dict[str, Any] = await call(
        app, "POST", f"/api/tables/{table}/invite", who, 200, player=player
    )
    assert answer["table"] == table
    return answer


def test_an_offline_invitee_who_asked_gets_one_mail_per_inviter(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            mail = app.hub.invitation_mail
            gina, ugo = await register(app, "Gina"), await register(app, "Ugo")
            # No confirmed address: the preference cannot be turned on, nothing changes.
            refused = await call(app, "POST", "/api/account/invitations", ugo, 409, wanted=True)
            assert refused["error"] == "conflict"
            mine = await call(app, "GET", "/api/account", ugo, 200)
            assert mine["mail_invitations"] is False and mine["email"] is None
            assert (await invite(app, gina, "Ugo"))["mailed"] is False
            # Confirmed and asked: the account and its export say so.
            user = await app.hub.store.user_by_name("Ugo")
            assert user is not None
            await app.hub.accounts.verify_email(user.id, "ugo@example.org")
            await call(app, "POST", "/api/account/invitations", ugo, 204, wanted=True)
            assert (await call(app, "GET", "/api/account", ugo, 200))["mail_invitations"] is True
            exported = await app.http.get("/api/account/export", headers=ugo)
            assert exported.json()["mail_invitations"] is True
            # Ugo has no page open: the invitation is mailed, once.
            invited = await invite(app, gina, "Ugo")
            assert invited["told"] == 0 and invited["online"] is False
            assert invited["mailed"] is True
            await mail.settle()
            ((to, message),) = inbox.messages
            assert to == ["ugo@example.org"]
            assert message["Subject"] == "Gina ti invita al suo tavolo di Burraco"
            text = message.get_content()
            assert "Ciao Ugo" in text and "Gina ti invita" in text
            assert f"http://127.0.0.1/?table={invited['table']}" in text
            assert "2 giocatori, 3 smazzate, senza tempo" in text
            # Again within ten minutes (an invitation or a challenge): told, not mailed.
            again = await invite(app, gina, "Ugo")
            assert again["mailed"] is False
            dared = await call(
                app,
                "POST",
                "/api/challenges",
                gina,
                201,
                player="Ugo",
                table={"players": 2, "target": 1005},
            )
            assert dared["mailed"] is False
            await mail.settle()
            assert len(inbox.messages) == 1
            # Another inviter's challenge is mailed, with its own table and settings.
            lia = await register(app, "Lia")
            dared = await call(
                app,
                "POST",
                "/api/challenges",
                lia,
                201,
                player="Ugo",
                table={"players": 4, "target": 2005, "round_seconds": 1200, "hand_seconds": 30},
            )
            assert dared["mailed"] is True
            await mail.settle()
            _, message = inbox.messages[-1]
            assert message["Subject"] == "Lia ti sfida a Burraco"
            text = message.get_content()
            assert f"/?table={dared['table']}" in text
            assert "4 giocatori, a 2005 punti, orologio di 10:00 per parte, 30 s a mano" in text
            # Five an hour to one account, whoever invites.
            for number in range(PER_INVITEE - 2):
                other = await register(app, f"Amico{number}")
                assert (await invite(app, other, "Ugo"))["mailed"] is True
            late = await register(app, "Tardi")
            assert (await invite(app, late, "Ugo"))["mailed"] is False
            await mail.settle()
            assert len(inbox.messages) == PER_INVITEE
            # The invitation mails leave the verification mails' limits alone.
            sent = await app.http.post(
                "/api/account/email", json={"email": "ugo@example.org"}, headers=ugo
            )
            assert sent.status_code == 202
            assert "Conferma" in inbox.messages[-1][1]["Subject"]

    asyncio.run(scenario())


def test_no_mail_with_a_page_open_the_preference_off_from_a_guest_or_a_blocked_player(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            mail = app.hub.invitation_mail
            pia = await register(app, "Pia")
            await confirmed(app, "Rita")
            await confirmed(app, "Sara", wanted=False)
            await confirmed(app, "Teo")
            # Rita has a page open (a WebSocket): told there, not mailed.
            rita = await app.hub.store.user_by_name("Rita")
            assert rita is not None
            page = app.hub.connect(rita)
            assert page is not None
            online = await invite(app, pia, "Rita")
            assert online["told"] == 1 and online["online"] is True and online["mailed"] is False
            # Her lobby (no socket) polls her friends: an open page too.
            app.hub.disconnect(page)
            await call(app, "GET", "/api/friends", await login(app, "Rita"), 200)
            lobby = await invite(app, pia, "Rita")
            assert lobby["online"] is False and lobby["mailed"] is False
            # Sara did not ask.
            assert (await invite(app, pia, "Sara"))["mailed"] is False
            # A guest's invitation is never mailed.
            guest = await app.guest()
            assert (await invite(app, guest, "Teo"))["mailed"] is False
            # Teo blocked Vito: refused, no mail.
            vito = await register(app, "Vito")
            teo_heads = await login(app, "Teo")
            await call(app, "POST", "/api/relations", teo_heads, 200, player="Vito", kind="block")
            table = (await call(app, "POST", "/api/tables", vito, 201, smazzate=3, seat=0))["id"]
            await call(app, "POST", f"/api/tables/{table}/invite", vito, 403, player="Teo")
            dare = {"players": 2, "smazzate": 3}
            await call(app, "POST", "/api/challenges", vito, 403, player="Teo", table=dare)
            # Turned off again, nothing more comes.
            await call(app, "POST", "/api/account/invitations", teo_heads, 204, wanted=False)
            assert (await invite(app, pia, "Teo"))["mailed"] is False
            await mail.settle()
            assert inbox.messages == []

    asyncio.run(scenario())


def test_ten_an_hour_per_inviter(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            zeno = await register(app, "Zeno")
            zeno_user = await app.hub.store.user_by_name("Zeno")
            assert zeno_user is not None
            await confirmed(app, "Olga")
            now = datetime.now(UTC)
            for number in range(PER_INVITER):  # his invitations of the last hour, to others
                await app.hub.accounts.log_mail(
                    f"p{number}@example.org", None, PURPOSE, now=now, sender_id=zeno_user.id
                )
            assert (await invite(app, zeno, "Olga"))["mailed"] is False
            # An hour later they no longer count.
            async with app.hub.store.write() as session:
                await session.execute(update(MailSent).values(at=now - timedelta(minutes=61)))
            assert (await invite(app, zeno, "Olga"))["mailed"] is True
            await app.hub.invitation_mail.settle()
            assert [to for to, _ in inbox.messages] == [["olga@example.org"]]

    asyncio.run(scenario())


def test_a_refused_mail_is_logged_and_the_invitation_stands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()  # nobody listens on it: the mail server "refuses"

    async def scenario() -> None:
        async with running_app(tmp_path, smtp_host="127.0.0.1", smtp_port=port) as app:
            nino = await register(app, "Nino")
            await confirmed(app, "Elio")
            answer = await invite(app, nino, "Elio")
            assert answer["mailed"] is True  # on its way when the answer is given
            await app.hub.invitation_mail.settle()
            lobby = await call(app, "GET", "/api/friends", await login(app, "Elio"), 200)
            assert [i["table"] for i in lobby["invitations"]] == [answer["table"]]

    with caplog.at_level(logging.WARNING, logger="burraco.invitemail"):
        asyncio.run(scenario())
    assert any("invite mail from Nino to Elio" in r.getMessage() for r in caplog.records)


def test_the_settings_in_words() -> None:
    config = TableConfig(players=4, target=2005, round_seconds=1200, hand_seconds=30, rated=True)
    assert describe(config, "en") == (
        "4 players, to 2005 points, a clock of 10:00 per side, 30 s a turn, rated"
    )
    assert describe(TableConfig(rules="classic", smazzate=1), "it") == (
        "2 giocatori, regole classiche, a 2005 punti, 1 smazzata, senza tempo"
    )
