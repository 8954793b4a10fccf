"""Chat is limited per account and per table, and joins (each answered with a snapshot or a
resend) per connection (issue 19, M5): one account's 16 sockets add nothing to its chat budget,
and a connection cannot turn 40-byte joins into a stream of snapshots."""

from __future__ import annotations

import asyncio
from pathlib import Path

from burraco.errors import ErrorCode
from burraco.server.connection import Connection
from burraco.server.protocol import ProtocolError
from burraco.server.table import commands
from burraco.store import UserInfo

from .inprocess import InProcess, running_app


async def _user(app: InProcess) -> tuple[dict[str, str], UserInfo]:
    headers = await app.guest()
    me = await app.http.get("/api/me", headers=headers)
    info = await app.hub.store.user(me.json()["id"])
    assert info is not None
    return headers, info


async def _chats(app: InProcess, table: str, conns: list[Connection], tries: int) -> int:
    """How many of ``tries`` chat lines (round robin over ``conns``) the table stored."""
    actor = await app.hub.table(table)
    stored = 0
    for i in range(tries):
        try:
            await actor.call(commands.Chat(conns[i % len(conns)], f"line {i}"))
            stored += 1
        except ProtocolError as error:
            assert error.code is ErrorCode.RATE_LIMITED
    return stored


def test_one_accounts_sockets_share_one_chat_budget(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        async with running_app(tmp_path) as app:
            headers, user = await _user(app)
            created = await app.http.post(
                "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0}, headers=headers
            )
            table = created.json()["id"]
            conns = [app.hub.connect(user) for _ in range(16)]
            assert all(c is not None for c in conns)
            sockets = [c for c in conns if c is not None]
            actor = await app.hub.table(table)
            for conn in sockets:
                await actor.call(commands.Join(conn))
            stored = await _chats(app, table, sockets, 200)
            _, _, chats = await app.hub.store.load_log(table, 1)
            return stored, len(chats)

    stored, logged = asyncio.run(scenario())
    # The account's burst (5) and what 20 a minute adds during the loop: never 200.
    assert 5 <= stored <= 7 and logged == stored


def test_a_table_takes_a_bounded_chat_from_everybody(tmp_path: Path) -> None:
    async def scenario() -> int:
        async with running_app(tmp_path, chats_per_minute_per_account=6000) as app:
            headers, _ = await _user(app)
            created = await app.http.post(
                "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0}, headers=headers
            )
            table = created.json()["id"]
            actor = await app.hub.table(table)
            conns = []
            for _ in range(4):
                _, user = await _user(app)
                conn = app.hub.connect(user)
                assert conn is not None
                await actor.call(commands.Join(conn))
                conns.append(conn)
            return await _chats(app, table, conns, 60)

    assert 10 <= asyncio.run(scenario()) <= 12  # the table's burst of 10, and 60 a minute


def test_joins_per_connection_are_limited(tmp_path: Path) -> None:
    async def scenario() -> int:
        async with running_app(tmp_path) as app:
            headers, user = await _user(app)
            created = await app.http.post(
                "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0}, headers=headers
            )
            actor = await app.hub.table(created.json()["id"])
            conn = app.hub.connect(user)
            assert conn is not None
            accepted = 0
            for _ in range(40):
                try:
                    await actor.call(commands.Join(conn))
                    accepted += 1
                except ProtocolError as error:
                    assert error.code is ErrorCode.RATE_LIMITED
            return accepted

    assert 10 <= asyncio.run(scenario()) <= 12


def test_joins_per_account_are_limited_over_its_sockets(tmp_path: Path) -> None:
    """16 sockets of one account drew 16 connections' worth of snapshots (issue 19, M5, the
    black-box re-test: about 160 in a burst); their joins now share the account's budget."""

    async def scenario() -> tuple[int, int]:
        async with running_app(tmp_path) as app:
            headers, user = await _user(app)
            created = await app.http.post(
                "/api/tables", json={"players": 2, "smazzate": 1, "seat": 0}, headers=headers
            )
            actor = await app.hub.table(created.json()["id"])
            conns = [app.hub.connect(user) for _ in range(16)]
            accepted = 0
            for conn in conns:
                assert conn is not None
                for _ in range(10):  # each connection within its own burst of 10
                    try:
                        await actor.call(commands.Join(conn))
                        accepted += 1
                    except ProtocolError as error:
                        assert error.code is ErrorCode.RATE_LIMITED
            _, other = await _user(app)
            theirs = app.hub.connect(other)
            assert theirs is not None
            await actor.call(commands.Join(theirs))  # another account is not held by it
            return accepted, len(conns)

    accepted, sockets = asyncio.run(scenario())
    assert sockets == 16
    assert 30 <= accepted <= 32, accepted  # the account's burst, not 16 x 10
