"""What a bot is: something that picks one of the legal actions, seeing only its seat's view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from burraco.engine import Action
from burraco.engine.views import SeatView


class Bot(Protocol):
    """A player program. ``choose`` gets the seat's view and the engine's legal actions (never
    empty) and returns one of them. Bots are deterministic for a given seed. ``close`` frees
    what the bot holds (an outside program, a worker); it is called once, when it is done."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action: ...

    def close(self) -> None: ...


class RandomBot:
    """Uniformly random legal play: the floor of the ladder."""

    def __init__(self, seed: int | None = None, *, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]

    def close(self) -> None:
        pass
