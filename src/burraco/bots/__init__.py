"""Bots: players that see only their seat's view and choose among the engine's legal actions."""

from .base import Bot, RandomBot
from .greedy import GreedyBot
from .registry import BOT_LEVELS, make_bot

__all__ = ["BOT_LEVELS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
