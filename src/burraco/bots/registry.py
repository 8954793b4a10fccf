"""Bots by name, for the command line, the arena and the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Bot, RandomBot
from .greedy import GreedyBot

BOT_LEVELS: Final[dict[str, Callable[[int | None], Bot]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of the named level (``random``, ``greedy``...), seeded for determinism."""
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None
    return factory(seed)
