"""Options shared by the commands that play games: the ruleset and the bots."""

from __future__ import annotations

import argparse
from typing import Any

from burraco.bots import BOT_LEVELS, Bot, make_bot
from burraco.engine import Rules, find_rules, preset_names
from burraco.engine.errors import RulesError
from burraco.engine.rules import coerce_option, parameter_names


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="italian",
        help=f"ruleset preset: {', '.join(preset_names())} (default: italian)",
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
            f"comma-separated bot levels, one per seat, repeated in seat order if fewer"
            f" ({', '.join(BOT_LEVELS)})"
        ),
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")


def rules_from_args(args: argparse.Namespace) -> Rules:
    overrides: dict[str, Any] = {"players": args.players}
    if args.target is not None:
        overrides["target_score"] = args.target
    if args.smazzate is not None:
        overrides["smazzate"] = args.smazzate
    for item in args.option:
        name, sep, text = item.partition("=")
        if not sep or name not in parameter_names():
            raise RulesError(f"--option {item!r}: expected NAME=VALUE with a ruleset parameter")
        overrides[name] = coerce_option(name, _parse_value(text))
    return find_rules(args.rules, **overrides)


def _parse_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    if "," in text:
        return [part.strip() for part in text.split(",") if part.strip()]
    return text


def bots_from_args(args: argparse.Namespace, players: int, seed: int) -> list[Bot]:
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    if not levels or len(levels) > players:
        raise ValueError(f"--bots names {len(levels)} bots for {players} seats")
    # Fewer levels than seats repeat in seat order: "greedy,random" at 4 players puts the
    # greedy bots in line 0 and the random ones in line 1.
    levels = [levels[seat % len(levels)] for seat in range(players)]
    return [make_bot(level, seed * 101 + seat) for seat, level in enumerate(levels)]
