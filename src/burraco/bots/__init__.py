"""Bots: players that see only their seat's view and choose among the engine's legal actions."""

from .base import Bot, RandomBot
from .greedy import GreedyBot
from .registry import BOT_LEVELS, display_name, levels_by_strength, make_bot

__all__ = [
    "BOT_LEVELS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "display_name",
    "levels_by_strength",
    "make_bot",
]
