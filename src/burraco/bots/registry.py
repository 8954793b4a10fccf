"""Bots by name, for the command line, the arena and the server.

A bot *spec* is a level name (``random``), a level with options (``search:seconds=0.5``), or an
outside program (``cmd:python my_bot.py``, see docs/bot-protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .base import Bot, RandomBot
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .search import SearchBot

BotFactory = Callable[..., Bot]
"""``factory(seed, **options)``."""

BOT_LEVELS: Final[dict[str, BotFactory]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


BOT_NAMES: Final[dict[str, str]] = {
    "random": "Beginner",
    "greedy": "Easy",
    "heuristic": "Expert",
    "search": "Champion",
}
"""What a person reads for each level (the browser localizes from the level via ``bot.*``)."""


def levels_by_strength() -> list[str]:
    """The bot levels, weakest first: the built-in ones in their order of strength, then any
    registered later (their strength is unknown, so they come last, in registration order)."""
    return [*BOT_NAMES, *(level for level in BOT_LEVELS if level not in BOT_NAMES)]


def display_name(spec: str, number: int | None = None) -> str:
    """A stable, human name for a bot seat, e.g. ``Bot Expert`` or ``Bot Expert 3``; never the
    internal level id. An outside program (``cmd:``) or an unknown level is ``Bot``."""
    title = BOT_NAMES.get(spec.partition(":")[0].strip())
    name = f"Bot {title}" if title else "Bot"
    return name if number is None else f"{name} {number}"


def register(level: str, factory: BotFactory) -> None:
    """Make a bot level available by name (bot modules call this when imported)."""
    BOT_LEVELS[level] = factory


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``level:key=value,key=value`` into the level and typed options."""
    level, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    if level == "cmd":
        return level, {"command": rest.strip()}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise ValueError(f"bot option {item!r} in {spec!r} is not KEY=VALUE")
        options[key.strip()] = _value(text.strip())
    return level, options


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its spec, seeded for determinism. Raises ValueError on an unknown spec."""
    level, options = parse_spec(spec)
    if level == "cmd":
        if not options["command"]:
            raise ValueError("cmd: needs the command line of the bot program")
        from .external import ExternalBot

        return ExternalBot(options["command"], seed=seed)
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join([*BOT_LEVELS, "cmd:COMMAND"])
        raise ValueError(f"unknown bot {level!r} (known: {known})") from None
    try:
        return factory(seed, **options)
    except TypeError as error:
        raise ValueError(f"bot {spec!r}: {error}") from None
