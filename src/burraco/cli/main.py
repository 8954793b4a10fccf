"""The ``burraco`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from burraco import __version__
from burraco.engine.errors import BurracoError

from . import arena, club, db, play, replay, rules_cmd, serve, simulate


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burraco", description="Burraco: rules engine, bots, records and tools."
    )
    parser.add_argument("--version", action="version", version=f"burraco {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    play.add_parser(commands)
    replay.add_parser(commands)
    simulate.add_parser(commands)
    rules_cmd.add_parser(commands)
    serve.add_parser(commands)
    arena.add_parser(commands)
    db.add_parser(commands)
    club.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        code: int = args.run(args)
    except (BurracoError, ValueError) as error:
        print(f"burraco {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
