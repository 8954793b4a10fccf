"""What the commands that play games share: the ruleset and the bots from their options
(``parsers.add_rules_options`` and ``add_bot_options``)."""

from __future__ import annotations

import argparse
from typing import Any

from burraco.bots import Bot, make_bot
from burraco.engine import Rules, find_rules
from burraco.engine.errors import RulesError
from burraco.engine.rules import coerce_option, parameter_names


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
