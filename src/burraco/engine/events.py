"""What ``apply`` reports: the events that happened, in order.

Some events carry private cards (the card drawn, the pozzetto taken). ``visible_to(event, seat)``
in ``views.py`` redacts them for a seat that may not see them, so a server can forward events
without leaking anything.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card
from .melds import Meld


class Drew(NamedTuple):
    """``seat`` drew ``card`` from the stock (private to the seat; others see None)."""

    seat: int
    card: Card | None


class PickedUp(NamedTuple):
    """``seat`` took the whole discard pile (public: the pile was face up)."""

    seat: int
    cards: tuple[Card, ...]


class Opened(NamedTuple):
    seat: int
    line: int
    number: int
    """1-based meld number in the line."""
    meld: Meld


class Attached(NamedTuple):
    seat: int
    line: int
    number: int
    cards: tuple[Card, ...]
    meld: Meld
    """The meld after the attach (the wild may have moved)."""


class Discarded(NamedTuple):
    seat: int
    card: Card


class PozzettoTaken(NamedTuple):
    """``seat`` took pozzetto ``number`` (1-based) for ``line``: in diretta or con scarto.

    ``cards`` are private to the seat; a pozzetto taken con scarto is shown to its owner only at
    his next turn unless the rules say otherwise (R48), so views may carry None.
    """

    seat: int
    line: int
    number: int
    direct: bool
    cards: tuple[Card, ...] | None


class LineFormed(NamedTuple):
    """3 players (3.5): the two players other than the pozzetto taker now form one line."""

    line: int
    seats: tuple[int, ...]


class TurnStarted(NamedTuple):
    seat: int


class SmazzataEnded(NamedTuple):
    """The smazzata is over: ``reason`` is ``closing``, ``stock`` or ``stall``."""

    reason: str
    closed_by: int | None


Event = (
    Drew
    | PickedUp
    | Opened
    | Attached
    | Discarded
    | PozzettoTaken
    | LineFormed
    | TurnStarted
    | SmazzataEnded
)
