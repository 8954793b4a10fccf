"""``burraco bot-connect``: an outside program plays online as a bot account
(``burraco.server.botclient``; docs/bot-protocol.md "Playing online: bot-connect")."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys


def run(args: argparse.Namespace) -> int:
    from burraco.server.botclient import BotClient, Settings

    token = args.token or os.environ.get("BURRACO_BOT_TOKEN")
    if not token:
        print("burraco bot-connect: give the bot's token (--token or BURRACO_BOT_TOKEN)",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.games is not None and args.games < 1:
        print("burraco bot-connect: --games must be 1 or more", file=sys.stderr)
        return 2
    if args.time_ms < 1:
        print("burraco bot-connect: --time-ms must be positive", file=sys.stderr)
        return 2
    settings = Settings(
        server=args.server,
        token=token,
        command=args.cmd,
        accept=tuple(args.accept or ("challenges",)),
        games=args.games,
        tables=tuple(args.table),
        time_limit=args.time_ms / 1000,
        players=args.players,
        rules=args.rules,
        clock=args.clock,
        rated=args.rated,
        bots_after=args.bots_after,
        stderr_path=args.stderr,
        seed=args.seed,
    )

    def say(text: str) -> None:
        print(f"bot-connect: {text}", file=sys.stderr, flush=True)

    async def main() -> int:
        client = BotClient(settings, say=say)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, client.stop)
        return await client.run()

    return asyncio.run(main())
