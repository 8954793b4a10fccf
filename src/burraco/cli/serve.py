"""``burraco serve``: the online server (HTTP API, WebSocket play, the browser client)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "serve",
        help="start the server and play in the browser",
        description="Start the Burraco server (an embedded SQLite database by default).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (8000)")
    parser.add_argument(
        "--database-url",
        help="e.g. postgresql://user@host/db (default: SQLite in the data folder)",
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="data folder (data)")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits")
    parser.add_argument(
        "--disconnect-grace", type=float, default=60.0, help="seconds before a bot takes a seat"
    )
    parser.add_argument(
        "--messages-per-second",
        type=float,
        default=20.0,
        help="WebSocket messages a connection may send per second, bursts 3x (20)",
    )
    parser.add_argument(
        "--login-attempts-per-minute",
        type=float,
        default=10.0,
        help="logins, registrations and guest sessions per address or name a minute (10)",
    )
    parser.add_argument(
        "--max-sockets-per-user",
        type=int,
        default=16,
        help="WebSockets one account may hold open at once (16)",
    )
    parser.add_argument(
        "--max-open-tables-per-user",
        type=int,
        default=10,
        help="tables one account may have waiting for players (10)",
    )
    parser.add_argument("--secure-cookies", action="store_true", help="behind HTTPS")
    parser.add_argument("--log-level", default="info", help="debug, info, warning (info)")
    parser.add_argument(
        "--test-seed",
        type=int,
        default=None,
        help="FOR TESTS ONLY: predictable deals from this seed instead of the CSPRNG"
        " (never on a real server: anyone knowing the seed knows every deal)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from burraco.server.app import create_app
    from burraco.server.config import ServerConfig

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
        secure_cookies=args.secure_cookies,
        test_seed=args.test_seed,
    )
    if args.test_seed is not None:
        logging.getLogger("burraco.server").warning(
            "--test-seed %d: deals are predictable; this server is for tests only", args.test_seed
        )
    print(f"Burraco server: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops it)")
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=1 << 20,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    return 0
