"""The ``burraco`` command.

It stays light: building the parser imports argparse and nothing of the engine, the store, the
server or the club (``parsers.py``); a command's module, and what it needs, is imported when the
command runs. ``club`` builds its many actions in ``cli/club.py``, on the store: its parser is
built only when ``club`` is the command, and ``burraco --help`` lists it from the line below.
The commands of the server extra (``serve``, ``db``, ``club``) check that the extra is
installed before anything else (``extras.py``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from burraco import __version__

from . import extras, parsers

CLUB_HELP = "the club manager: calendar, check-in, draws, results, standings, fees"
SERVER_COMMANDS = ("serve", "db", "club", "bot-connect")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; ``club``'s actions only when ``command`` is ``"club"``."""
    parser = argparse.ArgumentParser(
        prog="burraco", description="Burraco: rules engine, bots, records and tools."
    )
    parser.add_argument("--version", action="version", version=f"burraco {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parsers.add_play_parser(commands)
    parsers.add_replay_parser(commands)
    parsers.add_review_parser(commands)
    parsers.add_verify_parser(commands)
    parsers.add_simulate_parser(commands)
    parsers.add_rules_parser(commands)
    parsers.add_serve_parser(commands)
    parsers.add_arena_parser(commands)
    parsers.add_db_parser(commands)
    parsers.add_bot_connect_parser(commands)
    if command == "club":
        importlib.import_module("burraco.cli.club").add_parser(commands)
    else:
        commands.add_parser("club", help=CLUB_HELP)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word, since no option of ``burraco`` takes a
    value; None when ``--help`` or ``--version`` comes first (argparse answers those)."""
    for arg in argv:
        if arg in ("-h", "--help", "--version"):
            return None
        if not arg.startswith("-"):
            return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = command_of(argv)
    try:
        if command in SERVER_COMMANDS:
            extras.require("server", f"burraco {command}")
        parser = build_parser(command)
        args = parser.parse_args(argv)
        if command in SERVER_COMMANDS and extras.is_postgres(getattr(args, "database_url", None)):
            extras.require("postgres", f"burraco {command} on PostgreSQL")
    except extras.MissingExtra as error:
        print(error, file=sys.stderr)
        return 2
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        code: int = args.run(args)
    except extras.MissingExtra as error:
        print(error, file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        # A package of an extra that no check foresaw (the club's chart, say): the same
        # sentence, not a traceback. Any other missing module is a bug, and is raised.
        extra = extras.extra_providing(error.name)
        if extra is None:
            raise
        print(extras.sentence(extra, f"burraco {args.command}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:
        if not (isinstance(error, ValueError) or _is_burraco_error(error)):
            raise
        print(f"burraco {args.command}: {error}", file=sys.stderr)
        return 2
    return code


def _is_burraco_error(error: Exception) -> bool:
    # The engine's errors module is not imported here (it would import the whole engine for
    # every command): a BurracoError can only have been raised if its module is loaded.
    errors = sys.modules.get("burraco.engine.errors")
    return errors is not None and isinstance(error, errors.BurracoError)


if __name__ == "__main__":
    sys.exit(main())
