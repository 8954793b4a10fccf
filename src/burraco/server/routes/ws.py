"""The WebSocket endpoint for play (``/ws``, docs/protocol.md): who connects (token or cookie,
with the cross-site check), the per-connection message bucket, the read loop, the dispatch of
each decoded message to its table or tournament, and the writer that drains the outbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from burraco.errors import ServiceError
from burraco.store import UserInfo

from .. import errors, messages
from ..cluster import RECONNECT, NotOwner
from ..config import MESSAGE_BURST_SECONDS, ServerConfig
from ..connection import Connection
from ..hub import Hub
from ..protocol import (
    Act,
    Chat,
    ClientMessage,
    ErrorCode,
    Join,
    Leave,
    Ping,
    ProtocolError,
    Ready,
    SeedCommit,
    SeedReveal,
    UnwatchTournament,
    WatchTournament,
    decode,
    encode,
    peek,
)
from ..ratelimit import Bucket
from ..table import TableError, commands
from ..tournaments import TournamentError
from .deps import HubDep, bearer, session_token, user_from

log = logging.getLogger("burraco.server")

RETRY_MOST_SECONDS = 60.0
"""The longest wait a ``rate_limited`` refusal names (``retry_ms``)."""


async def websocket(socket: WebSocket, hub: HubDep) -> None:
    await serve_socket(socket, hub, hub.config)


def _cross_origin_cookie(socket: WebSocket, allowed: tuple[str, ...] = ()) -> bool:
    """True when a browser page of another origin opens the socket with the session cookie.

    Browsers send cookies with WebSocket handshakes and do not apply the same-origin policy to
    them, so the server checks ``Origin`` (cross-site WebSocket hijacking). Tokens sent in the
    header or the query are not ambient and need no check; nor do programs (no ``Origin``).
    The page's host must be the request's ``Host`` or one of ``allowed`` (the operator's public
    host names, ``ServerConfig.allowed_origin_hosts``); ``X-Forwarded-Host`` is not trusted: any
    client can send it (issue 19)."""
    if socket.query_params.get("token") or bearer(socket.headers.get("authorization")):
        return False
    origin = socket.headers.get("origin")
    if not origin:
        return False
    hosts = {socket.headers.get("host"), *allowed} - {None}
    return urlsplit(origin).netloc.lower() not in {str(host).lower() for host in hosts}


async def _socket_user(socket: WebSocket, hub: Hub) -> UserInfo | None:
    user = await user_from(
        socket.headers.get("authorization"),
        socket.cookies,
        hub.store,
        socket.query_params.get("token"),
    )
    if user is not None and _cross_origin_cookie(socket, hub.config.allowed_origin_hosts):
        return None  # a page of another site may not play with the visitor's cookie
    return user


async def _open(socket: WebSocket, hub: Hub, config: ServerConfig) -> Connection | None:
    """Accept the socket and make its connection, or close it (4401, 4429) and say None."""
    user = await _socket_user(socket, hub)
    # Accept before closing: a close before the handshake is an HTTP 403 to the client, and a
    # browser cannot read it; the close code 4401 says what to do (log in).
    await socket.accept()
    if user is None:
        await socket.close(
            code=errors.close_code(ErrorCode.NOT_AUTHENTICATED), reason="not authenticated"
        )
        return None
    token = socket.query_params.get("token") or session_token(
        socket.headers.get("authorization"), socket.cookies
    )
    conn = hub.connect(user, session=token)
    if conn is None:
        await socket.close(
            code=errors.close_code(ErrorCode.TOO_MANY_SOCKETS),
            reason=f"too many connections: at most {config.max_sockets_per_user} per account",
        )
        return None
    conn.send(encode(messages.welcome(user, hub.clock.now())))
    return conn


async def serve_socket(socket: WebSocket, hub: Hub, config: ServerConfig) -> None:
    conn = await _open(socket, hub, config)
    if conn is None:
        return
    loop = asyncio.get_running_loop()
    reader = loop.create_task(_read(socket, conn, hub, config))
    writer = loop.create_task(_write(socket, conn, config.send_deadline_seconds))
    try:
        # The reader ends when the client leaves; the writer when it stops taking messages
        # (then the reader, waiting for a frame that may never come, is stopped too).
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not reader.done():
            reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        for table_id in list(conn.tables):
            actor = hub.tables.get(table_id)
            if actor is not None:
                actor.post(commands.Disconnect(conn))
        conn.close()
        hub.disconnect(conn)
        await asyncio.gather(writer, return_exceptions=True)


async def _read(socket: WebSocket, conn: Connection, hub: Hub, config: ServerConfig) -> None:
    """Read and dispatch the client's frames until it leaves."""
    burst = config.messages_per_second * MESSAGE_BURST_SECONDS
    bucket = (
        hub.bot_bucket(conn.user.id)  # a bot's limit is its account's, over all its sockets
        if conn.user.is_bot
        else Bucket(
            config.messages_per_second, burst, burst, hub.clock.monotonic(), hub.clock.monotonic
        )
    )
    try:
        while not conn.closed:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if not bucket.take():  # the limit first, before the frame is decoded
                conn.send(encode(_limited(bucket, frame)))
                continue
            decoded: ClientMessage | None = None
            try:
                decoded = decode(frame)
                await _dispatch(conn, decoded, hub)
            except ServiceError as error:
                conn.send(encode(messages.error(error, table=_table_of(decoded))))
            except Exception:  # a bug must not cost the client its connection
                log.exception("connection %s: message failed", conn.id)
                failure = ProtocolError(ErrorCode.SERVER_ERROR, "the server could not do that")
                conn.send(encode(messages.error(failure)))
    except WebSocketDisconnect:
        pass


def _limited(bucket: Bucket, frame: str | bytes) -> dict[str, Any]:
    """The refusal of a frame over the message limit. It names the message it refuses, its
    ``table`` and ``ref`` when the frame has them (``protocol.peek``: a small, cheap look, not
    the decoding the limit spares the server), so that a client can send that move again, and
    says when a message will be taken again (``retry_ms``) and what the limit is."""
    named = peek(frame)
    wait = min(bucket.wait(), RETRY_MOST_SECONDS)
    limited = ProtocolError(
        ErrorCode.RATE_LIMITED,
        f"too many messages: at most {bucket.rate:g} a second (bursts of {bucket.burst:g});"
        " slow down",
        ref=named.ref,
        detail="messages",
        params={"limit": bucket.rate, "burst": bucket.burst, "retry_ms": math.ceil(wait * 1000)},
    )
    return messages.error(limited, table=named.table)


def _table_of(message: ClientMessage | None) -> str | None:
    """The table a decoded message names (its refusal says it too)."""
    table = getattr(message, "table", None)
    return table if isinstance(table, str) else None


async def _dispatch(conn: Connection, message: object, hub: Hub) -> None:
    if isinstance(message, Ping):
        conn.send(encode(messages.pong(message.t, hub.clock.now())))
        return
    if isinstance(message, WatchTournament | UnwatchTournament):
        tournaments = hub.tournaments
        if tournaments is None:
            raise ProtocolError(ErrorCode.NO_SUCH_TOURNAMENT, "tournaments are not running")
        if isinstance(message, UnwatchTournament):
            tournaments.unwatch(conn, message.tournament)
            return
        try:
            await tournaments.watch(conn, message.tournament)
        except TournamentError as error:
            raise ProtocolError(ErrorCode.NO_SUCH_TOURNAMENT, error.message) from None
        return
    cluster = hub.cluster
    if isinstance(message, Join):
        if cluster is not None:
            owner = await cluster.owner_elsewhere(message.table)
            if owner is not None:  # another process runs it: it answers through the bus
                cluster.forward(conn, owner, message)
                conn.tables.add(message.table)
                return
        try:
            actor = await hub.table(message.table)
        except NotOwner:
            # Moving right now (this process drains, or another took it a moment ago): the
            # client connects again, through the proxy, and finds it where it went.
            conn.close(RECONNECT)
            return
        except TableError as error:
            raise ProtocolError(ErrorCode.NO_SUCH_TABLE, error.message) from None
        conn.remote.pop(message.table, None)
        actor.post(commands.Join(conn, message.last_seq))
        conn.tables.add(message.table)
        return
    assert isinstance(message, Leave | Act | Chat | Ready | SeedCommit | SeedReveal)
    owner = conn.remote.get(message.table)
    if cluster is not None and owner is not None:
        cluster.forward(conn, owner, message)
        if isinstance(message, Leave):
            conn.tables.discard(message.table)
        return
    joined = hub.tables.get(message.table)
    if joined is None or message.table not in conn.tables:
        ref = message.ref if isinstance(message, Act) else None
        raise ProtocolError(ErrorCode.NOT_JOINED, "join the table first", ref=ref)
    if isinstance(message, Leave):
        joined.post(commands.Leave(conn))
    elif isinstance(message, Act):
        joined.post(commands.Act(conn, message.action, message.ref, message.lag_ms))
    elif isinstance(message, Ready):
        joined.post(commands.Ready(conn))
    elif isinstance(message, SeedCommit):
        joined.post(commands.SeedCommit(conn, message.commitment))
    elif isinstance(message, SeedReveal):
        joined.post(commands.SeedReveal(conn, message.number, message.seed))
    else:
        joined.post(commands.Chat(conn, message.text))


async def _write(socket: WebSocket, conn: Connection, deadline: float) -> None:
    """Send the outbox's messages in order. A message the client does not take within
    ``deadline`` seconds ends the connection: a client that never reads would otherwise hold
    its socket, and its seat would look connected, for ever."""
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                break
            await asyncio.wait_for(socket.send_text(text), deadline)
    except TimeoutError:
        log.info("connection %s: the client took no message for %.0f s; dropped", conn.id, deadline)
        conn.closed = True
        return  # no closing handshake: the client is not reading it
    except Exception:  # the socket went away: the reader sees it and cleans up
        conn.closed = True
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.close(code=conn.close_code or 1000), deadline)


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_websocket_route("/ws", websocket)
