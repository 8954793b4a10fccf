"""``burraco serve``: the online server (HTTP API, WebSocket play, the browser client)."""

from __future__ import annotations

import argparse
import logging
import os


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from burraco.server.app import create_app
    from burraco.server.config import ServerConfig
    from burraco.server.transport import TransportLimits

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    config = ServerConfig(
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
        chats_per_minute_per_account=args.chats_per_minute,
        chats_per_minute_per_table=args.table_chats_per_minute,
        joins_per_minute=args.joins_per_minute,
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
    )
    if args.test_seed is not None:
        logging.getLogger("burraco.server").warning(
            "--test-seed %d: deals are predictable; this server is for tests only", args.test_seed
        )
    print(f"Burraco server: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops it)")
    limits = TransportLimits(
        header_timeout=args.header_timeout,
        keep_alive=args.keep_alive,
        max_connections=args.max_connections,
    )
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        **limits.uvicorn_options(),
    )
    return 0
