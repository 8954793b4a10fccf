"""The argument parsers of the commands (all but ``club``, which ``cli/club.py`` builds).

Building them imports nothing but argparse: ``burraco --help`` and the parsing of any command
stay light. Each command's work lives in its own module (``replay.py``, ``serve.py``, ...),
imported only when that command runs (``Run``). The help of ``--rules`` and ``--bots`` names
the presets and the bot levels, which live in the engine and the bots: the help formatter fills
them in when a command's help is shown, importing those packages only then.
"""

from __future__ import annotations

import argparse
import importlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class Run:
    """``args.run``: the function ``module.function(args)``, its module imported when called."""

    def __init__(self, module: str, function: str = "run") -> None:
        self.module = module
        self.function = function

    def __call__(self, args: argparse.Namespace) -> int:
        code: int = getattr(importlib.import_module(self.module), self.function)(args)
        return code


class NamesHelpFormatter(argparse.HelpFormatter):
    """Fills ``{presets}`` and ``{bot_levels}`` in an option's help as the help is shown."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if text is None or ("{presets}" not in text and "{bot_levels}" not in text):
            return text
        from burraco.bots import BOT_LEVELS
        from burraco.engine import preset_names

        return text.format(presets=", ".join(preset_names()), bot_levels=", ".join(BOT_LEVELS))


# ------------------------------------------------------------------- options shared by commands


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="italian",
        help="ruleset preset: {presets} (default: italian)",
    )
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=2, help="players at the table"
    )
    parser.add_argument("--target", type=int, help="play to a target score (505 ... 5005)")
    parser.add_argument("--smazzate", type=int, help="play a fixed number of smazzate")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one ruleset parameter (repeatable), e.g. stall_limit=0",
    )


def add_bot_options(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--bots",
        default=default,
        help=(
            "comma-separated bot levels, one per seat, repeated in seat order if fewer"
            " ({bot_levels})"
        ),
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")


# --------------------------------------------------------------------------- offline commands


def add_play_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "play",
        help="watch a match between bots in the terminal",
        description="Play a match between bots and show it live in the terminal.",
        formatter_class=NamesHelpFormatter,
    )
    add_rules_options(parser)
    add_bot_options(parser, default="greedy,random")
    parser.add_argument(
        "--delay",
        type=float,
        default=None,
        help="seconds between turns (default 0.02 on a terminal)",
    )
    parser.add_argument("--quiet", action="store_true", help="only the score sheets")
    parser.add_argument("--record", metavar="FILE", help="write the match as a game record")
    parser.set_defaults(run=Run("burraco.cli.play"))


def add_replay_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "replay",
        help="replay a game record and print its score sheet",
        description="Replay a game record through the engine and print the score sheet.",
    )
    parser.add_argument("file", help="the record (TOML); - for standard input")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.set_defaults(run=Run("burraco.cli.replay"))


def add_review_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "review",
        help="the search bot reviews one seat's decisions in a game record",
        description=(
            "Review each decision of one seat of a game record with the search bot, from what"
            " that seat saw: the Match Points each choice cost, mistakes and blunders marked."
        ),
    )
    parser.add_argument("file", help="the record (TOML); - for standard input")
    parser.add_argument(
        "--seat", default="0", help="the seat to review: its number or the player's name (0)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="budget per decision, in seconds of one core (default 0.4)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the sampling (0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--progress", action="store_true", help="show the bar even off a terminal")
    parser.set_defaults(run=Run("burraco.cli.review"))


def add_verify_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "verify",
        help="check that a record's deals are the ones committed to before play",
        description=(
            "Check every smazzata of a record's [meta] fairness: the deck and the salt give "
            "the commitment, the deck is the one played, and the server's secret and the "
            "players' seeds give their commitments and the deck. Exit 0 verified, 1 a check "
            "failed, 2 unreadable or invalid input."
        ),
    )
    parser.add_argument("file", help="the record (TOML); - for standard input")
    parser.set_defaults(run=Run("burraco.cli.verify"))


def add_simulate_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many seeded games between bots and report statistics",
        description="Play N seeded smazzate (or matches) between bots and report statistics.",
        formatter_class=NamesHelpFormatter,
    )
    parser.add_argument("-n", "--games", type=int, default=1000, help="how many (default 1000)")
    parser.add_argument(
        "--matches", action="store_true", help="play whole matches instead of single smazzate"
    )
    add_rules_options(parser)
    add_bot_options(parser, default="random")
    parser.add_argument("--records", metavar="DIR", help="write every game as a record in DIR")
    parser.add_argument("--progress", action="store_true", help="show the bar even off a terminal")
    parser.set_defaults(run=Run("burraco.cli.simulate"))


def add_rules_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "rules",
        help="list the ruleset presets or show one",
        description="``burraco rules``: list the presets, or show every parameter of one.",
    )
    parser.add_argument("preset", nargs="?", help="show the parameters of this preset")
    parser.set_defaults(run=Run("burraco.cli.rules_cmd"))


def add_arena_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "arena",
        help="play bots against each other over duplicate deals and rate them",
        description=(
            "Play bots against each other over duplicate deals (each deal played with the seats"
            " swapped), on all cores, resumably; report won smazzate, Match Points with 95%%"
            " confidence intervals, Victory Points over 3-smazzata rounds, speed, and"
            " Bradley-Terry ratings. See docs/arena.md."
        ),
        formatter_class=NamesHelpFormatter,
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help=(
            "a bot: a level (random, greedy, ...), a level with options (search:seconds=0.5),"
            ' an outside program ("cmd:python my_bot.py"), optionally LABEL=SPEC; repeatable'
        ),
    )
    parser.add_argument(
        "--bots",
        metavar="LIST",
        help="comma-separated bot specs (levels: {bot_levels}); adds to --bot",
    )
    parser.add_argument(
        "--pairing",
        action="append",
        default=[],
        metavar="A,B[,C]",
        help="play only these bots (labels) against each other; repeatable (default: all pairs)",
    )
    parser.add_argument(
        "-n", "--deals", type=int, default=100, help="duplicate deals per pairing (default 100)"
    )
    parser.add_argument("--rules", default="italian", help="ruleset preset (default: italian)")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), help="players at the table (default: preset's)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one ruleset parameter (repeatable)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: all cores; 1 plays in this process)",
    )
    parser.add_argument(
        "--out", default="arena-results", metavar="DIR", help="output directory (resumable)"
    )
    parser.add_argument(
        "--records", action="store_true", help="write every game as a record in DIR/records"
    )
    parser.add_argument(
        "--round-size",
        type=int,
        choices=(2, 3, 4),
        default=3,
        help="smazzate per round for Victory Points (default 3: table VP-3)",
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamplings for the rating intervals (default 1000)",
    )
    parser.add_argument("--no-chart", action="store_true", help="do not draw the PNG chart")
    parser.add_argument("--progress", action="store_true", help="show the bar even off a terminal")
    parser.add_argument("--quiet", action="store_true", help="print no report (files only)")
    parser.set_defaults(run=Run("burraco.cli.arena"))


# ------------------------------------------------------------ commands of the server extra


def add_serve_parser(commands: Commands) -> None:
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
    mail = parser.add_argument_group("account mail (verification, password reset)")
    mail.add_argument("--smtp-host", help="SMTP server (default: no mail is sent)")
    mail.add_argument("--smtp-port", type=int, default=25, help="SMTP port (25)")
    mail.add_argument("--smtp-starttls", action="store_true", help="upgrade with STARTTLS")
    mail.add_argument("--smtp-username", help="SMTP login (password: BURRACO_SMTP_PASSWORD)")
    mail.add_argument("--mail-from", default="Burraco <burraco@localhost>", help="sender")
    mail.add_argument("--public-url", help="the site's address for links in mails")
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
    parser.add_argument(
        "--max-live-tables-per-user",
        type=int,
        default=20,
        help="tables one account may have waiting or in play (20)",
    )
    parser.add_argument(
        "--max-bot-tables-per-user",
        type=int,
        default=3,
        help="tables one account may have where only bots play (3)",
    )
    parser.add_argument(
        "--max-tournaments-per-user",
        type=int,
        default=10,
        help="tournaments one account may organise that are not finished (10)",
    )
    parser.add_argument(
        "--max-organiser-bots",
        type=int,
        default=32,
        help="bots one organiser may have entered over his tournaments not finished (32)",
    )
    parser.add_argument(
        "--chats-per-minute",
        type=float,
        default=20.0,
        help="chat lines one account may send a minute, over all its sockets (20)",
    )
    parser.add_argument(
        "--table-chats-per-minute",
        type=float,
        default=60.0,
        help="chat lines one table takes a minute from everybody (60)",
    )
    parser.add_argument(
        "--joins-per-minute",
        type=float,
        default=60.0,
        help="table joins (each answered with a snapshot) per connection a minute (60)",
    )
    parser.add_argument(
        "--account-joins-per-minute",
        type=float,
        default=120.0,
        help="table joins one account may make a minute, over all its sockets (120)",
    )
    parser.add_argument(
        "--invitations-per-minute",
        type=float,
        default=10.0,
        help="invitations and challenges one account may send a minute (10, bursts of 5)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a request's headers may take to arrive (10)",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=10.0,
        help="seconds a request's body may take to arrive after its headers; later: 408 (10)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=int,
        default=1 << 20,
        help="bytes of one request's body; more: 413 (1048576, 1 MiB)",
    )
    parser.add_argument(
        "--max-header-bytes",
        type=int,
        default=64 * 1024,
        help="bytes of one request's line and headers; more: 431 (65536, 64 KiB)",
    )
    parser.add_argument(
        "--max-headers",
        type=int,
        default=100,
        help="header lines of one request; more: 431 (100)",
    )
    parser.add_argument(
        "--keep-alive", type=float, default=5.0, help="seconds an idle connection stays open (5)"
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=2000,
        help="connections and requests at once; more are answered 503 (2000)",
    )
    parser.add_argument(
        "--allowed-origin-host",
        action="append",
        default=[],
        metavar="HOST",
        help="a public host name pages may come from, when a proxy rewrites Host (repeatable)",
    )
    reviews = parser.add_argument_group("the bot's reviews (docs/review-server.md)")
    reviews.add_argument(
        "--review-workers", type=int, default=1, help="worker processes for the reviews (1)"
    )
    reviews.add_argument(
        "--review-queue", type=int, default=20, help="reviews waiting at most; more: 503 (20)"
    )
    reviews.add_argument(
        "--review-seconds", type=float, default=0.4, help="a review's budget per decision (0.4)"
    )
    reviews.add_argument(
        "--reviews-per-day", type=int, default=10, help="reviews one account may ask a day (10)"
    )
    reviews.add_argument(
        "--reviews-pending-per-user",
        type=int,
        default=1,
        help="reviews one account may have queued or running at once (1)",
    )
    cluster = parser.add_argument_group("several processes (docs/cluster.md)")
    cluster.add_argument(
        "--redis-url", help="Redis of a cluster, e.g. redis://127.0.0.1:6379/0 (needs PostgreSQL)"
    )
    cluster.add_argument("--node", help="this process's name in the cluster (host:port)")
    cluster.add_argument(
        "--cluster-name", default="burraco", help="prefix of the cluster's Redis keys (burraco)"
    )
    cluster.add_argument(
        "--forwarded-allow-ips",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a proxy whose X-Forwarded-For names the client (repeatable; default: none)",
    )
    cluster.add_argument(
        "--lease-seconds",
        type=float,
        default=4.0,
        help="a process silent this long is dead and its tables are taken over (4)",
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
    parser.set_defaults(run=Run("burraco.cli.serve"))


def add_bot_connect_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "bot-connect",
        help="play online with a bot account: an outside program on a server",
        description="Connect a program that speaks the line protocol (docs/bot-protocol.md) to"
        " a Burraco server as a bot account: it takes the invitations and challenges it gets"
        " (and quick play if asked) and plays each of its seat's decisions with the program.",
    )
    parser.add_argument("--server", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument(
        "--token",
        help="the bot account's token (the account page shows it once; or BURRACO_BOT_TOKEN)",
    )
    parser.add_argument("--cmd", required=True, help='the program, e.g. "python my_bot.py"')
    parser.add_argument(
        "--accept",
        action="append",
        choices=("challenges", "quickplay"),
        default=None,
        help="what to take: challenges (invitations and challenges, the default), quickplay"
        " (queue for quick play after each match); repeatable",
    )
    parser.add_argument(
        "--table", action="append", default=[], metavar="ID", help="sit at this table (repeatable)"
    )
    parser.add_argument("--games", type=int, default=None, help="stop after N matches")
    parser.add_argument(
        "--time-ms", type=int, default=1000, help="the program's time per decision (1000)"
    )
    queue = parser.add_argument_group("quick play (with --accept quickplay)")
    queue.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="(2)")
    queue.add_argument("--rules", default="italian", help="the ruleset (italian)")
    queue.add_argument("--clock", default="none", help="none, 10 or 25 (none)")
    queue.add_argument("--rated", action="store_true", help="rated quick play")
    queue.add_argument(
        "--bots-after", type=float, default=None, help="let bots fill after 15, 30 or 60 s"
    )
    parser.add_argument("--stderr", help="a file for the program's standard error")
    parser.add_argument(
        "--seed", type=int, default=None, help="the seed the program gets in hello (none)"
    )
    parser.set_defaults(run=Run("burraco.cli.botconnect"))


def add_db_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "db",
        help="manage the server's database (migrations)",
        description="Manage the server's database.",
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    upgrade = actions.add_parser(
        "upgrade",
        help="run the migrations up to the latest schema",
        description="Run the database migrations up to the latest schema (a no-op when the"
        " database is up to date).",
    )
    upgrade.add_argument(
        "--database-url",
        help="e.g. postgresql://user@host/db (default: SQLite in the data folder, as serve)",
    )
    upgrade.add_argument("--data-dir", type=Path, default=Path("data"), help="data folder (data)")
    upgrade.set_defaults(run=Run("burraco.cli.db", "run_upgrade"))
    role = actions.add_parser(
        "role",
        help="give a registered player a role (the first administrator is made here)",
        description="Give a registered player the role player, moderator or admin; the change"
        " is written to the moderation audit log as done by the command line.",
    )
    role.add_argument("name", help="the player's name")
    role.add_argument("role", choices=["player", "moderator", "admin"])
    role.add_argument("--database-url", help="as for upgrade")
    role.add_argument("--data-dir", type=Path, default=Path("data"), help="data folder (data)")
    role.set_defaults(run=Run("burraco.cli.db", "run_role"))
