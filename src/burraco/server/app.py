"""The ASGI application: the HTTP API (accounts, lobby, records; OpenAPI at /api/docs), the
WebSocket endpoint for play (docs/protocol.md), and the browser client's static files. The
routes live in ``server/routes/``, one module per area; this module wires them."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI

from burraco import __version__
from burraco.store import Store

from . import errors
from .botrunner import BotRunner
from .clock import Clock, SystemClock
from .cluster.forward import ForwardToOwner
from .collector import Collector
from .config import ServerConfig
from .headers import SecurityHeaders
from .hub import Hub
from .ratelimit import FailureDelay, RateLimiter
from .routes import (
    account,
    accounts,
    bots,
    friends,
    history,
    info,
    lessons,
    lobby,
    moderation,
    pages,
    quickplay,
    ratings,
    reviews,
    rulesets,
    ws,
)
from .routes import club as club_routes
from .routes import tournaments as tournament_routes
from .routes.models import describe_invalid_requests
from .tournaments import TournamentManager

log = logging.getLogger("burraco.server")

Lifespan = Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]


class _App(FastAPI):
    def openapi(self) -> dict[str, Any]:
        """The description, with request validation errors as the app answers them."""
        if self.openapi_schema is None:
            self.openapi_schema = describe_invalid_requests(super().openapi())
        return self.openapi_schema


def create_app(config: ServerConfig | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The app; ``clock``: the time of its hub, tables and limits (a test's ``FakeClock``;
    the real one by default)."""
    config = config or ServerConfig()
    clock = clock or SystemClock()
    app = _App(
        title="Burraco",
        version=__version__,
        lifespan=_lifespan(config, clock),
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    # Logins are limited on the wall clock (as their FailureDelay): a security measure, not
    # play; an app on a test's fake clock still takes its clients' logins.
    app.state.login_limiter = RateLimiter(rate=config.login_attempts_per_minute / 60, burst=5)
    app.state.login_failures = FailureDelay()
    errors.install(app)
    app.add_middleware(SecurityHeaders)
    # Outermost: a request forwarded to another process comes back with that process's headers.
    app.add_middleware(ForwardToOwner)
    for area in (
        accounts,
        account,
        bots,
        lobby,
        lessons,
        history,
        info,
        ratings,
        reviews,
        quickplay,
        moderation,
        friends,
        rulesets,
        ws,
    ):
        area.install(app)
    club_routes.install(app)  # /api/club/... (before the static files mounted at /)
    tournament_routes.install(app)  # /api/tournaments/...
    pages.mount(app)
    return app


def _lifespan(config: ServerConfig, clock: Clock) -> Lifespan:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _redact_tokens_in_logs()
        store = await Store.open(config.database())
        hub = Hub(config, store, BotRunner(processes=config.bot_workers), clock=clock)
        app.state.hub = hub
        if config.redis_url is not None:
            from .cluster.node import Cluster  # Redis's client only for a cluster

            hub.cluster = Cluster(
                hub,
                redis_url=config.redis_url,
                name=config.node_name or config.process_id,
                cluster_name=config.cluster_name,
                address=config.node_address,
                ttl=config.lease_seconds,
            )
            hub.cluster.app = app
            await hub.cluster.start()
        hub.tournaments = TournamentManager(hub)  # told of tables that finish while resuming
        resumed = await hub.recover()
        await hub.reviews.start()
        if hub.cluster is None:  # in a cluster, the process holding their role runs them
            await hub.tournaments.start()
            hub.quickplay.start()
        collector = Collector(
            young_every=config.gc_young_seconds,
            sweep_check_every=config.gc_sweep_check_seconds,
        )
        collector.start()
        app.state.collector = collector
        log.info("burraco server %s ready (%d tables resumed)", __version__, resumed)
        yield
        await collector.close()
        await hub.quickplay.close()
        await hub.tournaments.close()
        if hub.cluster is not None:
            await hub.cluster.drain()  # nothing left to hand over if SIGTERM drained it
            await hub.cluster.close()
        await hub.close()

    return lifespan


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
