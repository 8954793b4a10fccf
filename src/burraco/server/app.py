"""The ASGI application: the HTTP API (accounts, lobby, records; OpenAPI at /api/docs), the
WebSocket endpoint for play (docs/protocol.md), and the browser client's static files."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Request, Response, WebSocket
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from burraco import __version__
from burraco.bots import BOT_LEVELS
from burraco.bots.registry import parse_spec
from burraco.engine import preset_names
from burraco.engine.errors import RecordError
from burraco.errors import ServiceError
from burraco.store import Store, UserInfo

from . import auth, errors, fairness, messages, tournament_routes
from .botrunner import BotRunner
from .collector import Collector
from .config import ServerConfig
from .connection import Connection
from .hub import Hub
from .protocol import (
    PROTOCOL_VERSION,
    Act,
    Chat,
    ErrorCode,
    Join,
    Leave,
    Ping,
    ProtocolError,
    UnwatchTournament,
    WatchTournament,
    decode,
    encode,
)
from .ratelimit import Bucket, RateLimiter
from .replay import replay_json
from .routes import club as club_routes
from .table import TableError, commands
from .tableconfig import TableConfig
from .tournaments import TournamentError, TournamentManager

log = logging.getLogger("burraco.server")
WEB = Path(__file__).resolve().parent.parent / "web"


# ----------------------------------------------------------------------------- request bodies


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool


class LoginOut(BaseModel):
    user: UserOut
    token: str = Field(description="Bearer token for programs (browsers get a cookie too)")


class NewTable(BaseModel):
    rules: str = "italian"
    players: int = Field(2, ge=2, le=4)
    target: int | None = Field(None, ge=100, le=10005)
    smazzate: int | None = Field(None, ge=1, le=20)
    options: dict[str, Any] = Field(default_factory=dict)
    round_seconds: float | None = None
    hand_seconds: float | None = None
    public: bool = True
    between_smazzate: float = 4.0
    seat: int | None = Field(0, description="Sit here at once (None: create without sitting)")
    bots: dict[int, str] = Field(
        default_factory=dict, description="Seats to fill with bots at once: seat -> level"
    )


class SeatRequest(BaseModel):
    seat: int = Field(ge=0, le=3)


class BotRequest(BaseModel):
    seat: int = Field(ge=0, le=3)
    level: str | None = Field(description="A bot level, or null to remove the seat's bot")


# -------------------------------------------------------------- answers (for the OpenAPI file)


class ErrorOut(BaseModel):
    error: str = Field(description="A code, e.g. seat_taken (docs/protocol.md)")
    message: str = Field(description="What went wrong, in words")


class SeatOut(BaseModel):
    seat: int
    name: str | None
    bot: str | None = Field(description="The bot level holding the seat")
    connected: bool
    away: bool
    substitute: str | None = Field(description="The bot level playing for an absent player")


class TableOut(BaseModel):
    id: str = Field(description="Random and unguessable: a private table's invitation")
    status: str = Field(description="open, playing or finished")
    config: dict[str, Any] = Field(description="The settings the table was created with")
    seats: list[SeatOut]
    match_no: int
    created_by: int | None


class LobbyTableOut(TableOut):
    free_seats: list[int]


class MatchOut(BaseModel):
    table: str
    match: int
    finished_at: str
    players: list[str]
    totals: list[int]
    winner: int | None
    ended: str = Field(description="complete or timeout")


class InfoOut(BaseModel):
    version: str
    protocol: int
    presets: list[str]
    bots: list[str]


class StatsOut(BaseModel):
    tables: int = Field(description="tables held by this process")
    connections: int = Field(description="open WebSocket connections")
    gc: dict[str, Any] = Field(description="the garbage collector's record (collector.py)")


ERROR_SCHEMA = "#/components/schemas/ErrorOut"


def _answers(
    model: type[BaseModel] | None, *errors: int, status: int = 200
) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: its answer's schema and its ``{error, message}`` errors."""
    out: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in errors}
    if model is not None:
        out[status] = {"model": model}
    return out


def _user_out(user: UserInfo) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


async def current_user(request: Request) -> UserInfo:
    """The logged-in user, from the session cookie or an ``Authorization: Bearer`` token."""
    hub: Hub = request.app.state.hub
    user = await _user_from(request.headers.get("authorization"), request.cookies, hub.store)
    if user is None:
        raise auth.AuthError("not_authenticated", "log in first")
    return user


CurrentUser = Annotated[UserInfo, Depends(current_user)]


# ------------------------------------------------------------------------------------ the app


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _redact_tokens_in_logs()
        if config.test_seed is not None:  # tests only: predictable deals
            fairness.use_test_seed(config.test_seed)
        store = await Store.open(config.database())
        hub = Hub(config, store, BotRunner(processes=config.bot_workers))
        app.state.hub = hub
        hub.tournaments = TournamentManager(hub)  # told of tables that finish while resuming
        resumed = await hub.recover()
        await hub.tournaments.start()
        collector = Collector(
            young_every=config.gc_young_seconds,
            sweep_check_every=config.gc_sweep_check_seconds,
        )
        collector.start()
        app.state.collector = collector
        log.info("burraco server %s ready (%d tables resumed)", __version__, resumed)
        yield
        await collector.close()
        await hub.tournaments.close()
        await hub.close()

    app = FastAPI(
        title="Burraco",
        version=__version__,
        lifespan=lifespan,
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    login_limiter = RateLimiter(rate=config.login_attempts_per_minute / 60, burst=5)

    def hub() -> Hub:
        found: Hub = app.state.hub
        return found

    async def table_command(table_id: str, command: commands.LobbyCommand) -> dict[str, Any]:
        """Run a lobby command on a table's actor; its answer is the table's info."""
        actor = await hub().table(table_id)
        answer: dict[str, Any] = await actor.call(command)
        return answer

    def _session_response(response: Response, user: UserInfo, token: str) -> LoginOut:
        response.set_cookie(
            auth.SESSION_COOKIE,
            token,
            max_age=30 * 24 * 3600,
            httponly=True,
            samesite="lax",
            secure=config.secure_cookies,
        )
        return LoginOut(user=_user_out(user), token=token)

    errors.install(app)

    # -- accounts --

    @app.post(
        "/api/register", status_code=201, tags=["accounts"], responses=_answers(None, 400, 409, 429)
    )
    async def register(body: Credentials, request: Request, response: Response) -> LoginOut:
        _limit(login_limiter, request)
        user = await auth.register(hub().store, body.name, body.password)
        return _session_response(response, user, await hub().store.create_session(user.id))

    @app.post("/api/login", tags=["accounts"], responses=_answers(None, 401, 429))
    async def login(body: Credentials, request: Request, response: Response) -> LoginOut:
        _limit(login_limiter, request, body.name)
        user = await auth.login(hub().store, body.name, body.password)
        return _session_response(response, user, await hub().store.create_session(user.id))

    @app.post("/api/guest", tags=["accounts"], responses=_answers(None, 429))
    async def guest(request: Request, response: Response) -> LoginOut:
        _limit(login_limiter, request)
        user = await auth.guest(hub().store)
        return _session_response(response, user, await hub().store.create_session(user.id, days=2))

    @app.post("/api/logout", status_code=204, tags=["accounts"])
    async def logout(request: Request, response: Response) -> None:
        token = _token(request.headers.get("authorization"), request.cookies)
        if token:
            await hub().store.delete_session(token)
        response.delete_cookie(auth.SESSION_COOKIE)

    @app.get("/api/me", tags=["accounts"], responses=_answers(None, 401))
    async def me(user: CurrentUser) -> UserOut:
        return _user_out(user)

    # -- lobby --

    @app.get(
        "/api/tables",
        tags=["lobby"],
        response_model=None,
        responses={200: {"model": list[LobbyTableOut]}},
    )
    async def tables() -> list[dict[str, Any]]:
        return hub().lobby()

    @app.post(
        "/api/tables",
        status_code=201,
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 409, 422, 429, status=201),
    )
    async def create(body: NewTable, user: CurrentUser) -> dict[str, Any]:
        settings = TableConfig(
            rules=body.rules,
            players=body.players,
            target=body.target,
            smazzate=body.smazzate,
            options=body.options,
            round_seconds=body.round_seconds,
            hand_seconds=body.hand_seconds,
            public=body.public,
            between_smazzate=body.between_smazzate,
        )
        if body.seat is not None and not 0 <= body.seat < body.players:
            raise TableError("no_such_seat", f"there is no seat {body.seat}")
        for seat, level in body.bots.items():
            _check_bot(level)
            if not 0 <= seat < body.players or seat == body.seat:
                raise TableError("no_such_seat", f"seat {seat} cannot take a bot")
        actor = await hub().create_table(user, settings, seat=body.seat, bot_seats=len(body.bots))
        info: dict[str, Any] = actor.info_json()
        for seat, level in sorted(body.bots.items()):
            info = await actor.call(commands.SeatBot(user, seat, level))
        return info

    @app.get(
        "/api/tables/{table_id}",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 404),
    )
    async def table(table_id: str) -> dict[str, Any]:
        return (await hub().table(table_id)).info_json()

    @app.post(
        "/api/tables/{table_id}/sit",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 404, 409),
    )
    async def sit(table_id: str, body: SeatRequest, user: CurrentUser) -> dict[str, Any]:
        return await table_command(table_id, commands.Sit(user, body.seat))

    @app.post(
        "/api/tables/{table_id}/stand",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 404, 409),
    )
    async def stand(table_id: str, user: CurrentUser) -> dict[str, Any]:
        return await table_command(table_id, commands.Stand(user))

    @app.post(
        "/api/tables/{table_id}/cancel",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 403, 404, 409),
    )
    async def cancel(table_id: str, user: CurrentUser) -> dict[str, Any]:
        return await table_command(table_id, commands.Cancel(user))

    @app.post(
        "/api/tables/{table_id}/bots",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 403, 404, 409),
    )
    async def bot(table_id: str, body: BotRequest, user: CurrentUser) -> dict[str, Any]:
        if body.level is not None:
            _check_bot(body.level)
        return await table_command(table_id, commands.SeatBot(user, body.seat, body.level))

    @app.post(
        "/api/tables/{table_id}/rematch",
        tags=["lobby"],
        response_model=None,
        responses=_answers(TableOut, 401, 403, 404, 409),
    )
    async def rematch(table_id: str, user: CurrentUser) -> dict[str, Any]:
        return await table_command(table_id, commands.Rematch(user))

    @app.get(
        "/api/tables/{table_id}/record",
        tags=["history"],
        response_class=PlainTextResponse,
        responses={
            200: {"content": {"application/toml": {"schema": {"type": "string"}}}},
            404: {
                "description": "No finished match there",
                "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}},
            },
        },
    )
    async def record(table_id: str, match: int = 1) -> Response:
        text = await hub().store.match_record(table_id, match)
        if text is None:
            return errors.refusal(ErrorCode.NO_RECORD, "no finished match there")
        return PlainTextResponse(
            text,
            media_type="application/toml",
            headers={
                "Content-Disposition": f'attachment; filename="burraco-{table_id}-{match}.toml"'
            },
        )

    @app.get("/api/tables/{table_id}/replay", tags=["history"])
    async def replay(table_id: str, match: int = 1) -> Any:
        """The finished match replayed by the engine: per smazzata, the public view after the
        deal and after each action, with every seat's hand (the match is over)."""
        text = await hub().store.match_record(table_id, match)
        if text is None:
            return errors.refusal(ErrorCode.NO_RECORD, "no finished match there")
        try:
            return await asyncio.to_thread(replay_json, text)
        except RecordError as error:
            return errors.refusal(ErrorCode.BAD_RECORD, str(error))

    @app.get(
        "/api/matches",
        tags=["history"],
        response_model=None,
        responses=_answers(None, 401) | {200: {"model": list[MatchOut]}},
    )
    async def matches(mine: bool = False, request: Request = None) -> list[dict[str, Any]]:  # type: ignore[assignment]
        name = None
        if mine:
            user = await current_user(request)
            name = user.name
        rows = await hub().store.matches(user_name=name)
        return [
            {
                "table": r.table_id,
                "match": r.match_no,
                "finished_at": r.finished_at.isoformat(),
                "players": r.players,
                "totals": r.totals,
                "winner": r.winner,
                "ended": r.ended,
            }
            for r in rows
        ]

    @app.get("/api/info", tags=["lobby"], response_model=None, responses=_answers(InfoOut))
    async def server_info() -> dict[str, Any]:
        return {
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "presets": list(preset_names()),
            "bots": sorted(BOT_LEVELS),
        }

    @app.get(
        "/api/server/stats", tags=["server"], response_model=None, responses=_answers(StatsOut)
    )
    async def server_stats() -> dict[str, Any]:
        """Operating figures of this server process (for operators and the load benchmark)."""
        collector: Collector = app.state.collector
        return {
            "tables": len(hub().tables),
            "connections": len(hub().connections),
            "gc": collector.stats.as_json(),
        }

    # -- play --

    @app.websocket("/ws")
    async def websocket(socket: WebSocket) -> None:
        await serve_socket(socket, hub(), config)

    club_routes.install(app)  # /api/club/... (before the static files mounted at /)
    tournament_routes.install(app)  # /api/tournaments/...

    if WEB.is_dir():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


MAX_BOT_SECONDS = 5.0
"""The longest a bot seated from the lobby may think per move (``search:seconds=S``)."""


_TOKEN_IN_URL = re.compile(r"([?&]token=)[^&\s\"]+")


class _RedactTokens(logging.Filter):
    """Keeps session tokens out of the server's logs: uvicorn logs every request's path with
    its query, and a WebSocket may carry its token there (``/ws?token=...``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_IN_URL.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True


def _redact_tokens_in_logs() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _RedactTokens) for f in logger.filters):
            logger.addFilter(_RedactTokens())


def _check_bot(level: str) -> None:
    """A bot level the lobby may seat: a known level, never an outside program (``cmd:``), and
    no options but a bounded thinking time (other options, such as a number of iterations,
    could make a bot think without end in the shared worker processes)."""
    try:
        name, options = parse_spec(level)
    except ValueError:
        name, options = "", {}
    if name not in BOT_LEVELS or name == "cmd" or len(level) > 64:
        raise TableError("no_such_bot", f"unknown bot level {level[:64]!r}")
    seconds = options.pop("seconds", None)
    if options or (
        seconds is not None
        and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds <= MAX_BOT_SECONDS
        )
    ):
        raise TableError(
            "no_such_bot",
            f"a bot level takes no options but seconds (at most {MAX_BOT_SECONDS:g})",
        )


def _limit(limiter: RateLimiter, request: Request, name: str | None = None) -> None:
    address = request.client.host if request.client else "?"
    keys = [f"ip:{address}"] + ([f"name:{auth.name_key(name)}"] if name else [])
    if not all(limiter.allow(key) for key in keys):
        raise auth.AuthError("rate_limited", "too many attempts; wait a minute")


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def _token(authorization: str | None, cookies: dict[str, str]) -> str | None:
    return _bearer(authorization) or cookies.get(auth.SESSION_COOKIE)


async def _user_from(
    authorization: str | None, cookies: dict[str, str], store: Store, query_token: str | None = None
) -> UserInfo | None:
    token = query_token or _token(authorization, cookies)
    if not token:
        return None
    return await store.session_user(token)


def _cross_origin_cookie(socket: WebSocket) -> bool:
    """True when a browser page of another origin opens the socket with the session cookie.

    Browsers send cookies with WebSocket handshakes and do not apply the same-origin policy to
    them, so the server checks ``Origin`` (cross-site WebSocket hijacking). Tokens sent in the
    header or the query are not ambient and need no check; nor do programs (no ``Origin``)."""
    if socket.query_params.get("token") or _bearer(socket.headers.get("authorization")):
        return False
    origin = socket.headers.get("origin")
    if not origin:
        return False
    hosts = {socket.headers.get("host"), socket.headers.get("x-forwarded-host")} - {None}
    return urlsplit(origin).netloc.lower() not in {str(host).lower() for host in hosts}


async def serve_socket(socket: WebSocket, hub: Hub, config: ServerConfig) -> None:
    user = await _user_from(
        socket.headers.get("authorization"),
        socket.cookies,
        hub.store,
        socket.query_params.get("token"),
    )
    if user is not None and _cross_origin_cookie(socket):
        user = None  # a page of another site may not play with the visitor's cookie
    # Accept before closing: a close before the handshake is an HTTP 403 to the client, and a
    # browser cannot read it; the close code 4401 says what to do (log in).
    await socket.accept()
    if user is None:
        await socket.close(
            code=errors.close_code(ErrorCode.NOT_AUTHENTICATED), reason="not authenticated"
        )
        return
    conn = hub.connect(user)
    if conn is None:
        await socket.close(
            code=errors.close_code(ErrorCode.TOO_MANY_SOCKETS),
            reason=f"too many connections: at most {config.max_sockets_per_user} per account",
        )
        return
    writer = asyncio.get_running_loop().create_task(_write(socket, conn))
    bucket = Bucket(
        config.messages_per_second,
        config.messages_per_second * 3,
        config.messages_per_second * 3,
        time.monotonic(),
    )
    conn.send(encode(messages.welcome(user, time.time())))
    try:
        while not conn.closed:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if not bucket.take():
                limited = ProtocolError(ErrorCode.RATE_LIMITED, "too many messages; slow down")
                conn.send(encode(messages.error(limited)))
                continue
            try:
                await _dispatch(conn, decode(frame), hub)
            except ServiceError as error:
                conn.send(encode(messages.error(error)))
            except Exception:  # a bug must not cost the client its connection
                log.exception("connection %s: message failed", conn.id)
                failure = ProtocolError(ErrorCode.SERVER_ERROR, "the server could not do that")
                conn.send(encode(messages.error(failure)))
    except WebSocketDisconnect:
        pass
    finally:
        for table_id in list(conn.tables):
            actor = hub.tables.get(table_id)
            if actor is not None:
                actor.post(commands.Disconnect(conn))
        conn.close()
        hub.disconnect(conn)
        await asyncio.gather(writer, return_exceptions=True)


async def _dispatch(conn: Connection, message: object, hub: Hub) -> None:
    if isinstance(message, Ping):
        conn.send(encode(messages.pong(message.t, time.time())))
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
    if isinstance(message, Join):
        try:
            actor = await hub.table(message.table)
        except TableError as error:
            raise ProtocolError(ErrorCode.NO_SUCH_TABLE, error.message) from None
        actor.post(commands.Join(conn, message.last_seq))
        conn.tables.add(message.table)
        return
    assert isinstance(message, Leave | Act | Chat)
    joined = hub.tables.get(message.table)
    if joined is None or message.table not in conn.tables:
        ref = message.ref if isinstance(message, Act) else None
        raise ProtocolError(ErrorCode.NOT_JOINED, "join the table first", ref=ref)
    if isinstance(message, Leave):
        joined.post(commands.Leave(conn))
    elif isinstance(message, Act):
        joined.post(commands.Act(conn, message.action, message.ref, message.lag_ms))
    else:
        joined.post(commands.Chat(conn, message.text))


async def _write(socket: WebSocket, conn: Connection) -> None:
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                break
            await socket.send_text(text)
    except Exception:  # the socket went away: the reader sees it and cleans up
        conn.closed = True
    with contextlib.suppress(Exception):
        await socket.close()
