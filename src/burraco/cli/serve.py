"""``burraco serve``: the online server (HTTP API, WebSocket play, the browser client)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from burraco.server.config import ServerConfig
    from burraco.server.transport import TransportLimits


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from burraco.server.app import create_app

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    config = server_config(args)
    if args.redis_url and not (args.database_url or "").startswith("postgres"):
        print("burraco serve: --redis-url needs a PostgreSQL --database-url (docs/cluster.md)")
        return 2
    if args.test_seed is not None:
        logging.getLogger("burraco.server").warning(
            "--test-seed %d: deals are predictable; this server is for tests only", args.test_seed
        )
    print(f"Burraco server: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops it)")
    limits = transport_limits(args)
    app = create_app(config)
    server = draining_server(app)(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            **limits.uvicorn_options(),
        )
    )
    server.run()
    return 0


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The server's settings from ``burraco serve``'s options (also what the browser tests'
    in-process server is built from)."""
    from burraco.server.config import ServerConfig

    return ServerConfig(
        database_url=args.database_url,
        data_dir=args.data_dir,
        bot_delay=args.bot_delay,
        disconnect_grace=args.disconnect_grace,
        messages_per_second=args.messages_per_second,
        login_attempts_per_minute=args.login_attempts_per_minute,
        max_sockets_per_user=args.max_sockets_per_user,
        max_open_tables_per_user=args.max_open_tables_per_user,
        max_live_tables_per_user=args.max_live_tables_per_user,
        max_bot_tables_per_user=args.max_bot_tables_per_user,
        max_tournaments_per_user=args.max_tournaments_per_user,
        max_organiser_bots=args.max_organiser_bots,
        chats_per_minute_per_account=args.chats_per_minute,
        chats_per_minute_per_table=args.table_chats_per_minute,
        joins_per_minute=args.joins_per_minute,
        joins_per_minute_per_account=args.account_joins_per_minute,
        invitations_per_minute_per_account=args.invitations_per_minute,
        secure_cookies=args.secure_cookies,
        allowed_origin_hosts=tuple(args.allowed_origin_host),
        test_seed=args.test_seed,
        smtp_host=args.smtp_host,
        smtp_port=args.smtp_port,
        smtp_starttls=args.smtp_starttls,
        smtp_username=args.smtp_username,
        smtp_password=os.environ.get("BURRACO_SMTP_PASSWORD"),
        mail_from=args.mail_from,
        public_url=args.public_url,
        redis_url=args.redis_url,
        node_name=args.node or f"{args.host}:{args.port}",
        cluster_name=args.cluster_name,
        node_address=f"{args.host}:{args.port}",
        lease_seconds=args.lease_seconds,
        review_workers=args.review_workers,
        review_queue=args.review_queue,
        review_seconds=args.review_seconds,
        reviews_per_day=args.reviews_per_day,
        reviews_pending_per_user=args.reviews_pending_per_user,
    )


def transport_limits(args: argparse.Namespace) -> TransportLimits:
    """uvicorn's limits from ``burraco serve``'s options."""
    from burraco.server.transport import TransportLimits

    return TransportLimits(
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        max_body_bytes=args.max_body_bytes,
        max_header_bytes=args.max_header_bytes,
        max_headers=args.max_headers,
        keep_alive=args.keep_alive,
        max_connections=args.max_connections,
        forwarded_allow_ips=tuple(args.forwarded_allow_ips),
    )


def draining_server(app: Any) -> type[Any]:
    """uvicorn's ``Server`` class for ``app``, draining on SIGTERM in a cluster."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        """uvicorn's server, except that in a cluster SIGTERM first drains the process (its
        tables handed to the others, its sockets closed with 4503: docs/cluster.md), then stops
        as uvicorn does. A second signal stops at once."""

        _draining = False
        _loop: asyncio.AbstractEventLoop | None = None

        async def startup(self, sockets: Any = None) -> None:
            self._loop = asyncio.get_running_loop()
            await super().startup(sockets)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            hub = getattr(app.state, "hub", None)
            cluster = None if hub is None else hub.cluster
            if sig != signal.SIGTERM or self._draining or cluster is None or self._loop is None:
                super().handle_exit(sig, frame)
                return
            self._draining = True
            loop = self._loop

            def stop(_: object) -> None:
                super(DrainingServer, self).handle_exit(sig, frame)

            def begin() -> None:
                loop.create_task(cluster.drain()).add_done_callback(stop)

            loop.call_soon_threadsafe(begin)

    return DrainingServer
